/**
 * The lint rule that keeps features apart (biome.json `overrides`): a feature imports only
 * itself, app/lib, app/components and core/; app/lib and app/components import no feature.
 * Probe files in a scratch tree are linted with the project's own configuration.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const biome = path.join(root, "node_modules/.bin/biome");

const probes: Record<string, string> = {
  "app/features/search/cross.ts": 'export { x } from "../account/user-summary.tsx";\n',
  "app/features/search/by-folder.ts": 'export { x } from "../../features/account/user-summary.tsx";\n',
  "app/features/search/allowed.ts": [
    'export { a } from "./search-data.ts";',
    'export { b } from "../../lib/api.ts";',
    'export { c } from "../../components/ui/card.tsx";',
    'export { d } from "../../../core/index.ts";',
    "",
  ].join("\n"),
  "app/lib/bad.ts": 'export { x } from "../features/auth/sign-in-form.tsx";\n',
  "app/components/bad.tsx": 'export { x } from "../features/layout/sidebar.tsx";\n',
  "app/components/good.tsx": 'export { x } from "../lib/api.ts";\n',
  "app/routes/composes.tsx": 'export { x } from "../features/account/user-summary.tsx";\n',
};

let scratch = "";
let flagged: string[] = [];

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "feature-boundaries-"));
  copyFileSync(path.join(root, "biome.json"), path.join(scratch, "biome.json"));
  for (const [file, text] of Object.entries(probes)) {
    mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
    writeFileSync(path.join(scratch, file), text);
  }
  const run = spawnSync(
    biome,
    ["lint", "--vcs-enabled=false", "--reporter=github", "--only=style/noRestrictedImports", "."],
    { cwd: scratch, encoding: "utf8" },
  );
  flagged = [...run.stdout.matchAll(/title=lint\/style\/noRestrictedImports,file=([^,]+),/g)]
    .map((m) => path.relative(scratch, m[1]!))
    .sort();
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("feature boundaries (biome.json)", () => {
  it("refuses a feature importing another feature, and shared code importing a feature", () => {
    expect(flagged).toEqual([
      "app/components/bad.tsx",
      "app/features/search/by-folder.ts",
      "app/features/search/cross.ts",
      "app/lib/bad.ts",
    ]);
  });
});
