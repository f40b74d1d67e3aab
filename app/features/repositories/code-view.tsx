import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { formatLineRange, type LineRange, parseLineRange, selectLine } from "./view-model.ts";

/**
 * The code viewer: server-made HTML (Shiki or plain lines, each `<span class="line" id="L10">`
 * with a `#L10` line-number link). Clicking a line number selects the line and puts it in the
 * address (shift-click extends to a range, #L10-L20); the range in the address is highlighted and
 * scrolled into view on load. Without JavaScript the links still jump to the line.
 */
export function CodeView({ html, label }: { html: string; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const [range, setRange] = useState<LineRange | null>(null);

  // The address decides the selection (load, back/forward, links to #L…).
  useEffect(() => {
    const next = parseLineRange(location.hash);
    setRange(next);
    if (next) {
      const line = ref.current?.querySelector<HTMLElement>(`[id="L${next.start}"]`);
      line?.scrollIntoView({ block: "center" });
    }
  }, [location.hash]);

  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    for (const el of root.querySelectorAll(".line.is-selected")) el.classList.remove("is-selected");
    if (!range) return;
    for (let n = range.start; n <= range.end && n < range.start + 5000; n += 1) {
      root.querySelector(`[id="L${n}"]`)?.classList.add("is-selected");
    }
  }, [range]);

  // Clicks of the line-number links (delegated; the links work as plain #L anchors without JavaScript).
  const rangeRef = useRef(range);
  rangeRef.current = range;
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const onClick = (event: MouseEvent) => {
      const target = (event.target as HTMLElement).closest<HTMLAnchorElement>("a.line-no");
      if (!target) return;
      const line = Number(target.dataset.line);
      if (!Number.isInteger(line) || line < 1) return;
      event.preventDefault();
      const next = selectLine(rangeRef.current, line, event.shiftKey);
      setRange(next);
      // Keep React Router's history state; only the hash changes (no navigation, no scroll).
      window.history.replaceState(window.history.state, "", formatLineRange(next));
    };
    root.addEventListener("click", onClick);
    return () => root.removeEventListener("click", onClick);
  }, []);

  return (
    <div ref={ref} className="code-view" data-label={label}>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Shiki output made on the server from escaped text */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
