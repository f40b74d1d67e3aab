/** `npm run dev`: the same HTTP app with Vite in middleware mode (HMR on the same server). */
import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { createServer as createViteServer } from "vite";
import { loadEnv } from "../server/env.ts";
import { createHttpApp } from "../server/http/app.ts";
import { healthProbeResponder } from "../server/http/health-probes.ts";
import { createRuntime } from "../server/runtime.ts";

process.env.NODE_ENV ??= "development";
const env = loadEnv();
const runtime = await createRuntime(env);
const httpServer = createServer();
const vite = await createViteServer({
  server: { middlewareMode: true, ws: { server: httpServer } },
  appType: "custom",
});
const app = createHttpApp({
  runtime,
  build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  mode: "development",
});
const listener = getRequestListener(app.fetch, { overrideGlobalObjects: false });
// /health/live and /health/ready as in production (no graceful drain in development).
const probe = healthProbeResponder({ draining: () => false, ping: (ms) => runtime.database.ping(ms) });
httpServer.on("request", (req, res) => {
  if (probe(req, res)) return;
  vite.middlewares(req, res, () => listener(req, res));
});
httpServer.listen(env.PORT, env.HOST, () => {
  runtime.logger.info(`Lumen Hub (development) on http://${env.HOST}:${env.PORT}`);
});
