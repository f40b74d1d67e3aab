/**
 * `npm start`: build if the production build is missing or older than the sources,
 * then serve the server bundle (the server migrates and seeds an empty database itself).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuild } from "./ensure-build.ts";

ensureBuild();
await import(pathToFileURL(path.join(import.meta.dirname, "..", "build", "bundle", "server.js")).href);
