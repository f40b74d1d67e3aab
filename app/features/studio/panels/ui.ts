/** A select sized for a panel's toolbar (the form input class is full width and taller). */
export const compactSelectClass =
  "h-8 rounded-lg border border-line-strong bg-elevated px-2 pr-8 text-sm text-ink focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30";
