/**
 * zod schemas for what the repositories repository stores as JSON.
 */
import { z } from "zod";
import { stringListSchema } from "../../db/json.ts";

/** GitHubRepository.tags. */
export const repositoryTagsSchema = stringListSchema;

/** RepositoryIssue.labels: label names. */
export const issueLabelsSchema = stringListSchema;

/** Repository file paths: relative, forward slashes, no `.`/`..` segments, no leading slash. */
export const repositoryPathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (p) =>
      !p.startsWith("/") &&
      !p.includes("\\") &&
      !p.includes("\0") &&
      p.split("/").every((s) => s !== "" && s !== "." && s !== ".."),
    { message: "path must be relative without . or .. segments" },
  );
