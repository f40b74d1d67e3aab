import { lazy, type Ref, Suspense, useEffect, useRef, useState } from "react";

const CommentsSection = lazy(() =>
  import("./comments-section.tsx").then((m) => ({ default: m.CommentsSection })),
);

/** The room the comments take before they load, so nothing below them jumps. */
function Placeholder({ ref }: { ref?: Ref<HTMLDivElement> }) {
  return <div ref={ref} className="mt-12 min-h-40 max-w-3xl border-t border-line pt-8" />;
}

/**
 * The comments below a content page, loaded once the reader scrolls near them or the browser is
 * idle after the page has loaded: their code and their request stay out of the first load.
 */
export function DeferredComments({ contentId, readable }: { contentId: string; readable: boolean }) {
  const [wanted, setWanted] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!readable || wanted) return;
    const want = () => setWanted(true);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) want();
      },
      { rootMargin: "600px 0px" },
    );
    if (ref.current) observer.observe(ref.current);
    let cancelIdle = () => {};
    const onLoad = () => {
      // Safari has no requestIdleCallback: a short timeout stands in for it.
      if (typeof window.requestIdleCallback === "function") {
        const id = window.requestIdleCallback(want, { timeout: 3000 });
        cancelIdle = () => window.cancelIdleCallback(id);
      } else {
        const id = setTimeout(want, 1500);
        cancelIdle = () => clearTimeout(id);
      }
    };
    if (document.readyState === "complete") onLoad();
    else window.addEventListener("load", onLoad, { once: true });
    return () => {
      observer.disconnect();
      window.removeEventListener("load", onLoad);
      cancelIdle();
    };
  }, [readable, wanted]);

  if (!readable) return null;
  if (!wanted) return <Placeholder ref={ref} />;
  return (
    <Suspense fallback={<Placeholder />}>
      <CommentsSection contentId={contentId} readable={readable} />
    </Suspense>
  );
}
