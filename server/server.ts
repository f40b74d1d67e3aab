import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import type { Env } from "./env.ts";
import { createHttpApp } from "./http/app.ts";
import { createRuntime, type Runtime, type RuntimeOptions } from "./runtime.ts";

export interface RunningServer {
  url: string;
  port: number;
  runtime: Runtime;
  close(): Promise<void>;
}

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");
export const BUILD_DIR = path.join(PROJECT_ROOT, "build");

export async function loadServerBuild(buildDir = BUILD_DIR): Promise<ServerBuild> {
  const entry = path.join(buildDir, "server", "index.js");
  if (!existsSync(entry)) throw new Error(`No production build at ${entry}: run \`npm run build\` first`);
  return (await import(pathToFileURL(entry).href)) as ServerBuild;
}

/** Start the production server: runtime (migrated, seeded if empty), HTTP app, listening socket. */
export async function startServer(
  env: Env,
  options: RuntimeOptions & { buildDir?: string } = {},
): Promise<RunningServer> {
  const buildDir = options.buildDir ?? BUILD_DIR;
  const build = await loadServerBuild(buildDir);
  const runtime = await createRuntime(env, options);
  const app = createHttpApp({
    runtime,
    build,
    clientDir: path.relative(process.cwd(), path.join(buildDir, "client")) || ".",
    mode: env.NODE_ENV === "development" ? "development" : "production",
  });
  const server = serve({
    fetch: app.fetch,
    // Keep the platform's Request/Response: libraries (Shiki's WASM loader) rely on them.
    overrideGlobalObjects: false,
    port: env.PORT,
    hostname: env.HOST,
    serverOptions: { maxHeaderSize: 16 * 1024, requestTimeout: 30_000 },
  });
  await new Promise<void>((resolve, reject) => {
    if (server.listening) resolve();
    server.once("listening", () => resolve());
    server.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
  return {
    url: `http://${host}:${port}`,
    port,
    runtime,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await runtime.close();
    },
  };
}
