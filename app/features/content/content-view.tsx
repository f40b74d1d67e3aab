import { BookOpen, ChevronRight, Clock, FileQuestion, House, Lock, PlayCircle, Video } from "lucide-react";
import { type ReactNode, useRef } from "react";
import { Link, useLocation } from "react-router";
import { findRoute } from "../../../core/index.ts";
import { PAYWALL_CSS_CLASS } from "../../../core/seo/index.ts";
import type { ContentPage, ContentSummary, TocEntry } from "../../../server/services.ts";
import { TierBadge } from "../../components/tier-badge.tsx";
import { buttonClass } from "../../components/ui/button.tsx";
import { cx } from "../../components/ui/cx.ts";
import { Notice } from "../../components/ui/notice.tsx";
import { contentPath, formatDate, formatDuration, formatTimestamp, TYPE_LABEL } from "../../lib/format.ts";
import { useAuth } from "../../lib/session/auth-context.tsx";
import { ContentGrid } from "./content-card.tsx";
import type { ContentPageData } from "./content-data.ts";
import { CourseProgressProvider, CourseProgressSummary, LessonToggle } from "./course-progress.tsx";
import { EngagementBar, useViewBeacon, ViewCount } from "./engagement-bar.tsx";
import { LastReviewed, StaleBadge } from "./freshness-note.tsx";
import { PaywallPanel, PublicPreview } from "./paywall-panel.tsx";
import { usePersonalEngagement } from "./personal-engagement.ts";
import { PreviewBanner } from "./preview-banner.tsx";

function Breadcrumbs({ item }: { item: ContentSummary }) {
  const section = item.section ? findRoute(`/${item.section}`) : undefined;
  const crumbs: Array<{ to: string; label: string }> = [{ to: "/", label: "Home" }];
  if (section) crumbs.push({ to: section.path, label: section.label });
  if (item.categorySlug && item.categoryLabel) {
    crumbs.push({ to: `/category/${encodeURIComponent(item.categorySlug)}`, label: item.categoryLabel });
  }
  return (
    <nav aria-label="Breadcrumb" className="mb-5">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-ink-subtle">
        {crumbs.map((c, i) => (
          <li key={c.to} className="flex items-center gap-1">
            {i > 0 ? <ChevronRight aria-hidden="true" className="size-3.5" /> : null}
            <Link to={c.to} className="rounded hover:text-ink">
              {c.label}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function ContentHeader({
  page,
  engagement,
  shareUrl,
  signedIn,
  preview,
}: {
  page: ContentPage;
  engagement: ContentPageData["engagement"];
  shareUrl: string;
  signedIn: boolean;
  /** A writer's preview: shown as the reader sees it, but a like would be the writer's own. */
  preview: boolean;
}) {
  const { item } = page;
  const date = formatDate(item.publishedAt);
  const locked = page.access.kind !== "granted";
  return (
    <header className="mb-8">
      <Breadcrumbs item={item} />
      <div className="mb-3 flex flex-wrap items-center gap-2 text-xs">
        <span className="font-semibold uppercase tracking-wider text-accent-text">
          {TYPE_LABEL[item.type]}
        </span>
        <TierBadge tier={item.tier} locked={locked} />
      </div>
      <h1 className="text-3xl font-semibold tracking-tight text-balance text-ink sm:text-4xl">
        {item.title}
      </h1>
      {item.excerpt ? <p className="mt-4 text-lg leading-relaxed text-ink-muted">{item.excerpt}</p> : null}
      <div className="mt-5 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-ink-subtle">
        {item.authorName ? <span>By {item.authorName}</span> : null}
        {date ? <time dateTime={item.publishedAt ?? undefined}>{date}</time> : null}
        {item.readingMinutes ? (
          <span className="inline-flex items-center gap-1">
            <Clock aria-hidden="true" className="size-3.5" />
            {item.readingMinutes} min read
          </span>
        ) : null}
        {page.video ? (
          <span className="inline-flex items-center gap-1">
            <Video aria-hidden="true" className="size-3.5" />
            {formatDuration(page.video.durationS)}
          </span>
        ) : null}
        <LastReviewed item={item} />
        <ViewCount engagement={engagement} />
      </div>
      <StaleBadge item={item} />
      {item.tags.length > 0 ? (
        <ul aria-label="Tags" className="mt-4 flex flex-wrap gap-1.5">
          {item.tags.map((tag) => (
            <li key={tag} className="rounded-md bg-sunken px-2 py-0.5 text-xs text-ink-muted">
              #{tag}
            </li>
          ))}
        </ul>
      ) : null}
      <div inert={preview}>
        <EngagementBar
          contentId={item.id}
          title={item.title}
          url={shareUrl}
          engagement={engagement}
          signedIn={signedIn}
          locked={item.locked}
        />
      </div>
    </header>
  );
}

function Body({ html }: { html: string | null }) {
  if (!html) return null;
  // Code blocks and wide tables scroll sideways: make them reachable by keyboard.
  const withFocusableCode = html.replace(/<(pre|table)(?=[\s>])/g, '<$1 tabindex="0"');
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server (rehype-sanitize) before it is stored
  return <div className="prose-content" dangerouslySetInnerHTML={{ __html: withFocusableCode }} />;
}

function Toc({ toc }: { toc: TocEntry[] }) {
  if (toc.length < 2) return null;
  return (
    <nav
      aria-label="On this page"
      className="sticky top-8 hidden max-h-[calc(100dvh-4rem)] overflow-y-auto xl:block"
    >
      <p className="mb-3 text-xs font-semibold uppercase tracking-wider text-ink-subtle">On this page</p>
      <ul className="space-y-1.5 border-l border-line text-sm">
        {toc.map((t) => (
          <li key={t.id}>
            <a
              href={`#${t.id}`}
              className={cx(
                "-ml-px block border-l border-transparent py-0.5 text-ink-muted hover:border-ink-subtle hover:text-ink",
                t.depth > 2 ? "pl-6" : "pl-3",
              )}
            >
              {t.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Related({ title, items }: { title: string; items: ContentSummary[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="related-title" className="mt-14 border-t border-line pt-8">
      <h2 id="related-title" className="mb-4 text-lg font-semibold text-ink">
        {title}
      </h2>
      <ContentGrid items={items} className="xl:grid-cols-2" />
    </section>
  );
}

function Lessons({
  items,
  action,
}: {
  items: ContentSummary[];
  /** Per-lesson control beside the link (the 'Mark complete' toggle). */
  action?: (lesson: ContentSummary) => ReactNode;
}) {
  if (items.length === 0) {
    return <Notice title="No lessons yet">This course has no published lessons yet.</Notice>;
  }
  return (
    <section aria-labelledby="lessons-title" className="mb-10">
      <h2 id="lessons-title" className="mb-4 flex items-center gap-2 text-lg font-semibold text-ink">
        <BookOpen aria-hidden="true" className="size-5 text-accent-text" />
        Lessons
        <span className="text-sm font-normal text-ink-subtle">({items.length})</span>
      </h2>
      <ol className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-elevated">
        {items.map((lesson, i) => (
          <li key={lesson.id} className="flex items-center">
            <Link
              to={contentPath(lesson.slug)}
              className="flex min-w-0 flex-1 items-start gap-4 px-4 py-3.5 transition-colors hover:bg-surface"
            >
              <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-sunken text-xs font-semibold text-ink-muted">
                {i + 1}
              </span>
              <span className="min-w-0 flex-1">
                <span className="block font-medium text-ink">{lesson.title}</span>
                {lesson.excerpt ? (
                  <span className="mt-0.5 line-clamp-2 block text-sm text-ink-muted">{lesson.excerpt}</span>
                ) : null}
              </span>
              <span className="flex shrink-0 items-center gap-2 text-xs text-ink-subtle">
                {lesson.readingMinutes ? <span>{lesson.readingMinutes} min</span> : null}
                {lesson.locked ? (
                  <span className="inline-flex items-center gap-1 text-warn-text">
                    <Lock aria-hidden="true" className="size-3.5" />
                    <span className="sr-only">Locked,</span>
                    {lesson.tier}
                  </span>
                ) : null}
              </span>
            </Link>
            {action ? <div className="shrink-0 pr-3">{action(lesson)}</div> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function VideoFrame({ page }: { page: ContentPage }) {
  const player = useRef<HTMLVideoElement>(null);
  const video = page.video;
  const seek = (atS: number) => {
    const el = player.current;
    if (!el) return;
    el.currentTime = atS;
    void el.play().catch(() => {});
    el.focus();
  };
  const stamp = (c: { atS: number; title: string }) => (
    <>
      <span className="font-mono text-xs text-accent-text tabular-nums">{formatTimestamp(c.atS)}</span>
      <span className="text-ink">{c.title}</span>
    </>
  );
  return (
    <div className="mb-8">
      {video?.src ? (
        // biome-ignore lint/a11y/useMediaCaption: caption tracks are rendered when the item has them
        <video
          ref={player}
          controls
          preload="metadata"
          playsInline
          poster={video.poster ?? undefined}
          src={video.src}
          className="aspect-video w-full rounded-2xl border border-line bg-black"
        >
          {video.tracks.map((t, i) => (
            <track
              key={t.src}
              kind="captions"
              src={t.src}
              srcLang={t.srclang}
              label={t.label}
              default={i === 0}
            />
          ))}
          Your browser cannot play this video.
        </video>
      ) : (
        <div className="flex aspect-video w-full flex-col items-center justify-center rounded-2xl border border-line bg-gradient-to-br from-zinc-900 to-zinc-800 px-6 text-center text-zinc-300">
          <PlayCircle aria-hidden="true" className="mb-3 size-12 text-zinc-500" />
          <p className="text-sm font-medium text-zinc-200">Video playback is not available</p>
          <p className="mt-1 max-w-sm text-xs text-zinc-400">
            No media file is attached to this item. The chapters and the full transcript are below.
          </p>
        </div>
      )}
      {video && video.chapters.length > 0 ? (
        <section aria-labelledby="chapters-title" className="mt-6">
          <h2 id="chapters-title" className="mb-3 text-lg font-semibold text-ink">
            Chapters
          </h2>
          <ol className="grid gap-1.5 sm:grid-cols-2">
            {video.chapters.map((c) => (
              <li key={`${c.atS}-${c.title}`}>
                {video.src ? (
                  <button
                    type="button"
                    onClick={() => seek(c.atS)}
                    className="flex w-full items-baseline gap-3 rounded-lg bg-surface px-3 py-2 text-left text-sm hover:bg-sunken"
                  >
                    {stamp(c)}
                    <span className="sr-only"> (play from here)</span>
                  </button>
                ) : (
                  <span className="flex items-baseline gap-3 rounded-lg bg-surface px-3 py-2 text-sm">
                    {stamp(c)}
                  </span>
                )}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </div>
  );
}

function GrantedBody({
  page,
  engagement,
  signedIn,
  preview,
}: {
  page: ContentPage;
  engagement: ContentPageData["engagement"];
  signedIn: boolean;
  /** A writer's preview: no 'Mark complete' (it would be the writer's progress). */
  preview: boolean;
}) {
  switch (page.template) {
    case "course":
      return (
        <CourseProgressProvider
          courseId={page.item.id}
          progress={engagement?.progress ?? null}
          signedIn={signedIn}
        >
          {page.children.length > 0 ? <CourseProgressSummary /> : null}
          <Lessons
            items={page.children}
            action={preview ? undefined : (lesson) => <LessonToggle lesson={lesson} />}
          />
          {page.html ? (
            <section aria-label="Course overview">
              <Body html={page.html} />
            </section>
          ) : null}
        </CourseProgressProvider>
      );
    case "video":
      return (
        <>
          <VideoFrame page={page} />
          {page.html ? (
            <section aria-label="Transcript">
              <Body html={page.html} />
            </section>
          ) : null}
          <Related title="Related" items={page.children} />
        </>
      );
    case "category":
      return (
        <>
          <Body html={page.html} />
          <Related title="In this category" items={page.children} />
        </>
      );
    case "collection":
      return (
        <>
          <Body html={page.html} />
          <Related title="In this collection" items={page.children} />
        </>
      );
    case "article":
      return (
        <>
          <Body html={page.html} />
          <Related title="Related reading" items={page.children} />
        </>
      );
    default:
      return (
        <>
          <Body html={page.html} />
          <Related title="Related" items={page.children} />
        </>
      );
  }
}

/** The dynamic content page: header always, then the body by template, or the tier gate. */
export function ContentView({ data }: { data: ContentPageData }) {
  const { page } = data;
  const auth = useAuth();
  const location = useLocation();
  // A preview is what the previewed reader sees, and it is not a reader's view of the item.
  const isAuthenticated = data.preview ? data.preview.signedIn : auth.isAuthenticated;
  useViewBeacon(page.item.id, !data.preview);
  const engagement = usePersonalEngagement(page.item.slug, data.engagement);
  const granted = page.access.kind === "granted";
  const withToc =
    granted && (page.template === "article" || page.template === "markdown") && page.toc.length >= 2;

  let main: ReactNode;
  if (page.access.kind !== "granted") {
    main = (
      <>
        <PublicPreview html={page.previewHtml} />
        {/* The stand-in for the paywalled body, named by the page's JSON-LD (hasPart cssSelector). */}
        <div className={PAYWALL_CSS_CLASS}>
          <PaywallPanel
            access={page.access}
            signedIn={isAuthenticated}
            currentPath={location.pathname}
            rolesRequired={page.item.rolesRequired}
            offer={data.offer}
          />
        </div>
        {page.template === "course" && page.children.length > 0 ? (
          <div className="mt-10">
            <Lessons items={page.children} />
          </div>
        ) : null}
      </>
    );
  } else {
    main = (
      <GrantedBody
        page={page}
        engagement={engagement}
        signedIn={isAuthenticated}
        preview={Boolean(data.preview)}
      />
    );
  }

  return (
    <div className={cx("grid gap-10", withToc && "xl:grid-cols-[minmax(0,1fr)_14rem]")}>
      <article className="min-w-0 max-w-3xl">
        {data.preview ? <PreviewBanner preview={data.preview} /> : null}
        <ContentHeader
          page={page}
          engagement={engagement}
          shareUrl={data.canonicalUrl}
          signedIn={isAuthenticated}
          preview={Boolean(data.preview)}
        />
        {main}
      </article>
      {withToc ? (
        <aside className="min-w-0">
          <Toc toc={page.toc} />
        </aside>
      ) : null}
    </div>
  );
}

/** Spec §2: 'Content Not Found' with the reason and a 'Return Home' button (HTTP 404). */
export function ContentNotFound({ error }: { error: string }) {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
      <div className="mb-6 flex size-14 items-center justify-center rounded-2xl border border-line bg-sunken text-ink-muted">
        <FileQuestion aria-hidden="true" className="size-6" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Content Not Found</h1>
      <p className="mt-3 break-words text-ink-muted">{`The requested content could not be loaded: ${error}`}</p>
      <Link to="/" className={buttonClass("primary", "md", "mt-8")}>
        <House aria-hidden="true" className="size-4" />
        Return Home
      </Link>
    </div>
  );
}
