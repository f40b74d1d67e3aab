/** Seats used of the plan's total, as an accessible meter (pending invitations shown apart). */
export function SeatsMeter({
  used,
  total,
  pending,
}: {
  used: number;
  total: number | null;
  pending: number;
}) {
  if (total === null) {
    return (
      <p className="text-sm text-ink-muted">
        {used} {used === 1 ? "member" : "members"} · no seats bought yet
      </p>
    );
  }
  const pct = total > 0 ? Math.min(100, Math.round((used / total) * 100)) : 100;
  const pendingPct = total > 0 ? Math.min(100 - pct, Math.round((pending / total) * 100)) : 0;
  const full = used + pending >= total;
  return (
    <div>
      <div className="mb-2 flex items-baseline justify-between gap-3 text-sm">
        <span className="font-medium text-ink">
          {used} of {total} seats used
        </span>
        <span className={full ? "text-danger-text" : "text-ink-muted"}>
          {Math.max(0, total - used - pending)} available{pending > 0 ? ` · ${pending} invited` : ""}
        </span>
      </div>
      {/* A styled bar: the native <meter> cannot show pending invitations as a second segment. */}
      {/* biome-ignore lint/a11y/useSemanticElements: two-segment bar with the meter role */}
      <div
        role="meter"
        aria-label="Seats used"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={used}
        aria-valuetext={`${used} of ${total} seats used`}
        className="flex h-2.5 w-full overflow-hidden rounded-full bg-sunken"
      >
        <div className={full ? "bg-red-600" : "bg-accent"} style={{ width: `${pct}%` }} />
        <div className="bg-accent/40" style={{ width: `${pendingPct}%` }} />
      </div>
    </div>
  );
}
