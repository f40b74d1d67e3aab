/** The tabs of /moderate, in order, with what each one's count is read from. */
export const MODERATION_TABS = [
  { id: "reported", label: "Reported", count: "reported" },
  { id: "pending", label: "Pending", count: "pending" },
  { id: "hidden", label: "Hidden", count: "hidden" },
  { id: "all", label: "All recent", count: null },
  { id: "restricted", label: "Restricted users", count: "restricted" },
  { id: "review", label: "Content review", count: "review" },
] as const;

export type ModerationTab = (typeof MODERATION_TABS)[number]["id"];

export function isModerationTab(value: string): value is ModerationTab {
  return MODERATION_TABS.some((t) => t.id === value);
}
