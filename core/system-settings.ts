/**
 * The catalogue of system settings (issue 14, /super-admin/system-config): every setting the
 * platform owner may change at run time, with its type, limits and default. Stored values
 * (`system_setting`) override the defaults; a key not in this catalogue is refused. Feature flags
 * are boolean settings the server obeys per request (search, repository browser);
 * `debugMode` is not here: it comes from the environment (NODE_ENV) and is shown read-only.
 *
 * Pure: the settings service validates with `validateSettingValue`, the screen shows the limits.
 */

export type SettingDefinition =
  | SettingBase<"boolean", boolean>
  | (SettingBase<"integer", number> & { min: number; max: number })
  | (SettingBase<"enum", string> & { options: readonly string[] })
  | (SettingBase<"text", string> & { maxLength: number });

interface SettingBase<T extends string, V> {
  key: string;
  type: T;
  label: string;
  description: string;
  default: V;
  /** Feature flags reach the client's user context and gate a feature server-side. */
  featureFlag: boolean;
  /** Pages a feature flag switches off: left out of the navigation while the flag is off. */
  paths?: readonly string[];
}

export type SettingValue = boolean | number | string;

/**
 * Default review periods per section (decision 038): an item without its own review-by date is
 * due this many days after it was last marked reviewed (or published). 0: no default date.
 */
export const REVIEW_PERIOD_DEFAULTS: Readonly<Record<string, { label: string; days: number }>> =
  Object.freeze({
    "ai-education": { label: "AI Education", days: 365 },
    "workforce-tools": { label: "Workforce Tools", days: 180 },
    resources: { label: "Resources", days: 365 },
    "ai-news": { label: "AI News", days: 30 },
    documentation: { label: "Documentation", days: 180 },
  });

/** The setting key of a section's default review period. */
export function reviewPeriodKey(section: string): string {
  return `freshness.reviewDays.${section}`;
}

function reviewPeriodSettings(): SettingDefinition[] {
  return Object.entries(REVIEW_PERIOD_DEFAULTS).map(([section, { label, days }]) => ({
    key: reviewPeriodKey(section),
    type: "integer" as const,
    label: `Review period: ${label}`,
    description: `Days after an item in ${label} was last marked reviewed (or published) before readers see “May be out of date” and it joins the review queue, unless the item has its own review-by date. 0: no default date.`,
    default: days,
    min: 0,
    max: 3650,
    featureFlag: false,
  }));
}

export const SYSTEM_SETTINGS: readonly SettingDefinition[] = Object.freeze([
  {
    key: "search",
    type: "boolean",
    label: "Search",
    description:
      "Full-text search: the sidebar search box, search results pages and GET /api/search. Off: the search API answers 404 (“Search is turned off on this site.”) and the search box is gone.",
    default: true,
    featureFlag: true,
  },
  {
    key: "repositoryBrowser",
    type: "boolean",
    label: "Repository browser",
    description:
      "Browsing repositories under /resources and their raw files (/api/repositories/…/raw). Off: those pages and files answer 404 and Resources leaves the sidebar.",
    default: true,
    featureFlag: true,
    paths: ["/resources"],
  },
  {
    key: "comments.enabled",
    type: "boolean",
    label: "Comments",
    description:
      "Readers' comments under content pages (and the comments API). Off: no comments section is shown and the comments API answers 404.",
    default: true,
    featureFlag: false,
  },
  {
    key: "comments.preModeration",
    type: "enum",
    label: "Comment pre-moderation",
    description:
      "Which new comments wait for a moderator before anyone else sees them: off (none), new-commenters (a reader's comments until one of them is published) or all. Moderators are never held.",
    default: "new-commenters",
    options: ["off", "new-commenters", "all"],
    featureFlag: false,
  },
  ...reviewPeriodSettings(),
]);

const BY_KEY: ReadonlyMap<string, SettingDefinition> = new Map(SYSTEM_SETTINGS.map((s) => [s.key, s]));

export function settingDefinition(key: string): SettingDefinition | undefined {
  return BY_KEY.get(key);
}

/** Every default, keyed. */
export function defaultSettings(): Record<string, SettingValue> {
  return Object.fromEntries(SYSTEM_SETTINGS.map((s) => [s.key, s.default]));
}

/** The feature flags among `values` (booleans only). */
export function featureFlagsOf(values: Readonly<Record<string, SettingValue>>): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const s of SYSTEM_SETTINGS) {
    if (s.featureFlag && s.type === "boolean") out[s.key] = values[s.key] === true;
  }
  return out;
}

/** The pages switched off by the flags that are off in `flags` (a flag missing from `flags` is on). */
export function pathsSwitchedOff(flags: Readonly<Record<string, boolean>>): string[] {
  return SYSTEM_SETTINGS.flatMap((s) => (s.featureFlag && flags[s.key] === false ? (s.paths ?? []) : []));
}

export type SettingCheck = { ok: true; value: SettingValue } | { ok: false; message: string };

/** Checks `value` against the setting's type and limits; the message names what was expected. */
export function validateSettingValue(def: SettingDefinition, value: unknown): SettingCheck {
  switch (def.type) {
    case "boolean":
      return typeof value === "boolean"
        ? { ok: true, value }
        : { ok: false, message: "expected true or false" };
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) {
        return { ok: false, message: "expected a whole number" };
      }
      if (value < def.min || value > def.max) {
        return { ok: false, message: `expected a whole number from ${def.min} to ${def.max}` };
      }
      return { ok: true, value };
    case "enum":
      return typeof value === "string" && def.options.includes(value)
        ? { ok: true, value }
        : { ok: false, message: `expected one of ${def.options.join(", ")}` };
    case "text":
      if (typeof value !== "string") return { ok: false, message: "expected text" };
      if (value.length > def.maxLength) {
        return { ok: false, message: `expected at most ${def.maxLength} characters` };
      }
      return { ok: true, value };
  }
}
