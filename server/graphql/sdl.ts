/**
 * The data API's schema as SDL (decision 034): `printSchema` of the Pothos schema. Committed as
 * `docs/api/schema.graphql` by `npm run api:generate` (a unit test fails when they differ) and
 * served at `GET /graphql/schema.graphql` where introspection is on (outside production, the same
 * rule as introspection and GraphiQL in `yoga.ts`): in production the committed file is the
 * published schema.
 */
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from "graphql";
import type { Hono } from "hono";

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
 * `GET /graphql/schema.graphql` outside production (where introspection is on): public, cacheable;
 * the schema is loaded on the first request, like `/graphql` itself.
 */
export function registerSchemaSdl(
  // biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
  app: Hono<any>,
  mode: "production" | "development" | "test",
): void {
  if (mode === "production") return;
  let sdl: Promise<string> | null = null;
  app.get(SDL_PATH, async (c) => {
    sdl ??= schemaSdl();
    return c.body(await sdl, 200, {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    });
  });
}
