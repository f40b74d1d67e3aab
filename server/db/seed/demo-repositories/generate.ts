/**
 * Writes the demo repositories (catalog.ts) as bare git repositories under a folder, with
 * isomorphic-git: objects written directly (no working tree), fixed author and dates, so the
 * object ids are the same every time. A repository whose marker holds the current
 * DEMO_REPOSITORIES_VERSION is left alone (a second seed does nothing); an older one is replaced.
 */
import fs from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import git, { type TreeEntry } from "isomorphic-git";
import { DEMO_AUTHOR, DEMO_REPOSITORIES, DEMO_REPOSITORIES_VERSION, type DemoRepository } from "./catalog.ts";

const MARKER = "lumen-demo-version";
const FILES = new URL("./files/", import.meta.url);

interface FileRef {
  oid: string;
  mode: string;
}

async function writeTreeOf(gitdir: string, files: Map<string, FileRef>, prefix = ""): Promise<string> {
  const entries: TreeEntry[] = [];
  const folders = new Set<string>();
  for (const [filePath, ref] of files) {
    if (!filePath.startsWith(prefix)) continue;
    const rest = filePath.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) entries.push({ mode: ref.mode, path: rest, oid: ref.oid, type: "blob" });
    else folders.add(rest.slice(0, slash));
  }
  for (const folder of folders) {
    const oid = await writeTreeOf(gitdir, files, `${prefix}${folder}/`);
    entries.push({ mode: "040000", path: folder, oid, type: "tree" });
  }
  return git.writeTree({ fs, gitdir, tree: entries });
}

async function generateOne(root: string, repo: DemoRepository): Promise<void> {
  const gitdir = path.join(root, repo.slug);
  await rm(gitdir, { recursive: true, force: true });
  await mkdir(gitdir, { recursive: true });
  const defaultBranch = repo.branches[0]!.name;
  await git.init({ fs, dir: gitdir, gitdir, bare: true, defaultBranch });

  const heads = new Map<string, { commit: string; files: Map<string, FileRef> }>();
  for (const branch of repo.branches) {
    const base = branch.from ? heads.get(branch.from) : undefined;
    if (branch.from && !base) throw new Error(`demo repository ${repo.slug}: unknown branch ${branch.from}`);
    let parent = base?.commit ?? null;
    const files = new Map(base?.files ?? []);
    for (const c of branch.commits) {
      for (const file of c.files) {
        const blob = await readFile(new URL(`${repo.slug}/${file}`, FILES));
        const oid = await git.writeBlob({ fs, gitdir, blob: new Uint8Array(blob) });
        files.set(file, { oid, mode: "100644" });
      }
      const tree = await writeTreeOf(gitdir, files);
      const when = { ...DEMO_AUTHOR, timestamp: Math.floor(Date.parse(c.date) / 1000), timezoneOffset: 0 };
      parent = await git.commit({
        fs,
        gitdir,
        message: `${c.message}\n`,
        author: when,
        committer: when,
        tree,
        parent: parent ? [parent] : [],
        ref: `refs/heads/${branch.name}`,
      });
    }
    if (!parent) throw new Error(`demo repository ${repo.slug}: branch ${branch.name} has no commits`);
    heads.set(branch.name, { commit: parent, files });
  }
  await writeFile(path.join(gitdir, MARKER), `${DEMO_REPOSITORIES_VERSION}\n`);
}

/** Generates every demo repository under `root` that is missing or from an older catalog. */
export async function generateDemoRepositories(root: string): Promise<{ generated: string[] }> {
  await mkdir(root, { recursive: true });
  const generated: string[] = [];
  for (const repo of DEMO_REPOSITORIES) {
    const marker = await readFile(path.join(root, repo.slug, MARKER), "utf8").catch(() => "");
    if (marker.trim() === String(DEMO_REPOSITORIES_VERSION)) continue;
    await generateOne(root, repo);
    generated.push(repo.slug);
  }
  return { generated };
}
