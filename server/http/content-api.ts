import type { Context, Hono } from "hono";
import { z } from "zod";
import { TIERS, type UserContext } from "../../core/index.ts";
import { actorHasScope } from "../auth/identity.ts";
import type { Runtime } from "../runtime.ts";
import { errorResponse } from "./errors.ts";

const ListQuery = z
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

/**
 * The reader of a content request (session, bearer ID token, API key or service token; see
 * `identity.resolveActor`), or the error response. API keys and service tokens need `content:read`.
 */
async function contentReader(c: Context, runtime: Runtime): Promise<UserContext | Response> {
  const result = await runtime.identity.resolveActor(c.req.raw.headers);
  c.header("Cache-Control", "private, no-store");
  if (!result.ok) {
    if (result.retryAfterS !== undefined) c.header("Retry-After", String(result.retryAfterS));
    return c.json({ error: { code: result.code, message: result.message } }, result.status);
  }
  if (!actorHasScope(result.actor, "content:read")) {
    return c.json(
      { error: { code: "FORBIDDEN", message: "This credential lacks the content:read scope." } },
      403,
    );
  }
  return result.actor.context;
}

/** REST content API: thin handlers over the content service, which applies access. */
export function registerContentApi(
  app: Hono<{ Variables: { nonce: string; clientIp: string } }>,
  runtime: Runtime,
) {
  app.get("/api/content", async (c) => {
    const parsed = ListQuery.safeParse(c.req.query());
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join(".") || "query";
      const message =
        issue.code === "unrecognized_keys" ? `unknown parameter ${issue.keys.join(", ")}` : issue.message;
      return c.json(
        { error: { code: "BAD_USER_INPUT", message: `Invalid ${field}: ${message}`, field } },
        400,
      );
    }
    const q = parsed.data;
    const actor = await contentReader(c, runtime);
    if (actor instanceof Response) return actor;
    try {
      const result = await runtime.services.content.list(actor, {
        section: q.section,
        category: q.category,
        tier: q.tier,
        featured: q.featured === undefined ? undefined : q.featured === "true",
        limit: q.limit ?? 20,
        cursor: q.cursor ?? null,
      });
      c.header("Cache-Control", "private, no-store");
      return c.json(result);
    } catch (error) {
      return errorResponse(c, error, runtime);
    }
  });

  app.get("/api/content/:idOrSlug", async (c) => {
    const key = c.req.param("idOrSlug");
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(key)) {
      return c.json({ error: { code: "BAD_USER_INPUT", message: "Invalid id or slug" } }, 400);
    }
    const actor = await contentReader(c, runtime);
    if (actor instanceof Response) return actor;
    try {
      const item = await runtime.services.content.getItem(actor, key);
      if (!item)
        return c.json({ error: { code: "NOT_FOUND", message: `No content with id or slug ${key}` } }, 404);
      c.header("Cache-Control", "private, no-store");
      return c.json(item);
    } catch (error) {
      return errorResponse(c, error, runtime);
    }
  });
}
