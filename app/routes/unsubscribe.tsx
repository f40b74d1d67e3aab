import { MailX } from "lucide-react";
import { data, Link } from "react-router";
import { buttonClass } from "../components/ui/button.tsx";
import { Card } from "../components/ui/card.tsx";
import { Notice } from "../components/ui/notice.tsx";
import { servicesContext } from "../lib/context.ts";
import { registryMeta } from "../lib/meta.ts";
import type { Route } from "./+types/unsubscribe";

export const meta: Route.MetaFunction = (args) => [
  ...registryMeta(args, "/unsubscribe"),
  { name: "robots", content: "noindex" },
];

const KIND_NAMES = {
  replies: "reply",
  followed_sections: "followed section",
  weekly_digest: "weekly digest",
} as const;

/**
 * The signed unsubscribe link of a notification e-mail (no sign-in). The loader only checks the
 * signature; the button posts the same link (handled by the server's POST /unsubscribe, which also
 * takes the RFC 8058 one-click POST of mail clients). A missing or changed signature: 400.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = {
    u: url.searchParams.get("u"),
    k: url.searchParams.get("k"),
    sig: url.searchParams.get("sig"),
  };
  const target = context.get(servicesContext).notifications.checkUnsubscribe(query);
  if (!target)
    return data({ valid: false as const }, { status: 400, headers: { "Cache-Control": "no-store" } });
  return data(
    {
      valid: true as const,
      kind: KIND_NAMES[target.kind],
      done: url.searchParams.get("done") === "1",
      action: `/unsubscribe?${new URLSearchParams({ u: target.userId, k: target.kind, sig: query.sig ?? "" })}`,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function Unsubscribe({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-lg py-10">
      <Card className="p-6 sm:p-8">
        <span className="mb-4 flex size-10 items-center justify-center rounded-lg bg-accent-soft text-accent-text">
          <MailX aria-hidden="true" className="size-5" />
        </span>
        {!loaderData.valid ? (
          <>
            <h1 className="text-xl font-semibold text-ink">This unsubscribe link does not work</h1>
            <p className="mt-2 text-sm text-ink-muted">
              The link is incomplete or was changed. Use the link from the e-mail as it is, or turn
              notifications off in your settings.
            </p>
            <Link to="/settings" className={buttonClass("secondary", "md", "mt-6")}>
              Notification settings
            </Link>
          </>
        ) : loaderData.done ? (
          <>
            <h1 className="text-xl font-semibold text-ink">You are unsubscribed</h1>
            <Notice
              tone="ok"
              role="status"
              className="mt-4"
              title={`${capitalise(loaderData.kind)} e-mails are off.`}
            >
              We will not send you {loaderData.kind} e-mails any more. You can turn them back on in your
              settings.
            </Notice>
            <Link to="/settings" className={buttonClass("secondary", "md", "mt-6")}>
              Notification settings
            </Link>
          </>
        ) : (
          <>
            <h1 className="text-xl font-semibold text-ink">{`Unsubscribe from ${loaderData.kind} e-mails?`}</h1>
            <p className="mt-2 text-sm text-ink-muted">
              You will stop receiving {loaderData.kind} e-mails. Other notifications stay as they are, and you
              can change any of them in your settings.
            </p>
            {/* A plain form (document POST): the server's POST /unsubscribe handles it and comes back here. */}
            <form method="post" action={loaderData.action} className="mt-6 flex flex-wrap gap-3">
              <button type="submit" className={buttonClass("primary", "md")}>
                Unsubscribe
              </button>
              <Link to="/" className={buttonClass("ghost", "md")}>
                Keep them
              </Link>
            </form>
          </>
        )}
      </Card>
    </div>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
