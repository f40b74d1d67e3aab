/**
 * The item's address: generated from the title until the writer edits it, checked for uniqueness
 * as they type ("available", or "taken: use <suggestion>?").
 */
import { Field } from "../../../components/ui/fields.tsx";
import { useSlugCheck } from "./use-slug-check.ts";

export function SlugField({
  slug,
  error,
  itemId,
  savedSlug,
  published,
  onChange,
}: {
  slug: string;
  error?: string;
  itemId: string | null;
  savedSlug: string | null;
  published: boolean;
  onChange(slug: string, byHand: boolean): void;
}) {
  const check = useSlugCheck(slug, itemId, savedSlug);
  const taken = check.kind === "checked" && !check.check.available;
  const suggestion = taken && check.kind === "checked" ? check.check.suggestion : null;
  const problem =
    error ??
    (check.kind === "checked" ? check.check.error : undefined) ??
    (taken ? "This address is taken." : undefined);
  return (
    <Field
      label="Address (slug)"
      value={slug}
      autoComplete="off"
      spellCheck={false}
      error={problem}
      onChange={(e) => onChange(e.target.value, true)}
      hint={
        <span aria-live="polite">
          {suggestion ? (
            <button
              type="button"
              className="font-medium text-accent-text underline underline-offset-2"
              onClick={() => onChange(suggestion, true)}
            >
              Use {suggestion}?
            </button>
          ) : check.kind === "checking" ? (
            "Checking…"
          ) : check.kind === "checked" && check.check.available ? (
            <span className="text-ok-text">Available: /content/{slug}</span>
          ) : check.kind === "unknown" ? (
            check.message
          ) : published && savedSlug !== null && slug !== savedSlug ? (
            "Changing the address of a published item breaks links to it."
          ) : (
            `Readers find it at /content/${slug || "…"}`
          )}
        </span>
      }
    />
  );
}
