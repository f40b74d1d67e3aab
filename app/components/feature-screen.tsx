import type { ReactNode } from "react";
import { Link } from "react-router";
import { getRoute } from "../../core/index.ts";
import { Card } from "./ui/card.tsx";
import { NamedIcon } from "./ui/icon.tsx";

export function Panel({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Card className="p-5">
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 className="text-sm font-semibold text-ink">{title}</h2>
        {action}
      </div>
      {children}
    </Card>
  );
}

/**
 * Cards linking to a registry route's children (/admin, /super-admin); `only` limits them to the
 * paths the user may open (from the loader).
 */
export function ChildCards({ path, only }: { path: string; only?: readonly string[] }) {
  const route = getRoute(path);
  // Dynamic children (e.g. /admin/users/:userId) are reached from their list, not from a card.
  const children = (route.children ?? []).filter(
    (child) => child.isDynamic !== true && (!only || only.includes(child.path)),
  );
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {children.map((child) => (
        <li key={child.path}>
          <Link
            to={child.path}
            className="flex h-full flex-col rounded-xl border border-line bg-elevated p-5 transition-colors hover:border-line-strong hover:bg-surface"
          >
            <span className="mb-3 flex size-9 items-center justify-center rounded-lg bg-sunken text-ink-muted">
              <NamedIcon name={child.icon} className="size-5" />
            </span>
            <span className="font-semibold text-ink">{child.label}</span>
            <span className="mt-1 text-sm text-ink-muted">{child.description}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
