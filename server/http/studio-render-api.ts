/**
 * The editor's live preview over REST. The rule (writers only, body ≤ 1 MiB) lives in the
 * operation (server/modules/content/studio-render.ts); this handler reads the body and maps errors.
 *
 * - POST /api/studio/render {body, format?: "markdown"|"html"} → {html, headings: [{id, text, depth}]}
 *   401 visitors, 403 readers without content:write, 413 past 1 MiB of body, 400 naming the field.
 */
import type { Hono } from "hono";
import { MAX_BODY_BYTES } from "../modules/content/content.schemas.ts";
import { renderInputSchema, renderStudioPreview } from "../modules/content/studio-render.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { type UserHandlerDeps, userHandler } from "./org-api.ts";
import { readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

/**
 * JSON escapes can make the request several times the body's size (a body of quotes or control
 * characters); the operation holds the body itself to MAX_BODY_BYTES.
 */
const REQUEST_LIMIT = 6 * MAX_BODY_BYTES + 1024;

export const studioRenderRoutes = defineRoutes([
  {
    method: "post",
    path: "/api/studio/render",
    summary: "Render the editor's live preview (`{body, format?}`)",
    tag: "Studio",
    access: "session",
    who: "content writers",
    mutates: true,
    body: renderInputSchema,
    responses: { 200: { description: "`{html, headings: [{id, text, depth}]}`" } },
    errors: [413],
  },
]);

export function registerStudioRenderApi(
  app: AnyHono,
  deps: UserHandlerDeps & { services: Pick<Runtime["services"], "contentModels"> },
): void {
  const handle = userHandler(deps);
  app.post(
    "/api/studio/render",
    handle(
      async (c, actor) => {
        const input = await readJsonObject(c, {
          limit: REQUEST_LIMIT,
          requireJsonType: true,
          tooLarge: "The body is larger than 1 MiB.",
        });
        return c.json(await renderStudioPreview(actor, input, deps.services.contentModels.media.lookup));
      },
      { mutates: true },
    ),
  );
}
