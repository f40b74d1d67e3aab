import type { Context, Hono } from "hono";
import { z } from "zod";
import { TIERS } from "../../core/index.ts";
import type { Credential } from "../auth/identity.ts";
import { badInputFromZod } from "../errors.ts";
import { type Actor, hasReadScope } from "../modules/actor.ts";
import { type BodyLinkIssuer, readableBodyLink } from "../modules/content/body-links.ts";
import type { ContentSummary } from "../modules/content/content.types.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { errorResponse, fail, sendError } from "./toolkit.ts";

/** An id or slug in a path. */
export const contentIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, "expected an id or slug");

export const ListQuery = z
  .object({
    section: z.string().max(100).optional(),
    category: z.string().max(100).optional(),
    tier: z
      .string()
      .transform((v) => v.charAt(0).toUpperCase() + v.slice(1).toLowerCase())
      .pipe(z.enum(TIERS, { message: `expected one of ${TIERS.join(", ").toLowerCase()}` }))
      .optional(),
    featured: z.enum(["true", "false"], { message: "expected true or false" }).optional(),
    limit: z.coerce
      .number({ message: "expected a number" })
      .int("expected a whole number")
      .min(1, "expected at least 1")
      .max(100, "expected at most 100")
      .optional(),
    cursor: z.string().max(500).optional(),
  })
  .strict();

/** Who a content request comes from: its credential (body links bind to it) and its actor. */
export interface ContentCaller {
  credential: Credential;
  actor: Actor;
}

/**
 * The caller of a content request (session, bearer ID token, API key or service token; see
 * `identity.resolveActor`), or the error response. API keys and service tokens need `content:read`
 * (the operations check it too; refusing here first keeps the answer the same for every route).
 */
export async function contentActor(
  c: Context,
  runtime: Pick<Runtime, "identity">,
): Promise<ContentCaller | Response> {
  const result = await runtime.identity.resolveActor(c.req.raw.headers);
  c.header("Cache-Control", "private, no-store");
  if (!result.ok) {
    if (result.retryAfterS !== undefined) c.header("Retry-After", String(result.retryAfterS));
    return fail(c, result.status, result.code, result.message);
  }
  if (!hasReadScope(result.actor, "content:read")) {
    return fail(c, 403, "FORBIDDEN", "This credential lacks the content:read scope.");
  }
  return { credential: result.credential, actor: result.actor };
}

/** The actor of a content request, or the error response (see `contentActor`). */
export async function contentReader(
  c: Context,
  runtime: Pick<Runtime, "identity">,
): Promise<Actor | Response> {
  const caller = await contentActor(c, runtime);
  return caller instanceof Response ? caller : caller.actor;
}

/** A content item as the API returns it (spec §3 ContentItem): with presignedUrl and url when readable. */
export type ApiContentItem = ContentSummary & { presignedUrl?: string; url?: string };

/**
 * Adds a body link to each item the actor may read (spec §7 object storage: 3600 s, capped by the
 * credential's end). A link that cannot be signed is logged and the item goes out without one.
 */
export function withBodyLinks(
  runtime: BodyLinkIssuer,
  credential: Credential,
  items: ContentSummary[],
): ApiContentItem[] {
  return items.map((item) => {
    const url = readableBodyLink(runtime, credential, item);
    return url === null ? item : { ...item, presignedUrl: url, url };
  });
}

/**
 * The JSON of a summary, made once per summary object: the content service shares one frozen
 * object among the readers of one audience (decision 022), so its text is the same for each of
 * them. The reader's own body link is appended per request, never stored.
 */
const summaryJson = new WeakMap<ContentSummary, string>();

function itemJson(runtime: BodyLinkIssuer, credential: Credential, item: ContentSummary): string {
  let json = summaryJson.get(item);
  if (json === undefined) {
    json = JSON.stringify(item);
    if (Object.isFrozen(item)) summaryJson.set(item, json);
  }
  const url = readableBodyLink(runtime, credential, item);
  if (url === null) return json;
  const link = JSON.stringify(url);
  return `${json.slice(0, -1)},"presignedUrl":${link},"url":${link}}`;
}

const JSON_HEADERS = { "content-type": "application/json" };

const bodyError = (status: 400 | 403 | 404 | 410, code: string, message: string) =>
  errorResponse(status, code, message, { headers: { "x-content-type-options": "nosniff" } });

/** A query string that fails its schema: 400 naming the parameter ("Invalid limit: …"). */
export const invalidQuery = (error: z.ZodError) =>
  badInputFromZod(error, {
    fallback: "query",
    message: (field, problem) => `Invalid ${field}: ${problem}`,
    unknownKey: (keys) => `unknown parameter ${keys.join(", ")}`,
  });

/** The routes below, as the API reference documents them (`openapi-registry.ts`). */
export const contentRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/content",
    summary: "List published content",
    description:
      "Newest first, one page at a time (`nextCursor`). Items the caller may not read carry their metadata and excerpt only; readable items carry `presignedUrl`/`url`, a link to the body valid for an hour.",
    tag: "Content",
    access: "reader",
    query: ListQuery,
    responses: { 200: { description: "`{items: ContentItem[], nextCursor: string | null}`" } },
  },
  {
    method: "get",
    path: "/api/content/:idOrSlug",
    summary: "One content item by id or slug",
    tag: "Content",
    access: "reader",
    params: { idOrSlug: contentIdSchema },
    responses: { 200: { description: "The ContentItem (with `presignedUrl`/`url` when readable)." } },
  },
  {
    method: "get",
    path: "/api/content/:id/body",
    summary: "A content item's body (the link from presignedUrl/url)",
    description:
      "Checked when used: the signature and expiry, then the credential the link was issued to must still be live and may still read the item.",
    tag: "Content",
    access: "signed-link",
    params: { id: contentIdSchema },
    responses: {
      200: { description: "The body, in its own media type (Markdown, HTML …).", contentType: "text/plain" },
    },
  },
]);

/** REST content API: thin handlers over the content service, which applies access. */
export function registerContentApi(
  app: Hono<{ Variables: { nonce: string; clientIp: string } }>,
  runtime: Pick<Runtime, "identity" | "logger" | "bodyLinks"> & {
    services: Pick<Runtime["services"], "content">;
  },
) {
  app.get("/api/content", async (c) => {
    const parsed = ListQuery.safeParse(c.req.query());
    if (!parsed.success) return sendError(c, invalidQuery(parsed.error), runtime.logger);
    const q = parsed.data;
    const caller = await contentActor(c, runtime);
    if (caller instanceof Response) return caller;
    try {
      const result = await runtime.services.content.list(caller.actor, {
        publishedOnly: true,
        section: q.section,
        category: q.category,
        tier: q.tier,
        featured: q.featured === undefined ? undefined : q.featured === "true",
        limit: q.limit ?? 20,
        cursor: q.cursor ?? null,
      });
      c.header("Cache-Control", "private, no-store");
      const items = result.items.map((item) => itemJson(runtime, caller.credential, item));
      return c.body(
        `{"items":[${items.join(",")}],"nextCursor":${JSON.stringify(result.nextCursor)}}`,
        200,
        JSON_HEADERS,
      );
    } catch (error) {
      return sendError(c, error, runtime.logger);
    }
  });

  app.get("/api/content/:idOrSlug", async (c) => {
    const key = c.req.param("idOrSlug");
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(key)) {
      return fail(c, 400, "BAD_USER_INPUT", "Invalid id or slug");
    }
    const caller = await contentActor(c, runtime);
    if (caller instanceof Response) return caller;
    try {
      const item = await runtime.services.content.getItem(caller.actor, key);
      if (!item) return fail(c, 404, "NOT_FOUND", `No content with id or slug ${key}`);
      c.header("Cache-Control", "private, no-store");
      return c.body(itemJson(runtime, caller.credential, item), 200, JSON_HEADERS);
    } catch (error) {
      return sendError(c, error, runtime.logger);
    }
  });

  // The body link of an item (from presignedUrl/url). Checked when used: signature and expiry,
  // then the credential it was issued to must still be live, then the item's rule is applied
  // again to that credential's current context (sign-out, revocation, downgrade: refused).
  app.get("/api/content/:id/body", async (c) => {
    const id = c.req.param("id");
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(id)) return bodyError(400, "BAD_USER_INPUT", "Invalid content id");
    const check = runtime.bodyLinks.verify(id, new URL(c.req.url).searchParams);
    if (!check.ok) return bodyError(403, "FORBIDDEN", check.message);
    try {
      const actor = await runtime.identity.actorForCredentialRef(check.credential);
      if (!actor) {
        return bodyError(
          403,
          "FORBIDDEN",
          "The session or credential this link was issued to has ended. Fetch the item again for a new link.",
        );
      }
      const body = await runtime.services.content.readBody(actor, id);
      switch (body.kind) {
        case "not-found":
          return bodyError(404, "NOT_FOUND", `No published content with id ${id}`);
        case "denied":
          return bodyError(403, "FORBIDDEN", "This link's holder may no longer read this content.");
        case "missing-body":
          return bodyError(404, "NOT_FOUND", "This content has no body.");
        case "ok":
          return new Response(body.text, {
            status: 200,
            headers: {
              "content-type": body.contentType,
              "cache-control": "private, no-store",
              "x-content-type-options": "nosniff",
              "content-security-policy": "default-src 'none'; sandbox",
              "referrer-policy": "no-referrer",
              "last-modified": new Date(body.updatedAt).toUTCString(),
              ...(body.checksum ? { etag: `"${body.checksum}"` } : {}),
            },
          });
      }
    } catch (error) {
      return sendError(c, error, runtime.logger);
    }
  });
}
