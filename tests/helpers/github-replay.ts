/**
 * A local HTTP server that replays recorded GitHub REST responses (tests/fixtures/github/*.json),
 * so the GitHub client and sync are tested without the network. A fixture is one exchange:
 * `{ request: { method, path (with query), ifNoneMatch? }, response: { status, headers, body } }`.
 * A fixture with `ifNoneMatch` answers only a request carrying that If-None-Match (the recorded
 * 304); anything unmatched is a 404 like GitHub's. Every request is logged for assertions.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface GitHubFixture {
  request: { method: string; path: string; ifNoneMatch?: string };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

export interface ReplayedRequest {
  method: string;
  path: string;
  ifNoneMatch: string | null;
  authorization: string | null;
}

export interface GitHubReplay {
  url: string;
  requests: ReplayedRequest[];
  close(): Promise<void>;
}

const FIXTURES = new URL("../fixtures/github/", import.meta.url);

export function loadGitHubFixtures(): GitHubFixture[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(new URL(f, FIXTURES), "utf8")) as GitHubFixture);
}

export async function startGitHubReplay(fixtures = loadGitHubFixtures()): Promise<GitHubReplay> {
  const requests: ReplayedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    const ifNoneMatch = (req.headers["if-none-match"] as string | undefined) ?? null;
    requests.push({
      method: req.method ?? "GET",
      path,
      ifNoneMatch,
      authorization: (req.headers.authorization as string | undefined) ?? null,
    });
    const candidates = fixtures.filter((f) => f.request.method === req.method && f.request.path === path);
    const match =
      candidates.find((f) => f.request.ifNoneMatch !== undefined && f.request.ifNoneMatch === ifNoneMatch) ??
      candidates.find((f) => f.request.ifNoneMatch === undefined);
    if (!match) {
      res.writeHead(404, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ message: "Not Found", status: "404" }));
      return;
    }
    res.writeHead(match.response.status, match.response.headers);
    res.end(match.response.body === null ? undefined : JSON.stringify(match.response.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
