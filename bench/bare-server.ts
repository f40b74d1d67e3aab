/**
 * The bench's baseline: a bare `node:http` server, in its own process, answering every request
 * with the same bytes (a page the app served), read once into memory.
 * Usage: node bench/bare-server.ts <file> <port> [content-type] [content-encoding]
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [file, port, contentType, contentEncoding] = process.argv.slice(2);
if (!file || !port) {
  process.stderr.write("usage: node bench/bare-server.ts <file> <port> [content-type]\n");
  process.exit(2);
}
const body = readFileSync(file);
const headers: Record<string, string | number> = {
  "content-type": contentType || "text/html; charset=utf-8",
  "content-length": body.length,
};
if (contentEncoding) headers["content-encoding"] = contentEncoding;
const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
