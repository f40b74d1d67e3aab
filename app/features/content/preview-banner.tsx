import { Eye } from "lucide-react";
import { Form, Link, useLocation, useSubmit } from "react-router";
import {
  PREVIEW_AS_PARAM,
  PREVIEW_AUDIENCES,
  previewAudienceOption,
  previewAudienceValue,
} from "../../../core/preview-as.ts";
import { buttonClass } from "../../components/ui/button.tsx";
import type { PagePreview } from "./content-data.ts";

const SELECT_CLASS =
  "h-8 rounded-lg border border-line-strong bg-elevated px-2 pr-8 text-sm text-ink focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30";

/**
 * Shown above a page a writer previews as another reader: who they see it as, a picker to switch
 * (a plain GET form, so it works before hydration; it submits on change once hydrated) and a way
 * back to their own view.
 */
export function PreviewBanner({ preview }: { preview: PagePreview }) {
  const location = useLocation();
  const submit = useSubmit();
  return (
    <aside
      aria-label="Preview"
      className="mb-6 flex flex-col gap-3 rounded-xl border border-warn-line bg-warn-soft px-4 py-3 text-sm text-ink sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="flex min-w-0 items-start gap-2 font-medium">
        <Eye aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warn-text" />
        <span>{`Previewing as ${preview.label} — this is what they see`}</span>
      </p>
      <div className="flex shrink-0 items-center gap-2">
        <Form method="get" action={location.pathname} className="flex items-center gap-2">
          <label htmlFor="preview-as" className="sr-only">
            Preview as
          </label>
          <select
            id="preview-as"
            name={PREVIEW_AS_PARAM}
            defaultValue={preview.value}
            key={preview.value}
            onChange={(e) => submit(e.currentTarget.form, { replace: true })}
            className={SELECT_CLASS}
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
          <noscript>
            <button type="submit" className={buttonClass("secondary", "sm")}>
              Switch
            </button>
          </noscript>
        </Form>
        <Link to={location.pathname} className={buttonClass("ghost", "sm")}>
          Exit preview
        </Link>
      </div>
    </aside>
  );
}
