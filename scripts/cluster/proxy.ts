/**
 * The small round-robin HTTP proxy in front of the app processes of `npm run cluster` (decision
 * 029). It forwards method, path and headers (adding X-Forwarded-For, -Proto and -Host; the app
 * trusts them with TRUST_PROXY=1), streams bodies both ways and keeps a keep-alive pool per
 * upstream.
 *
 * An upstream whose connection is refused is marked down and the request goes to the next one:
 * a request is retried only when no byte of it was sent yet (the body is piped only once the
 * connection is open), or when its method is idempotent, it has no body and no byte of the answer
 * has reached the client. A down upstream is probed every `probeIntervalMs` (GET on the first of
 * HEALTH_PATHS it answers) and gets requests again once the probe answers 2xx.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * Health routes, tried in order; an upstream that answers 404 on one is probed on the next from
 * then on. `/health/ready` (readiness: database and storage reachable, start-up done) is preferred
 * where the server has it; `/api/health` is the older combined check.
 */
export const HEALTH_PATHS = ["/health/ready", "/api/health"] as const;

/** Methods whose repetition has the same effect as one request (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]);

/** Hop-by-hop headers (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "proxy-authenticate",
  "proxy-authorization",
]);

/** Connection errors that mean the upstream process is not there (or went away). */
const DOWN_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ETIMEDOUT", "EPIPE"]);

export interface UpstreamState {
  url: string;
  up: boolean;
  /** Requests answered (any status) since the proxy started. */
  served: number;
}

export interface ProxyOptions {
  /** Upstream origins, e.g. http://127.0.0.1:3001. */
  upstreams: string[];
  port?: number;
  host?: string;
  /** How often a down upstream is probed (default 500 ms). */
  probeIntervalMs?: number;
  /** Idle keep-alive connections kept per upstream (default 64). */
  maxFreeSockets?: number;
  /** Called when an upstream goes down or comes back. */
  onStateChange?: (upstream: string, up: boolean) => void;
  /** Called when a request to an upstream fails (and whether it is tried on the next one). */
  onUpstreamError?: (upstream: string, request: string, error: string, retried: boolean) => void;
}

export interface RunningProxy {
  url: string;
  port: number;
  upstreams(): UpstreamState[];
  close(): Promise<void>;
}

interface Upstream {
  url: URL;
  agent: http.Agent;
  up: boolean;
  served: number;
  probe: NodeJS.Timeout | null;
  /** Index into HEALTH_PATHS of the route this upstream answers. */
  healthPath: number;
}

function forwardedHeaders(req: IncomingMessage): string[] {
  const out: string[] = [];
  let forwardedFor: string | null = null;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower)) continue;
    if (lower === "x-forwarded-for") {
      forwardedFor = forwardedFor ? `${forwardedFor}, ${raw[i + 1]}` : raw[i + 1]!;
      continue;
    }
    if (lower === "x-forwarded-proto" || lower === "x-forwarded-host") continue;
    out.push(name, raw[i + 1]!);
  }
  // The peer's address goes last: the app takes the last entry (the one this proxy vouches for).
  const peer = req.socket.remoteAddress ?? "unknown";
  out.push("X-Forwarded-For", forwardedFor ? `${forwardedFor}, ${peer}` : peer);
  out.push("X-Forwarded-Proto", "http");
  if (req.headers.host) out.push("X-Forwarded-Host", req.headers.host);
  return out;
}

function responseHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

const hasBody = (req: IncomingMessage) =>
  req.headers["transfer-encoding"] !== undefined ||
  (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0");

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const probeIntervalMs = options.probeIntervalMs ?? 500;
  const upstreams: Upstream[] = options.upstreams.map((u) => ({
    url: new URL(u),
    // Idle connections are closed after 4 s, before the app's own 5 s keep-alive timeout closes
    // them (a request sent on a connection the app is closing would fail).
    agent: new http.Agent({ keepAlive: true, maxFreeSockets: options.maxFreeSockets ?? 64, timeout: 4000 }),
    up: true,
    served: 0,
    probe: null,
    healthPath: 0,
  }));
  let next = 0;
  let closed = false;

  function markUp(u: Upstream) {
    if (u.up) return;
    u.up = true;
    if (u.probe) clearTimeout(u.probe);
    u.probe = null;
    options.onStateChange?.(u.url.origin, true);
  }

  function markDown(u: Upstream) {
    if (!u.up || closed) return;
    u.up = false;
    options.onStateChange?.(u.url.origin, false);
    scheduleProbe(u);
  }

  function scheduleProbe(u: Upstream) {
    if (closed || u.up) return;
    u.probe = setTimeout(() => probe(u), probeIntervalMs);
    u.probe.unref();
  }

  function probe(u: Upstream) {
    const path = HEALTH_PATHS[u.healthPath]!;
    const req = http.get(
      { host: u.url.hostname, port: u.url.port, path, agent: false, timeout: 2000 },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        if (status === 404 && u.healthPath < HEALTH_PATHS.length - 1) {
          u.healthPath += 1;
          probe(u);
        } else if (status >= 200 && status < 300) markUp(u);
        else scheduleProbe(u);
      },
    );
    req.on("timeout", () => req.destroy(new Error("probe timed out")));
    req.on("error", () => scheduleProbe(u));
  }

  /** The next upstream that is up, round robin, skipping those already tried for this request. */
  function pick(tried: Set<Upstream>): Upstream | null {
    for (let i = 0; i < upstreams.length; i++) {
      const u = upstreams[(next + i) % upstreams.length]!;
      if (u.up && !tried.has(u)) {
        next = (next + i + 1) % upstreams.length;
        return u;
      }
    }
    return null;
  }

  function fail(res: ServerResponse, status: number, message: string) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
    res.end(`${message}\n`);
  }

  function forward(req: IncomingMessage, res: ServerResponse, headers: string[], tried: Set<Upstream>) {
    const upstream = pick(tried);
    if (!upstream) {
      fail(res, tried.size > 0 ? 502 : 503, "No app process is available: try again shortly.");
      return;
    }
    tried.add(upstream);
    let bodyStarted = false;
    let answered = false;
    const upReq = http.request({
      host: upstream.url.hostname,
      port: upstream.url.port,
      method: req.method,
      path: req.url,
      headers: headers,
      agent: upstream.agent,
      setHost: false,
    });
    const startBody = () => {
      if (bodyStarted || upReq.destroyed) return;
      bodyStarted = true;
      req.pipe(upReq);
    };
    upReq.on("socket", (socket: Socket) => {
      if (socket.connecting) socket.once("connect", startBody);
      else startBody();
    });
    upReq.on("response", (upRes) => {
      answered = true;
      upstream.served += 1;
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, responseHeaders(upRes.rawHeaders));
      upRes.pipe(res);
      upRes.on("error", () => res.destroy());
      upRes.on("aborted", () => res.destroy());
    });
    upReq.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) {
        res.destroy();
        return;
      }
      const code = error.code ?? "";
      if (DOWN_CODES.has(code) || /socket hang up/.test(error.message)) markDown(upstream);
      const retryable =
        !res.headersSent &&
        // The client is still there (the request stream itself ends, and is destroyed, once read).
        !res.destroyed &&
        !req.socket.destroyed &&
        (!bodyStarted || (IDEMPOTENT.has(req.method ?? "") && !hasBody(req)));
      options.onUpstreamError?.(
        upstream.url.origin,
        `${req.method} ${req.url}`,
        `${code || error.message}${upReq.reusedSocket ? " (kept-alive connection)" : ""}`,
        retryable,
      );
      if (retryable) forward(req, res, headers, tried);
      else fail(res, 502, "The app process went away while answering: the request may not have completed.");
    });
    // The client went away: stop the upstream request too.
    res.on("close", () => {
      if (!res.writableFinished) upReq.destroy();
    });
  }

  const server = http.createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    forward(req, res, forwardedHeaders(req), new Set());
  });
  server.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";
  return {
    url: `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`,
    port,
    upstreams: () => upstreams.map((u) => ({ url: u.url.origin, up: u.up, served: u.served })),
    async close() {
      closed = true;
      for (const u of upstreams) {
        if (u.probe) clearTimeout(u.probe);
      }
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      for (const u of upstreams) u.agent.destroy();
    },
  };
}
