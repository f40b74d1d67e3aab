/**
 * Course completion and reading reports REST handlers (issue 15). The rules live in
 * server/modules/learning; these handlers resolve the actor, validate input and map errors.
 *
 * - GET  /api/courses/{idOrSlug}/completion-rule → {minLessonsPercent, minSeconds, custom, …} (writers)
 * - PUT  /api/courses/{idOrSlug}/completion-rule {minLessonsPercent 1..100, minSeconds?} (writers)
 * - GET  /api/certificates/{id} → the public verification {status, recipientName, courseTitle, …}
 * - GET  /api/certificates/{id}/pdf → the certificate as a PDF (public)
 * - GET  /api/me/certificates → the signed-in reader's certificates and courses in progress
 * - GET  /api/reports/reading?range=7|30|90 → the reader's report (Basic and up)
 * - GET  /api/reports/reading.csv?range=7|30|90 → one CSV row per day and item (Basic and up)
 *
 * Personal routes take a session or an ID token (401 for visitors); API keys and service tokens
 * are refused (403). Errors: the REST envelope `{error: {code, message, field?}}`.
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { BadInputError } from "../errors.ts";
import type { Actor } from "../modules/actor.ts";
import { contentKeySchema } from "../modules/engagement/engagement.schemas.ts";
import { certificatePdf } from "../modules/learning/certificate-pdf.ts";
import {
  certificateIdSchema,
  courseRuleBodySchema,
  reportRangeSchema,
} from "../modules/learning/learning.schemas.ts";
import type { Runtime } from "../runtime.ts";
import { defineRoutes } from "./openapi-registry.ts";
import { fail, handler, personHandler, readJsonObject } from "./toolkit.ts";

// biome-ignore lint/suspicious/noExplicitAny: the app's Hono env type is owned by app.ts
type AnyHono = Hono<any>;

const NOT_A_PERSON =
  "Completion rules, certificates and reports belong to a person: use a signed-in session or an ID token, not an API key or service token.";

function rangeOf(c: Context) {
  const parsed = reportRangeSchema.safeParse(c.req.query("range"));
  if (!parsed.success) {
    throw new BadInputError("Invalid range: expected 7, 30 or 90", {
      field: { range: "expected 7, 30 or 90" },
    });
  }
  return parsed.data;
}

const rangeQuery = z.object({ range: reportRangeSchema });

export const learningRoutes = defineRoutes([
  {
    method: "get",
    path: "/api/courses/:idOrSlug/completion-rule",
    summary: "A course's completion rule",
    tag: "Learning",
    access: "person",
    who: "content writers",
    params: { idOrSlug: contentKeySchema },
    responses: { 200: { description: "`{minLessonsPercent, minSeconds, custom, …}`" } },
  },
  {
    method: "put",
    path: "/api/courses/:idOrSlug/completion-rule",
    summary: "Set a course's completion rule",
    tag: "Learning",
    access: "person",
    who: "content writers",
    mutates: true,
    params: { idOrSlug: contentKeySchema },
    body: courseRuleBodySchema,
    responses: { 200: { description: "The rule." } },
  },
  {
    method: "get",
    path: "/api/certificates/:id",
    summary: "Verify a certificate",
    tag: "Learning",
    access: "public",
    params: { id: certificateIdSchema },
    responses: { 200: { description: "`{status, recipientName, courseTitle, …}`" } },
    errors: [400, 404],
  },
  {
    method: "get",
    path: "/api/certificates/:id/pdf",
    summary: "A certificate as a PDF",
    tag: "Learning",
    access: "public",
    params: { id: certificateIdSchema },
    responses: { 200: { description: "The PDF.", contentType: "application/pdf" } },
    errors: [400, 404],
  },
  {
    method: "get",
    path: "/api/me/certificates",
    summary: "The reader's certificates and courses in progress",
    tag: "Learning",
    access: "person",
  },
  {
    method: "get",
    path: "/api/reports/reading",
    summary: "The reader's reading report",
    tag: "Learning",
    access: "person",
    who: "readers on Basic and up",
    query: rangeQuery,
  },
  {
    method: "get",
    path: "/api/reports/reading.csv",
    summary: "The reading report as CSV (one row per day and item)",
    tag: "Learning",
    access: "person",
    who: "readers on Basic and up",
    query: rangeQuery,
    responses: { 200: { description: "CSV.", contentType: "text/csv" } },
  },
]);

export function registerLearningApi(
  app: AnyHono,
  runtime: Pick<Runtime, "env" | "logger" | "identity"> & {
    services: Pick<Runtime["services"], "certificates" | "reports">;
  },
): void {
  const certificates = () => runtime.services.certificates;
  const reports = () => runtime.services.reports;
  const person = (fn: (c: Context, actor: Actor) => Promise<Response>, mutates: boolean, signIn: string) =>
    personHandler(runtime, fn, { mutates, signIn, notAPerson: NOT_A_PERSON });

  const courseKey = (c: Context): string | Response => {
    const key = c.req.param("idOrSlug") ?? "";
    return contentKeySchema.safeParse(key).success
      ? key
      : fail(c, 400, "BAD_USER_INPUT", "Invalid id or slug");
  };

  app.get(
    "/api/courses/:idOrSlug/completion-rule",
    person(
      async (c, actor) => {
        const key = courseKey(c);
        if (typeof key !== "string") return key;
        return c.json(await certificates().getRule(actor, key));
      },
      false,
      "Sign in to manage course completion rules.",
    ),
  );
  app.put(
    "/api/courses/:idOrSlug/completion-rule",
    person(
      async (c, actor) => {
        const key = courseKey(c);
        if (typeof key !== "string") return key;
        return c.json(await certificates().setRule(actor, key, await readJsonObject(c)));
      },
      true,
      "Sign in to manage course completion rules.",
    ),
  );

  app.get(
    "/api/certificates/:id",
    handler(runtime, async (c) => c.json(await certificates().verify(c.req.param("id") ?? ""))),
  );
  app.get(
    "/api/certificates/:id/pdf",
    handler(runtime, async (c) => {
      const cert = await certificates().verify(c.req.param("id") ?? "");
      return c.body(certificatePdf(cert).buffer as ArrayBuffer, 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="certificate-${cert.id}.pdf"`,
        "X-Robots-Tag": "noindex",
      });
    }),
  );

  app.get(
    "/api/me/certificates",
    person(
      async (c, actor) => c.json(await certificates().completions(actor)),
      false,
      "Sign in to see your completed courses.",
    ),
  );

  app.get(
    "/api/reports/reading",
    person(
      async (c, actor) => c.json(await reports().reading(actor, rangeOf(c))),
      false,
      "Sign in to see your reports.",
    ),
  );
  app.get(
    "/api/reports/reading.csv",
    person(
      async (c, actor) => {
        const { filename, csv } = await reports().readingCsv(actor, rangeOf(c));
        return c.body(csv, 200, {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${filename}"`,
        });
      },
      false,
      "Sign in to export your reports.",
    ),
  );
}
