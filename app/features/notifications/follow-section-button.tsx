import { Bell, BellRing, LoaderCircle } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { settle } from "../../lib/api.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import { notificationsApi, SECTION_LABELS } from "./notifications-api.ts";

/**
 * "Follow" on a section page: signed-in readers follow or unfollow the section (e-mails about new
 * items need "New items in followed sections" in /settings); visitors are offered sign-in.
 */
export function FollowSectionButton({ section }: { section: string }) {
  const { user } = useAuth();
  const location = useLocation();
  const signedIn = user.authStatus !== "visitor" && !!user.userId;
  const [following, setFollowing] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const label = SECTION_LABELS[section] ?? section;

  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    void settle(notificationsApi.follows()).then((r) => {
      if (!live) return;
      if (r.ok) setFollowing(r.data.follows.some((f) => f.section === section));
      else setError(r.error.message);
    });
    return () => {
      live = false;
    };
  }, [signedIn, section]);

  if (!signedIn) {
    const next = encodeURIComponent(`${location.pathname}${location.search}`);
    return (
      <Link to={`/auth/signin?redirect=${next}`} className={buttonClass("secondary", "sm")}>
        <Bell aria-hidden="true" className="size-4" /> Sign in to follow
      </Link>
    );
  }

  const change = async () => {
    setBusy(true);
    setError(null);
    const r = await settle(following ? notificationsApi.unfollow(section) : notificationsApi.follow(section));
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    setFollowing(r.data.follows.some((f) => f.section === section));
  };

  return (
    <div className="flex flex-col items-start gap-1">
      <Button
        variant={following ? "secondary" : "primary"}
        size="sm"
        disabled={busy || following === null}
        aria-pressed={following ?? false}
        aria-label={following ? `Unfollow ${label}` : `Follow ${label}`}
        onClick={() => void change()}
      >
        {busy || following === null ? (
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        ) : following ? (
          <BellRing aria-hidden="true" className="size-4" />
        ) : (
          <Bell aria-hidden="true" className="size-4" />
        )}
        {following ? "Following" : "Follow"}
      </Button>
      {error ? (
        <p role="alert" className="text-xs text-danger-text">
          {error}
        </p>
      ) : null}
    </div>
  );
}
