/** Pure helpers of the sign-in, sign-up and confirmation forms. */

/** Seconds left → "0:45", "4:59", "1:00:00". Never negative. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${r}` : `${m}:${r}`;
}

/** Seconds left until `deadline` (epoch ms), rounded up; 0 once it has passed. */
export function secondsUntil(deadline: number | null, now: number): number {
  if (deadline === null || !Number.isFinite(deadline)) return 0;
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** The sign-up fields a server message can name. */
export type SignUpField = "username" | "password" | "email" | "name" | "phoneNumber" | "organizationName";

/**
 * Which sign-up field a server error names (by its code or message), or null for a form-level
 * error. 'username' is tested before 'name', 'phone number' before anything else.
 */
export function fieldForError(code: string | null, message: string | null): SignUpField | null {
  const text = `${code ?? ""} ${message ?? ""}`.toLowerCase().replace(/_/g, " ");
  if (/organi[sz]ation/.test(text)) return "organizationName";
  if (/phone/.test(text)) return "phoneNumber";
  if (/user ?name/.test(text)) return "username";
  if (/e-?mail/.test(text)) return "email";
  if (/password/.test(text)) return "password";
  if (/\b(given ?)?name\b/.test(text)) return "name";
  return null;
}
