/**
 * The server bundle for `npm start` / `npm run serve` (decision 024): `server/main.ts` and the
 * React Router server build (`build/server/index.js`, made by `react-router build` just before)
 * as one tree-shaken ES module, `build/bundle/main.js`, plus the chunks of code loaded on first use
 * (`import()`: GraphQL, the S3 and Stripe SDKs …) beside it. `build/bundle/server.js` starts it
 * with Node's compile cache on.
 *
 * Starting from one file spares the process from resolving, reading and type-stripping thousands
 * of modules: most of the cold start from source. Node built-ins stay external, and so do the
 * packages listed in EXTERNAL (native bindings, files read at run time). The tests and
 * `npm run dev` keep running from source (`server/server.ts`); only the production start uses this.
 */
import { existsSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Plugin, RolldownMagicString, rolldown } from "rolldown";

const root = path.resolve(import.meta.dirname, "..");
const outDir = path.join(root, "build", "bundle");
const reactRouterBuild = path.join(root, "build", "server", "index.js");

/**
 * Packages loaded from node_modules at run time instead of bundled: `pg` (its optional native
 * binding `pg-native` is looked up with `require`); Shiki, whose 300 grammars are separate
 * modules imported on first use (bundled, each would become a chunk of its own); GraphiQL's
 * renderer, a development dependency used outside production only.
 */
const EXTERNAL = ["pg", "pg-native", "shiki", "@graphql-yoga/render-graphiql"];

/**
 * V8's young generation grows to 128 MiB under load with Node's defaults (semi-spaces of 64 MiB)
 * and that memory stays with the process; 16 MiB semi-spaces keep it at 32 MiB at no measurable
 * cost in throughput (decision 024). A heap growing factor of 2 (V8 picks up to 4 under a high
 * allocation rate) lets the old generation double its live size between full collections instead
 * of quadrupling it: ~100 MB less after the bench's loads (decision 026). Node reads heap flags
 * only at start: `npm run serve` passes them; started without them (`node build/bundle/server.js`),
 * the start file runs itself again with them (same process id, `process.execve`, one more Node
 * start of ~30 ms CPU), unless they were given in NODE_OPTIONS, and runs as it is where `execve`
 * is not available.
 */
const NODE_FLAGS = ["--max-semi-space-size=16", "--heap-growing-percent=100"];

/**
 * The C library's allocator settings, read only when a process starts (decision 026). glibc gives
 * each thread that allocates its own arena (up to eight per core) and keeps what was freed in
 * each: the thread pool's compressions and V8's GC helper threads left ~25–40 MB apiece after a
 * load. Two arenas cut RSS after the load by about 50 MB at no measurable cost in throughput.
 * Other C libraries ignore the variable. A value already in the environment is kept.
 */
const NODE_ENV_VARS: Record<string, string> = { MALLOC_ARENA_MAX: "2" };

const LAUNCHER = `// Starts the server bundle (scripts/build-server.ts, decision 024).
import { enableCompileCache } from "node:module";

const flags = ${JSON.stringify(NODE_FLAGS)};
const vars = ${JSON.stringify(NODE_ENV_VARS)};
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\\s+/)];
const missing = flags.filter((flag) => !given.some((arg) => arg.split("=")[0] === flag.split("=")[0]));
const unset = Object.keys(vars).filter((name) => process.env[name] === undefined);
if (
  (missing.length > 0 || unset.length > 0) &&
  typeof process.execve === "function" &&
  !process.env.LUMEN_NODE_FLAGS
) {
  try {
    process.execve(
      process.execPath,
      [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)],
      { ...vars, ...process.env, LUMEN_NODE_FLAGS: [...missing, ...unset].join(" ") },
    );
  } catch {
    // Runs with Node's defaults.
  }
}
enableCompileCache?.();
await import("./main.js");
`;

const ENTRY = "\0lumen-server-entry";
const PROVIDE_BUILD = "\0lumen-provide-build";

/**
 * The bundle's entry: hand the React Router build to `server/server.ts`, then run `server/main.ts`.
 * ES modules evaluate in import order, so the build is in place before main starts the server.
 */
const entryPlugin: Plugin = {
  name: "lumen-server-entry",
  resolveId(id) {
    if (id === ENTRY || id === PROVIDE_BUILD) return id;
    return null;
  },
  load(id) {
    if (id === PROVIDE_BUILD) {
      return [
        `import * as build from ${JSON.stringify(reactRouterBuild)};`,
        `import { provideServerBuild } from ${JSON.stringify(path.join(root, "server", "server.ts"))};`,
        "provideServerBuild(build);",
      ].join("\n");
    }
    if (id === ENTRY) {
      return [
        `import ${JSON.stringify(PROVIDE_BUILD)};`,
        `import ${JSON.stringify(path.join(root, "server", "main.ts"))};`,
      ].join("\n");
    }
    return null;
  },
};

/**
 * `import.meta.url` and `import.meta.dirname` of our own modules keep meaning the source file's
 * place (the seed reads its demo bodies and media beside its module, `server/version.ts` reads
 * package.json): rewritten relative to the bundle, so the build folder can move with the checkout.
 */
const sourceLocationPlugin: Plugin = {
  name: "lumen-source-location",
  transform: {
    filter: {
      id: { exclude: /node_modules|[\\/]build[\\/]/ },
      code: { include: /import\.meta\.(url|dirname)/ },
    },
    handler(code, id) {
      const toSource = path.relative(outDir, id).split(path.sep).join("/");
      const toDir = path.relative(outDir, path.dirname(id)).split(path.sep).join("/") || ".";
      const rewritten = new RolldownMagicString(code)
        .replaceAll("import.meta.url", `new URL(${JSON.stringify(toSource)}, import.meta.url).href`)
        .replaceAll("import.meta.dirname", `(import.meta.dirname + ${JSON.stringify(`/${toDir}`)})`);
      return { code: rewritten };
    },
  },
};

if (!existsSync(reactRouterBuild)) {
  process.stderr.write(
    `No React Router server build at ${reactRouterBuild}: run \`react-router build\` first\n`,
  );
  process.exit(1);
}

const started = performance.now();
rmSync(outDir, { recursive: true, force: true });
const bundle = await rolldown({
  input: { server: ENTRY },
  platform: "node",
  external: [/^node:/, ...EXTERNAL.map((name) => new RegExp(`^${name}(/|$)`))],
  plugins: [entryPlugin, sourceLocationPlugin],
  // A package's ES module build before its CommonJS one (recharts ships both without an exports
  // map): ES modules are tree-shaken and evaluated in place, CommonJS is wrapped whole.
  resolve: { mainFields: ["module", "main"] },
  transform: { define: { "process.env.NODE_ENV": JSON.stringify("production") } },
  onLog(level, log, handler) {
    // React libraries' "use client" markers mean nothing on the server.
    if (log.code === "MODULE_LEVEL_DIRECTIVE") return;
    handler(level, log);
  },
});
const output = await bundle.write({
  dir: outDir,
  format: "esm",
  entryFileNames: "main.js",
  chunkFileNames: "[name]-[hash].js",
  sourcemap: true,
  // `--no-minify` keeps names readable in CPU profiles.
  minify: !process.argv.includes("--no-minify"),
});
await bundle.close();
// The start file (build/bundle/server.js): Node's flags for a server first (below), then Node's
// compile cache (V8 code for the bundle kept on disk between starts, in NODE_COMPILE_CACHE or the
// system temp folder; without a writable one it starts uncached), then the bundle itself.
writeFileSync(path.join(outDir, "server.js"), LAUNCHER);
const files = output.output.filter((file) => file.type === "chunk");
const size = (name: string) => statSync(path.join(outDir, name)).size;
const entry = files.find((file) => file.isEntry)!;
process.stdout.write(
  `Server bundle: build/bundle/server.js starts ${entry.fileName} (${Math.round(size(entry.fileName) / 1024)} KB) and ${files.length - 1} chunks loaded on first use (${Math.round(files.filter((f) => !f.isEntry).reduce((sum, f) => sum + size(f.fileName), 0) / 1024)} KB), in ${Math.round(performance.now() - started)} ms\n`,
);
