/**
 * Path and branch-name safety for repository sources (SECURITY.md 15). Every path a caller gives
 * is checked here before any source sees it: relative, forward slashes, no `.`/`..`/empty segments,
 * no backslash, NUL or control characters, no percent-encoded traversal. A bad path is a
 * BadInputError; a good path that names nothing is the source's NotFoundError.
 */
import { BadInputError } from "../../../errors.ts";

const MAX_PATH = 4096;
/** Percent-encodings of `.`, `/`, `\` and NUL: a path holding one is refused, decoded or not. */
const ENCODED = /%(2e|2f|5c|00)/i;

/** A file path inside a repository ("src/index.ts"). */
export function safeRepositoryPath(input: string): string {
  const path = safeDirectory(input);
  if (path === "") throw new BadInputError("repository path is not valid");
  return path;
}

/** A folder inside a repository; "" (or "/" alone) is the root. A trailing slash is allowed. */
export function safeDirectory(input: string): string {
  if (typeof input !== "string" || input.length > MAX_PATH) {
    throw new BadInputError("repository path is not valid");
  }
  if (input === "" || input === "/") return "";
  const trimmed = input.endsWith("/") ? input.slice(0, -1) : input;
  if (
    trimmed.startsWith("/") ||
    /^[A-Za-z]:/.test(trimmed) ||
    trimmed.includes("\\") ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    /[\u0000-\u001f\u007f]/.test(trimmed) ||
    ENCODED.test(trimmed) ||
    trimmed.split("/").some((s) => s === "" || s === "." || s === "..")
  ) {
    throw new BadInputError("repository path is not valid");
  }
  return trimmed;
}

/** A branch name as git allows it (check-ref-format), without anything that could escape refs/. */
export function safeBranchName(input: string): string {
  if (
    typeof input !== "string" ||
    input.length === 0 ||
    input.length > 255 ||
    input.startsWith("-") ||
    input.startsWith("/") ||
    input.endsWith("/") ||
    input.endsWith(".") ||
    input.endsWith(".lock") ||
    input.includes("..") ||
    input.includes("//") ||
    input.includes("@{") ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    /[\u0000-\u0020\u007f~^:?*[\\]/.test(input) ||
    input.split("/").some((s) => s.startsWith("."))
  ) {
    throw new BadInputError("branch name is not valid");
  }
  return input;
}

/**
 * Where a symlink stored in a repository points, as a path from the repository root, or null when
 * it leaves the repository (absolute target, or more `..` than folders).
 */
export function resolveSymlinkTarget(linkPath: string, target: string): string | null {
  if (target.startsWith("/") || target.includes("\\") || target.includes("\0") || /^[A-Za-z]:/.test(target)) {
    return null;
  }
  const parts = linkPath.split("/").slice(0, -1);
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length === 0 ? null : parts.join("/");
}
