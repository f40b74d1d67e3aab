/**
 * The auth hook registry: each concern gives its before and after hooks by path, and one
 * Better Auth before/after middleware pair dispatches on the request path.
 *
 * - A path has at most one before hook (a second registration is a startup error); what it
 *   returns (a changed body) is what Better Auth gets.
 * - After hooks run in registration order: first those for every path, then the path's own.
 */
import { createAuthMiddleware } from "better-auth/api";
import type { AfterHook, AuthHookContext, BeforeHook, BeforeResult } from "./context.ts";

export interface HookTable {
  before?: Readonly<Record<string, BeforeHook>>;
  after?: Readonly<Record<string, AfterHook>>;
  /** After hooks that look at every request (they find their own state, or nothing). */
  afterEvery?: readonly AfterHook[];
}

/** One table entry per path, all with the same hook. */
export function forPaths<H>(paths: Iterable<string>, hook: H): Record<string, H> {
  return Object.fromEntries([...paths].map((path) => [path, hook]));
}

/** The dispatch of a set of tables, by `ctx.path`. */
export function hookRegistry(tables: readonly HookTable[]) {
  const before = new Map<string, BeforeHook>();
  const after = new Map<string, AfterHook[]>();
  const afterEvery: AfterHook[] = [];
  for (const table of tables) {
    for (const [path, hook] of Object.entries(table.before ?? {})) {
      if (before.has(path)) throw new Error(`Two auth before hooks for ${path}`);
      before.set(path, hook);
    }
    for (const [path, hook] of Object.entries(table.after ?? {})) {
      after.set(path, [...(after.get(path) ?? []), hook]);
    }
    afterEvery.push(...(table.afterEvery ?? []));
  }
  return {
    before: async (ctx: AuthHookContext): Promise<BeforeResult> => before.get(ctx.path)?.(ctx),
    after: async (ctx: AuthHookContext): Promise<void> => {
      for (const hook of afterEvery) await hook(ctx);
      for (const hook of after.get(ctx.path) ?? []) await hook(ctx);
    },
  };
}

/** Better Auth's `hooks` option for a set of tables. */
export function hookMiddleware(tables: readonly HookTable[]) {
  const registry = hookRegistry(tables);
  return {
    before: createAuthMiddleware(async (ctx) => registry.before(ctx)),
    after: createAuthMiddleware(async (ctx) => registry.after(ctx)),
  };
}
