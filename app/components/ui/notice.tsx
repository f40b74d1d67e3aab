import { CircleCheck, CircleX, Info, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { cx } from "./cx.ts";

export type NoticeTone = "info" | "warn" | "ok" | "danger";

const tones: Record<NoticeTone, string> = {
  info: "border-accent-line bg-accent-soft text-ink",
  warn: "border-warn-line bg-warn-soft text-ink",
  ok: "border-ok-line bg-ok-soft text-ink",
  danger: "border-danger-line bg-danger-soft text-ink",
};

const iconTone: Record<NoticeTone, string> = {
  info: "text-accent-text",
  warn: "text-warn-text",
  ok: "text-ok-text",
  danger: "text-danger-text",
};

const icons = { info: Info, warn: TriangleAlert, ok: CircleCheck, danger: CircleX };

export interface NoticeProps {
  tone?: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** "status" for polite live updates, "alert" for errors; none for static text. */
  role?: "status" | "alert";
}

/** A calm, bordered message box with an icon. */
export function Notice({ tone = "info", title, children, className, role }: NoticeProps) {
  const Icon = icons[tone];
  return (
    <div role={role} className={cx("flex gap-3 rounded-xl border px-4 py-3 text-sm", tones[tone], className)}>
      <Icon aria-hidden="true" className={cx("mt-0.5 size-4 shrink-0", iconTone[tone])} />
      <div className="min-w-0 space-y-1">
        {title ? <p className="font-medium">{title}</p> : null}
        {children ? <div className="text-ink-muted">{children}</div> : null}
      </div>
    </div>
  );
}
