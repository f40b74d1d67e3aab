/**
 * The data API's schema as SDL (decision 034): `printSchema` of the Pothos schema. Committed as
 * `docs/api/schema.graphql` by `npm run api:generate` (a unit test fails when they differ) and
 * served at `GET /graphql/schema.graphql`: to everyone outside production, and in production to
 * signed-in callers and credentials only (SECURITY.md §16 keeps introspection from anonymous
 * callers in production; the committed file is public anyway).
 */
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from "graphql";
import type { Hono } from "hono";
import type { Identity } from "../auth/identity.ts";

export const SDL_PATH = "/graphql/schema.graphql";

/** The Pothos schema (loaded on first use, as `/graphql` loads it). */
export async function loadSchema(): Promise<GraphQLSchema> {
  return (await import("./schema.ts")).schema;
}

/** The schema's SDL, types in alphabetical order (stable across refactors that move definitions). */
export async function schemaSdl(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await loadSchema()))}\n`;
}

/**
 * `GET /graphql/schema.graphql`: public and cacheable outside production; in production only for a
 * caller with a credential (session, ID token, API key or service token): 401 for anonymous callers,
 * private answers. The schema is loaded on the first request, like `/graphql` itself.
 */
export function registerSchemaSdl(
  // biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
  app: Hono<any>,
  mode: "production" | "development" | "test",
  identity: Pick<Identity, "resolveActor">,
): void {
  let sdl: Promise<string> | null = null;
  app.get(SDL_PATH, async (c) => {
    if (mode === "production") {
      const caller = await identity.resolveActor(c.req.raw.headers);
      if (!caller.ok || caller.actor.kind === "visitor") {
        c.header("Cache-Control", "no-store");
        return c.json(
          {
            error: {
              code: "UNAUTHENTICATED",
              message:
                "Sign in or send an API key to read the schema here; it is also docs/api/schema.graphql in the repository.",
            },
          },
          401,
        );
      }
    }
    sdl ??= schemaSdl();
    return c.body(await sdl, 200, {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": mode === "production" ? "private, max-age=300" : "public, max-age=300",
    });
  });
}
