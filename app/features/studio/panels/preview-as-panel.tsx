import { ExternalLink, Eye } from "lucide-react";
import { useEffect, useId, useState } from "react";
import {
  PREVIEW_AS_PARAM,
  PREVIEW_AUDIENCES,
  parsePreviewAudience,
  previewAudienceLabel,
  previewAudienceOption,
  previewAudienceValue,
} from "../../../../core/preview-as.ts";
import { buttonClass } from "../../../components/ui/button.tsx";
import type { ItemPanelProps } from "./types.ts";
import { compactSelectClass } from "./ui.ts";

/** The public page of the item as `audience` sees it (the server checks the viewer writes content). */
export function previewUrl(publicUrl: string, audience: string, version?: number): string {
  const params = new URLSearchParams({ [PREVIEW_AS_PARAM]: audience });
  // A new version is a new address, so the frame reloads (and no cache answers for the old one).
  if (version !== undefined) params.set("v", String(version));
  return `${publicUrl}?${params.toString()}`;
}

/**
 * The saved item as a chosen reader sees it on the public page (paywall included), in a frame that
 * fills the panel's container and reloads after each save, with a reader picker and a link to
 * open the same preview in a new tab.
 */
export function PreviewAsPanel({ item, hasUnsavedChanges }: ItemPanelProps) {
  const [audience, setAudience] = useState("Pro");
  const selectId = useId();
  const headingId = useId();
  // The frame is the browser's business: render it once hydrated, so the server does not render a
  // second page into this one.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const parsed = parsePreviewAudience(audience) ?? { kind: "tier", tier: "Pro" };
  const label = previewAudienceLabel(parsed);

  return (
    <section aria-labelledby={headingId} className="flex h-full min-h-[32rem] min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="flex items-center gap-2 text-sm font-semibold text-ink">
          <Eye aria-hidden="true" className="size-4 text-ink-subtle" />
          Preview
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={selectId} className="text-sm text-ink-muted">
            As
          </label>
          <select
            id={selectId}
            value={audience}
            onChange={(e) => setAudience(e.target.value)}
            className={compactSelectClass}
          >
            {PREVIEW_AUDIENCES.map((a) => {
              const value = previewAudienceValue(a);
              return (
                <option key={value} value={value}>
                  {previewAudienceOption(a)}
                </option>
              );
            })}
          </select>
          <a
            href={previewUrl(item.publicUrl, audience)}
            target="_blank"
            rel="noopener"
            className={buttonClass("secondary", "sm")}
          >
            <ExternalLink aria-hidden="true" className="size-3.5" />
            Open in new tab
          </a>
        </div>
      </div>
      {hasUnsavedChanges ? (
        <p className="text-xs text-ink-subtle">The preview shows the last saved version.</p>
      ) : null}
      <div className="min-h-0 flex-1 overflow-hidden rounded-xl border border-line bg-elevated">
        {mounted ? (
          <iframe
            key={`${audience}:${item.version}`}
            src={previewUrl(item.publicUrl, audience, item.version)}
            title={`The public page as ${label} sees it`}
            className="size-full min-h-[30rem] border-0"
          />
        ) : null}
      </div>
    </section>
  );
}
