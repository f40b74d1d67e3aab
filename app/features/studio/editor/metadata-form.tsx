/**
 * The item's metadata, grouped as writers think of it: Basics, Access, SEO & social, Structured
 * data, Featured. Every field shows its own error (client check or the server's answer).
 */
import type { ReactNode } from "react";
import { ROLES, TIERS } from "../../../../core/index.ts";
import { Card } from "../../../components/ui/card.tsx";
import { Field } from "../../../components/ui/fields.tsx";
import { formatDate } from "../../../lib/format.ts";
import {
  CONTENT_TYPES,
  type EditorFields,
  type FieldErrors,
  SEO_GUIDE,
  TEXT_LIMITS,
} from "./editor-fields.ts";
import type { EditorOptions } from "./editor-options.ts";
import { CheckboxField, Counter, ListField, SelectField, TextAreaField } from "./form-controls.tsx";
import { SearchCardPreview, SocialCardPreview } from "./seo-preview.tsx";
import { checkStructuredData } from "./structured-data.ts";

export interface MetadataFormProps {
  fields: EditorFields;
  errors: FieldErrors;
  onChange(patch: Partial<EditorFields>): void;
  options: EditorOptions;
  origin: string;
  /** The slug input with its availability check (owned by the screen). */
  slugField: ReactNode;
  /** When the saved item was last marked reviewed (null: never, or a new item). */
  lastReviewedAt?: string | null;
}

const TYPE_LABELS: Record<EditorFields["type"], string> = {
  article: "Article",
  course: "Course",
  video: "Video",
  markdown: "Markdown page",
  collection: "Collection",
};
/** Roles an item may require (a reader needs one of them); "User" is everyone signed in. */
const GATING_ROLES = ROLES.filter((r) => r !== "User");

export function Group({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card className="min-w-0 p-5">
      <h2 className="text-base font-semibold text-ink">{title}</h2>
      {description ? <p className="mt-0.5 text-sm text-ink-muted">{description}</p> : null}
      <div className="mt-4 space-y-4">{children}</div>
    </Card>
  );
}

export function MetadataForm({
  fields,
  errors,
  onChange,
  options,
  origin,
  slugField,
  lastReviewedAt = null,
}: MetadataFormProps) {
  const text = (name: keyof EditorFields) => ({
    value: fields[name] as string,
    error: errors[name],
    onChange: (e: { target: { value: string } }) => onChange({ [name]: e.target.value }),
  });
  const categories = options.categories.filter(
    (c) => !fields.section || !c.section || c.section === fields.section,
  );
  const structured = checkStructuredData(fields.structuredData);
  const otherRoles = fields.rolesRequired.filter((r) => !(GATING_ROLES as readonly string[]).includes(r));
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <Group title="Basics" description="What the item is and where readers find it.">
        {slugField}
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Type"
            value={fields.type}
            error={errors.type}
            onChange={(e) => onChange({ type: e.target.value as EditorFields["type"] })}
          >
            {CONTENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </SelectField>
          <SelectField label="Section" {...text("section")}>
            <option value="">No section</option>
            {options.sections.map((s) => (
              <option key={s.slug} value={s.slug}>
                {s.label}
              </option>
            ))}
          </SelectField>
        </div>
        <SelectField
          label="Category"
          {...text("categorySlug")}
          hint={fields.section ? "Categories used in this section, and unused ones." : undefined}
        >
          <option value="">No category</option>
          {categories.map((c) => (
            <option key={c.slug} value={c.slug}>
              {c.label}
            </option>
          ))}
          {fields.categorySlug && !categories.some((c) => c.slug === fields.categorySlug) ? (
            <option value={fields.categorySlug}>{fields.categorySlug}</option>
          ) : null}
        </SelectField>
        <TextAreaField
          label="Excerpt"
          rows={3}
          {...text("excerpt")}
          aside={<Counter length={fields.excerpt.length} max={TEXT_LIMITS.excerpt!} />}
          hint="Shown on cards and lists, and used when there is no meta description."
        />
        <ListField
          label="Tags"
          value={fields.tags}
          error={errors.tags}
          placeholder="prompting, evaluation"
          onChange={(tags) => onChange({ tags })}
        />
      </Group>

      <Group title="Access" description="Who may read the body. Everyone sees the title and excerpt.">
        <SelectField
          label="Plan needed"
          value={fields.tier}
          error={errors.tier}
          onChange={(e) => onChange({ tier: e.target.value as EditorFields["tier"] })}
          hint="Readers on a lower plan see the paywall instead of the body."
        >
          {TIERS.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-ink">Roles needed</legend>
          <p className="mb-2 text-xs text-ink-subtle">
            None ticked: the plan decides. Ticked: a reader also needs one of these roles.
          </p>
          <div className="grid gap-2 sm:grid-cols-2">
            {GATING_ROLES.map((role) => (
              <CheckboxField
                key={role}
                label={role}
                checked={fields.rolesRequired.includes(role)}
                onChange={(on) =>
                  onChange({
                    rolesRequired: on
                      ? [...fields.rolesRequired, role]
                      : fields.rolesRequired.filter((r) => r !== role),
                  })
                }
              />
            ))}
          </div>
          {otherRoles.length ? (
            <p className="mt-2 text-xs text-ink-muted">
              Also required (set elsewhere): {otherRoles.join(", ")}
            </p>
          ) : null}
          {errors.rolesRequired ? (
            <p className="mt-1.5 text-xs text-danger-text">{errors.rolesRequired}</p>
          ) : null}
        </fieldset>
      </Group>

      <Group title="SEO & social" description="How the item appears in search results and when shared.">
        <Field
          label="SEO title"
          optional
          {...text("seoTitle")}
          placeholder={fields.title}
          hint={
            <Counter length={fields.seoTitle.length} guide={SEO_GUIDE.seoTitle} max={TEXT_LIMITS.seoTitle!} />
          }
        />
        <TextAreaField
          label="Meta description"
          rows={3}
          {...text("metaDescription")}
          aside={
            <Counter
              length={fields.metaDescription.length}
              guide={SEO_GUIDE.metaDescription}
              max={TEXT_LIMITS.metaDescription!}
            />
          }
        />
        <SearchCardPreview fields={fields} origin={origin} />
        <Field
          label="Canonical URL"
          optional
          {...text("canonicalUrl")}
          placeholder="https://…"
          hint="Only when the original lives elsewhere."
        />
        <CheckboxField
          label="Hide from search engines (noindex)"
          checked={fields.noindex}
          onChange={(noindex) => onChange({ noindex })}
        />
        <ListField
          label="SEO keywords"
          value={fields.seoKeywords}
          error={errors.seoKeywords}
          onChange={(seoKeywords) => onChange({ seoKeywords })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Open Graph title" optional {...text("ogTitle")} />
          <SelectField label="Card size" {...text("twitterCard")}>
            <option value="">Large image (default)</option>
            <option value="summary_large_image">Large image</option>
            <option value="summary">Small image</option>
          </SelectField>
        </div>
        <TextAreaField
          label="Open Graph description"
          rows={2}
          {...text("ogDescription")}
          aside={<Counter length={fields.ogDescription.length} max={TEXT_LIMITS.ogDescription!} />}
        />
        <Field label="Open Graph image" optional {...text("ogImage")} placeholder="https://… or /path" />
        <SocialCardPreview fields={fields} origin={origin} />
      </Group>

      <div className="min-w-0 space-y-6">
        <Group title="Structured data" description="schema.org JSON-LD published with the page.">
          <Field
            label="Schema type"
            optional
            {...text("schemaType")}
            placeholder="Article, Course, VideoObject…"
          />
          <TextAreaField
            label="JSON-LD"
            rows={8}
            spellCheck={false}
            mono
            {...text("structuredData")}
            placeholder={'{\n  "@context": "https://schema.org",\n  "@type": "Article"\n}'}
            hint={
              fields.structuredData.trim() && structured.ok ? (
                <span className="text-ok-text">Valid JSON.</span>
              ) : (
                "One object, or a list of objects."
              )
            }
          />
        </Group>

        <Group title="Featured" description="Items on the home page's featured row.">
          <div className="grid gap-4 sm:grid-cols-2">
            <CheckboxField
              label="Feature on the home page"
              checked={fields.featured}
              onChange={(featured) => onChange({ featured })}
            />
            <Field
              label="Order"
              optional
              inputMode="numeric"
              {...text("featuredOrder")}
              hint="Lower numbers come first."
            />
          </div>
          <Field
            label="Featured image"
            optional
            {...text("featuredImage")}
            placeholder="https://… or /path"
          />
          <Field
            label="Featured image alt text"
            optional={fields.featuredImage.trim() === ""}
            {...text("featuredImageAlt")}
            hint="Required with an image: what it shows, for readers who cannot see it."
          />
        </Group>

        <ReviewGroup
          fields={fields}
          errors={errors}
          onChange={onChange}
          options={options}
          lastReviewedAt={lastReviewedAt}
        />
      </div>
    </div>
  );
}

/**
 * Freshness (decision 038): the item's own review-by date, or the section's default period after
 * its last review (or publication). Readers see “May be out of date” once it has passed.
 */
function ReviewGroup({
  fields,
  errors,
  onChange,
  options,
  lastReviewedAt,
}: Pick<MetadataFormProps, "fields" | "errors" | "onChange" | "options"> & {
  lastReviewedAt: string | null;
}) {
  const section = options.sections.find((s) => s.slug === fields.section);
  const days = section?.reviewDays ?? 0;
  const reviewed = formatDate(lastReviewedAt);
  const fallback = section
    ? days > 0
      ? `Empty: ${days} days after the last review (or publication), the default for ${section.label}.`
      : `Empty: no review date (${section.label} has no default period).`
    : "Empty: no review date (the item has no section).";
  return (
    <Group title="Review" description="When the item should be checked again for accuracy.">
      <Field
        label="Review by"
        type="date"
        optional
        value={fields.reviewBy}
        error={errors.reviewBy}
        onChange={(e) => onChange({ reviewBy: e.target.value })}
        hint={fallback}
      />
      {fields.reviewBy ? (
        <button
          type="button"
          className="text-sm font-medium text-accent-text hover:underline"
          onClick={() => onChange({ reviewBy: "" })}
        >
          Clear the review-by date
        </button>
      ) : null}
      <p className="text-sm text-ink-muted">
        {reviewed ? `Last reviewed ${reviewed}.` : "Not reviewed since it was published."}
      </p>
    </Group>
  );
}
