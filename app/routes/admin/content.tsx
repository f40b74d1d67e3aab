import { Link } from "react-router";
import { Card } from "../../components/ui/card.tsx";
import { FeatureScreen } from "../../features/account/feature-screen.tsx";
import { TierBadge } from "../../features/content/tier-badge.tsx";
import { servicesContext } from "../../lib/context.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/content";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/admin/content");

export async function loader({ context }: Route.LoaderArgs) {
  return { categories: await context.get(servicesContext).content.categories() };
}

export default function AdminContent({ loaderData }: Route.ComponentProps) {
  return (
    <FeatureScreen
      path="/admin/content"
      purpose="The content library's structure: categories, their sections and default plans, and how many items each holds."
      coming="creating, renaming and retiring categories, and changing their default plan."
    >
      <Card className="overflow-hidden">
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="border-b border-line px-4 py-3 text-left font-semibold text-ink">
              Categories
            </caption>
            <thead className="bg-sunken text-xs uppercase tracking-wider text-ink-muted">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Category
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Section
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Default plan
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Items
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {loaderData.categories.map((c) => (
                <tr key={c.id}>
                  <td className="px-4 py-2.5">
                    <Link
                      to={`/category/${encodeURIComponent(c.slug)}`}
                      className="font-medium text-ink hover:underline"
                    >
                      {c.label}
                    </Link>
                  </td>
                  <td className="px-4 py-2.5 text-ink-muted">{c.section ?? "—"}</td>
                  <td className="px-4 py-2.5">
                    <TierBadge tier={c.defaultTier} />
                  </td>
                  <td className="px-4 py-2.5 text-right tabular-nums text-ink-muted">{c.itemCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </FeatureScreen>
  );
}
