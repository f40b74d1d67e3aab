import { afterEach, describe, expect, it, vi } from "vitest";
import { checkSecurity } from "./security-monitor.tsx";

const answer = (reply: Response | Error) =>
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => {
      if (reply instanceof Error) throw reply;
      return reply;
    }),
  );

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("checkSecurity (GET /api/account/security-check through the fetch helper)", () => {
  it("reads a good session's level", async () => {
    answer(Response.json({ ok: true, level: "high", session: null }));
    await expect(checkSecurity()).resolves.toEqual({ kind: "ok", level: "high", session: null });
  });
  it("reads why a 401 ended the session", async () => {
    answer(Response.json({ ok: false, reason: "idle-timeout" }, { status: 401 }));
    await expect(checkSecurity()).resolves.toEqual({ kind: "signed-out", reason: "idle-timeout" });
  });
  it("concludes nothing from a 5xx or no answer", async () => {
    answer(new Response("down", { status: 503 }));
    await expect(checkSecurity()).resolves.toEqual({ kind: "unknown", status: 503 });
    answer(new TypeError("Failed to fetch"));
    await expect(checkSecurity()).resolves.toEqual({ kind: "unknown", status: 0 });
  });
});
