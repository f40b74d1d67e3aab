import { Briefcase, ExternalLink, Link2, Mail, Share2 } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import type { ShareChannel } from "../../../server/modules/engagement/engagement.schemas.ts";
import { showToast } from "../../components/app-toaster.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { formatCount, sendShare, shareLinks } from "./engagement-client.ts";
import { useHydrated } from "./use-hydrated.ts";

export interface ShareMenuProps {
  contentId: string;
  /** The absolute URL to share (the canonical URL). */
  url: string;
  title: string;
  count: number;
  /** Shares are recorded for signed-in readers only. */
  signedIn: boolean;
}

const itemClass =
  "flex w-full items-center gap-2.5 rounded-lg px-3 py-2 text-left text-sm text-ink hover:bg-sunken " +
  "focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-focus";

function ExternalItem({
  href,
  icon,
  children,
  onPick,
  newTab = true,
}: {
  href: string;
  icon: ReactNode;
  children: ReactNode;
  onPick(): void;
  newTab?: boolean;
}) {
  return (
    <li>
      <a
        href={href}
        className={itemClass}
        onClick={onPick}
        {...(newTab ? { target: "_blank", rel: "noopener noreferrer" } : {})}
      >
        {icon}
        <span>
          {children}
          {newTab ? <span className="sr-only"> (opens in a new tab)</span> : null}
        </span>
      </a>
    </li>
  );
}

/**
 * The share menu: a disclosure (works without JavaScript: the X, LinkedIn and e-mail links are
 * plain links) with 'Copy link' once the page has hydrated. Each pick is recorded for signed-in
 * readers (the server counts one per channel and day).
 */
export function ShareMenu({ contentId, url, title, count, signedIn }: ShareMenuProps) {
  const hydrated = useHydrated();
  const ref = useRef<HTMLDetailsElement>(null);
  const [shares, setShares] = useState(count);
  const links = shareLinks(url, title);

  // biome-ignore lint/correctness/useExhaustiveDependencies: contentId resets the count on navigation
  useEffect(() => setShares(count), [contentId, count]);

  useEffect(() => {
    const onPointer = (event: MouseEvent) => {
      const details = ref.current;
      if (details?.open && !details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener("click", onPointer);
    return () => document.removeEventListener("click", onPointer);
  }, []);

  const close = (focusSummary = false) => {
    const details = ref.current;
    if (!details) return;
    details.open = false;
    if (focusSummary) details.querySelector("summary")?.focus();
  };

  const record = (channel: ShareChannel) => {
    if (!signedIn) return;
    sendShare(contentId, channel).then(
      (answer) => setShares(answer.shareCount),
      () => {
        // the share itself happened; only the count was not recorded
      },
    );
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      showToast("Link copied");
      record("link");
    } catch {
      showToast("Could not copy the link", { description: url });
    }
    close(true);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDetailsElement>) => {
    if (event.key === "Escape" && ref.current?.open) {
      event.preventDefault();
      close(true);
    }
  };

  return (
    <details ref={ref} className="relative" onKeyDown={onKeyDown}>
      <summary
        className={cx(
          buttonClass("secondary", "sm"),
          "cursor-pointer list-none [&::-webkit-details-marker]:hidden",
        )}
      >
        <Share2 aria-hidden="true" className="size-4" />
        <span>Share</span>
        {shares > 0 ? (
          <span className="tabular-nums text-ink-muted">
            {formatCount(shares)}
            <span className="sr-only">{shares === 1 ? " share" : " shares"}</span>
          </span>
        ) : null}
      </summary>
      <ul className="absolute left-0 z-20 mt-2 w-56 max-w-[calc(100vw-2rem)] space-y-0.5 rounded-xl border border-line bg-elevated p-1 shadow-lg">
        {hydrated ? (
          <li>
            <button type="button" className={itemClass} onClick={() => void copy()}>
              <Link2 aria-hidden="true" className="size-4 text-ink-muted" />
              Copy link
            </button>
          </li>
        ) : null}
        <ExternalItem
          href={links.x}
          icon={<ExternalLink aria-hidden="true" className="size-4 text-ink-muted" />}
          onPick={() => {
            record("x");
            close();
          }}
        >
          Share on X
        </ExternalItem>
        <ExternalItem
          href={links.linkedin}
          icon={<Briefcase aria-hidden="true" className="size-4 text-ink-muted" />}
          onPick={() => {
            record("linkedin");
            close();
          }}
        >
          Share on LinkedIn
        </ExternalItem>
        <ExternalItem
          href={links.email}
          newTab={false}
          icon={<Mail aria-hidden="true" className="size-4 text-ink-muted" />}
          onPick={() => {
            record("email");
            close();
          }}
        >
          Share by e-mail
        </ExternalItem>
      </ul>
    </details>
  );
}
