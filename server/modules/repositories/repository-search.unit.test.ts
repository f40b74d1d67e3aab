import { describe, expect, it } from "vitest";
import { visitor } from "../../../tests/factories/actors.ts";
import { BadInputError, NotFoundError } from "../../errors.ts";
import type { FileView, TreeListing } from "./repository-browser.ts";
import { createRepositorySearch, type RepositorySearchReads, SEARCH_MAX_HITS } from "./repository-search.ts";

/** An in-memory repository: path → text (or bytes for a binary file). */
function fakeReads(files: Record<string, string | Uint8Array>, branch = "main"): RepositorySearchReads {
  const listing = (dir: string): TreeListing => {
    const prefix = dir ? `${dir}/` : "";
    const names = new Map<string, "file" | "dir">();
    for (const path of Object.keys(files)) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf("/");
      names.set(slash < 0 ? rest : rest.slice(0, slash), slash < 0 ? "file" : "dir");
    }
    if (dir && names.size === 0) throw new NotFoundError("path", dir);
    const entries = [...names].map(([name, type]) => {
      const path = `${prefix}${name}`;
      const content = files[path];
      return { name, path, type, size: type === "file" ? (content?.length ?? 0) : null, sha: "x" };
    });
    return { branch, dir, entries, stale: false };
  };
  return {
    async listRepositoryTree(_actor, _slug, options = {}) {
      if (options.branch && options.branch !== branch) throw new NotFoundError("branch", options.branch);
      return listing(options.dir ?? "");
    },
    async readRepositoryFile(_actor, _slug, { path }) {
      const content = files[path];
      if (content === undefined) throw new NotFoundError("path", path);
      const isBinary = typeof content !== "string";
      const bytes = isBinary ? content : new TextEncoder().encode(content);
      return {
        branch,
        path,
        name: path.split("/").pop()!,
        size: bytes.length,
        sha: "x",
        isBinary,
        mimeType: isBinary ? "application/octet-stream" : "text/plain",
        language: null,
        text: isBinary ? null : content,
        bytes,
        tooLargeToHighlight: false,
        downloadOnly: false,
        stale: false,
      } satisfies FileView;
    },
  };
}

describe("searchRepository", () => {
  const files = {
    "README.md": "# Tidy CSV\nRun tidy_csv.py on a file.\n",
    "src/clean.py": "import csv\n\ndef normalise_header(name):\n    return name.strip().lower()\n",
    "src/deep/notes.txt": "Nothing here.\nNORMALISE everything\n",
    "logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
  };
  const search = createRepositorySearch(fakeReads(files));

  it("finds a string case-insensitively in every folder, with 1-based line numbers", async () => {
    const result = await search.searchRepository(visitor(), "tidy-csv", { query: "Normalise" });
    expect(result.branch).toBe("main");
    expect(result.hits).toEqual([
      { path: "src/clean.py", line: 3, text: "def normalise_header(name):" },
      { path: "src/deep/notes.txt", line: 2, text: "NORMALISE everything" },
    ]);
    expect(result.truncated).toBe(false);
    expect(result.filesSearched).toBe(4);
  });

  it("skips binary files and finds nothing where nothing matches", async () => {
    const result = await search.searchRepository(visitor(), "tidy-csv", { query: "PNG" });
    expect(result.hits).toEqual([]);
  });

  it("caps the hits and says so", async () => {
    const many = { "big.txt": Array.from({ length: SEARCH_MAX_HITS + 50 }, (_, i) => `hit ${i}`).join("\n") };
    const result = await createRepositorySearch(fakeReads(many)).searchRepository(visitor(), "r", {
      query: "hit",
    });
    expect(result.hits).toHaveLength(SEARCH_MAX_HITS);
    expect(result.truncated).toBe(true);
  });

  it("refuses an empty or overlong query and passes an unknown branch's NOT_FOUND on", async () => {
    await expect(search.searchRepository(visitor(), "r", { query: "  " })).rejects.toBeInstanceOf(
      BadInputError,
    );
    await expect(search.searchRepository(visitor(), "r", { query: "x".repeat(201) })).rejects.toBeInstanceOf(
      BadInputError,
    );
    await expect(
      search.searchRepository(visitor(), "r", { query: "csv", branch: "nope" }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
