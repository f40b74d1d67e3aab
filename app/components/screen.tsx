import type { ReactNode } from "react";
import { getRoute } from "../../core/index.ts";
import { NamedIcon } from "./ui/icon.tsx";
import { PageHeader } from "./ui/page-header.tsx";

/**
 * A finished screen: registry title and icon, one paragraph of purpose (and the screen's main
 * actions beside them), then the content.
 */
export function Screen({
  path,
  purpose,
  actions,
  children,
}: {
  path: string;
  purpose: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const route = getRoute(path);
  return (
    <div>
      <PageHeader
        title={route.label}
        description={purpose}
        actions={actions}
        icon={
          <span className="flex size-9 items-center justify-center rounded-lg bg-accent-soft text-accent-text">
            <NamedIcon name={route.icon} className="size-5" />
          </span>
        }
      />
      <div className="space-y-6">{children}</div>
    </div>
  );
}
