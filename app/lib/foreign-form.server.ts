/**
 * The same-site check of the screens' form actions: a form posted from another site is refused
 * (403, the error page) before anything runs. The request's Origin (or, without one, its Referer's
 * origin) must be this app's own origin or the configured public address. The REST API makes the
 * same check in server/http/toolkit.ts (`isSameOrigin`).
 */
import { data } from "react-router";
import type { AppServices } from "../../server/services.ts";

export function refuseForeignForm(request: Request, services: AppServices): void {
  const own = new Set([new URL(request.url).origin, services.config.publicUrl]);
  const origin = request.headers.get("origin");
  let from: string | null = origin && origin !== "null" ? origin : null;
  const referer = request.headers.get("referer");
  if (!from && referer) {
    try {
      from = new URL(referer).origin;
    } catch {
      from = null;
    }
  }
  if (!from || !own.has(from)) {
    throw data("This request did not come from this site, so it was refused.", { status: 403 });
  }
}
