import { Bug } from "lucide-react";
import { PageHeader } from "../components/ui/page-header.tsx";
import { DiagnosticsView } from "../features/diagnostics/diagnostics-view.tsx";
import { servicesContext } from "../lib/context.ts";
import { registryMeta } from "../lib/meta.ts";
import type { Route } from "./+types/admin-debug";

export const meta: Route.MetaFunction = (args) => [
  ...registryMeta(args, "/admin-debug"),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ context }: Route.LoaderArgs) {
  return { diagnostics: await context.get(servicesContext).diagnostics.diagnostics({ reading: "public" }) };
}

export default function AdminDebug({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <PageHeader
        eyebrow="Public diagnostics"
        title="Diagnostics"
        description="Configuration shape, runtime and service health of this installation. Secrets, tokens and personal data are never shown here. Press Ctrl+Shift+D anywhere to toggle the debug panel."
        icon={
          <span className="flex size-9 items-center justify-center rounded-lg bg-accent-soft text-accent-text">
            <Bug aria-hidden="true" className="size-5" />
          </span>
        }
      />
      <DiagnosticsView diagnostics={loaderData.diagnostics} />
    </div>
  );
}
