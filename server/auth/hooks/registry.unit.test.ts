import { describe, expect, it } from "vitest";
import type { AuthHookContext } from "./context.ts";
import { forPaths, type HookTable, hookRegistry } from "./registry.ts";

const request = (path: string) => ({ path }) as unknown as AuthHookContext;

describe("auth hook registry", () => {
  it("runs the one before hook of the request's path and returns what it returns", async () => {
    const seen: string[] = [];
    const registry = hookRegistry([
      {
        before: forPaths(["/a", "/b"], async (ctx: AuthHookContext) => {
          seen.push(`ab ${ctx.path}`);
          return undefined;
        }),
      },
      { before: { "/c": async () => ({ context: { body: { changed: true } } }) } },
    ]);
    expect(await registry.before(request("/b"))).toBeUndefined();
    expect(await registry.before(request("/c"))).toEqual({ context: { body: { changed: true } } });
    expect(await registry.before(request("/none"))).toBeUndefined();
    expect(seen).toEqual(["ab /b"]);
  });

  it("refuses two before hooks for one path", () => {
    const hook = async () => undefined;
    expect(() => hookRegistry([{ before: { "/a": hook } }, { before: { "/a": hook } }])).toThrow(
      "Two auth before hooks for /a",
    );
  });

  it("runs the hooks for every path first, then the path's own in registration order", async () => {
    const seen: string[] = [];
    const note = (name: string) => async (ctx: AuthHookContext) => {
      seen.push(`${name} ${ctx.path}`);
    };
    const tables: HookTable[] = [
      { after: { "/a": note("first") } },
      { afterEvery: [note("every")], after: { "/a": note("second"), "/b": note("other") } },
    ];
    const registry = hookRegistry(tables);
    await registry.after(request("/a"));
    await registry.after(request("/z"));
    expect(seen).toEqual(["every /a", "first /a", "second /a", "every /z"]);
  });

  it("stops at an after hook that throws (its answer replaces the response)", async () => {
    const seen: string[] = [];
    const registry = hookRegistry([
      {
        after: {
          "/a": async () => {
            throw new Error("replaced");
          },
        },
      },
      { after: { "/a": async () => void seen.push("later") } },
    ]);
    await expect(registry.after(request("/a"))).rejects.toThrow("replaced");
    expect(seen).toEqual([]);
  });
});
