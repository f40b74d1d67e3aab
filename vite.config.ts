import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/*
 * Client chunking (docs/decisions/021-first-load-javascript.md). React Router splits the route
 * modules; on top of that:
 * - "framework": React, React DOM and React Router, one long-cached file every page needs;
 * - "shell": what the root route imports statically (layout, sidebar, session, the icons they use),
 *   one file instead of dozens of tiny shared chunks.
 * Everything else (admin screens, the editor, charts, GraphiQL, comments …) stays with the routes
 * and lazy imports that use it.
 */
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
const ROOT_MODULE = path.resolve(import.meta.dirname, "app/root.tsx");
const ROOT_ROUTE = `${ROOT_MODULE}?__react-router-build-client-route`;
/** Re-exporting index files: walking through them would reach every module they re-export. */
const BARRELS = [path.resolve(import.meta.dirname, "core/index.ts")];

/** Public reading routes: everything at the top of app/routes and app/routes/sections. */
const READER_ROUTE =
  /[\\/]app[\\/]routes[\\/](sections[\\/])?(?!admin-debug)[\w-]+\.tsx\?__react-router-build-client-route$/;
const ROUTE_ENTRY = /\?__react-router-build-client-route$/;

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[]; importers: readonly string[] } | null;
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 6);

/** The modules the root route reaches through static imports, computed once per chunking pass. */
let shell: { graph: ModuleGraph; modules: Set<string> } | null = null;
function shellModules(graph: ModuleGraph): Set<string> {
  if (shell?.graph === graph) return shell.modules;
  const modules = new Set<string>();
  const queue = [ROOT_ROUTE];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (modules.has(id) || BARRELS.includes(id)) continue;
    modules.add(id);
    for (const next of graph.getModuleInfo(id)?.importedIds ?? []) queue.push(next);
  }
  shell = { graph, modules };
  return modules;
}

/**
 * The reading routes that reach a module through static imports. Modules reached by the same
 * reading routes share one chunk, whatever account or staff routes also use them: otherwise every
 * icon used by a slightly different set of routes becomes its own tiny file.
 */
const readers = new WeakMap<ModuleGraph, Map<string, string>>();
function readerSignature(graph: ModuleGraph, id: string): string {
  let memo = readers.get(graph);
  if (!memo) {
    memo = new Map();
    readers.set(graph, memo);
  }
  const known = memo.get(id);
  if (known !== undefined) return known;
  const routes = new Set<string>();
  const seen = new Set<string>([id]);
  const queue = [id];
  while (queue.length > 0) {
    const current = queue.pop() as string;
    for (const importer of graph.getModuleInfo(current)?.importers ?? []) {
      if (seen.has(importer)) continue;
      seen.add(importer);
      if (ROUTE_ENTRY.test(importer)) {
        if (READER_ROUTE.test(importer)) routes.add(path.basename(importer.replace(ROUTE_ENTRY, ""), ".tsx"));
      } else queue.push(importer);
    }
  }
  const signature = [...routes].sort().join("+");
  memo.set(id, signature);
  return signature;
}

/**
 * Modules shared by two or more reading routes: one chunk per set of routes. The most shared are
 * grouped first, so a group that takes its modules' dependencies along takes only those used by
 * exactly its routes (a dependency is used by at least the routes of what imports it).
 */
const MAX_READER_ROUTES = 40;
const COMMON_SHARE = 5;
const ICON = /[\\/]node_modules[\\/]lucide-react[\\/]/;

function readerGroups() {
  return Array.from({ length: MAX_READER_ROUTES - 1 }, (_, i) => {
    const size = MAX_READER_ROUTES - i;
    return {
      name: (id: string, ctx: ModuleGraph) => {
        if (ROUTE_ENTRY.test(id)) return null;
        const signature = readerSignature(ctx, id);
        const shared = signature ? signature.split("+").length : 0;
        if (shared < 2) return null;
        // Icons and modules most reading routes use: one common file.
        if (shared >= COMMON_SHARE || ICON.test(id)) return size === MAX_READER_ROUTES ? "reader" : null;
        return shared === size ? `reader-${hash(signature)}` : null;
      },
      priority: size,
    };
  });
}

/**
 * Rewrites `import { House, Menu } from "lucide-react"` to one import per icon module in the client
 * build, so the module graph says which icons each file uses (the package's index re-exports all
 * of them). The name → file table is read from lucide-react's own index.
 */
function lucideIconImports(): Plugin {
  const require = createRequire(import.meta.url);
  const index = require.resolve("lucide-react").replace(/cjs[\\/]lucide-react\.js$/, "esm/lucide-react.mjs");
  const files = new Map<string, string>();
  for (const [, names, file] of readFileSync(index, "utf8").matchAll(
    /export \{([^}]+)\} from '\.\/icons\/([a-z0-9-]+)\.mjs';/g,
  )) {
    for (const name of (names as string).matchAll(/default as (\w+)/g))
      files.set(name[1] as string, file as string);
  }
  const importDeclaration = /import\s*\{([^}]*)\}\s*from\s*["']lucide-react["'];?/g;
  return {
    name: "lumen:lucide-icon-imports",
    // The production client build only: the dev server's dependency optimiser serves the index whole.
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    transform: {
      filter: { id: /\.[jt]sx?$/, code: /["']lucide-react["']/ },
      handler(code) {
        let changed = false;
        const out = code.replace(importDeclaration, (whole, list: string) => {
          const kept: string[] = [];
          const deep: string[] = [];
          for (const raw of list.split(",")) {
            const spec = raw.trim();
            if (!spec) continue;
            const [imported, local = imported] = spec.split(/\s+as\s+/) as [string, string?];
            const file = files.get(imported);
            if (file) deep.push(`import ${local} from "lucide-react/icons/${file}";`);
            else kept.push(spec);
          }
          if (deep.length === 0) return whole;
          changed = true;
          // One line, so the lines after it keep their numbers.
          const rest = kept.length > 0 ? `import { ${kept.join(", ")} } from "lucide-react";` : "";
          return `${deep.join(" ")}${rest}`.replaceAll("\n", " ");
        });
        return changed ? { code: out, map: null } : undefined;
      },
    },
  };
}

export default defineConfig({
  plugins: [lucideIconImports(), tailwindcss(), reactRouter()],
  server: { host: "127.0.0.1" },
  // build/client/.vite/manifest.json: which file holds which module (not served: the server serves
  // /assets and top-level files only). The first-load browser test reads it.
  build: { manifest: true },
  environments: {
    client: {
      build: {
        sourcemap: process.env.BUILD_SOURCEMAP === "1",
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: FRAMEWORK, priority: 1000 },
                {
                  // root.tsx itself (and the stylesheet it imports) stays in the root route's file:
                  // lazy chunks importing the shell would otherwise list the stylesheet as theirs.
                  name: (id, ctx) =>
                    !id.startsWith(ROOT_MODULE) && !/\.css($|\?)/.test(id) && shellModules(ctx).has(id)
                      ? "shell"
                      : null,
                  priority: 999,
                },
                ...readerGroups(),
              ],
            },
          },
        },
      },
    },
  },
});
