import { HeartPulse } from "lucide-react";
import { PageHeader } from "../components/ui/page-header.tsx";
import { DiagnosticsView } from "../features/diagnostics/diagnostics-view.tsx";
import { servicesContext } from "../lib/context.ts";
import { registryMeta } from "../lib/meta.ts";
import type { Route } from "./+types/health-check";

export const meta: Route.MetaFunction = (args) => [
  ...registryMeta(args, "/health-check"),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ context }: Route.LoaderArgs) {
  return { diagnostics: await context.get(servicesContext).diagnostics.diagnostics({ reading: "public" }) };
}

export default function HealthCheck({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <PageHeader
        eyebrow="Public diagnostics"
        title="Health Check"
        description="Whether the database and object storage answer, and how fast. Machines can read the same facts as JSON at /api/health."
        icon={
          <span className="flex size-9 items-center justify-center rounded-lg bg-accent-soft text-accent-text">
            <HeartPulse aria-hidden="true" className="size-5" />
          </span>
        }
      />
      <DiagnosticsView diagnostics={loaderData.diagnostics} />
    </div>
  );
}
