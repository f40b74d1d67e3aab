import { FeatureScreen, Panel } from "../../components/feature-screen.tsx";
import { TierBadge } from "../../components/tier-badge.tsx";
import { KeyValueList } from "../../components/ui/card.tsx";
import { servicesContext } from "../../lib/context.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/create";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/create");

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  return { sections: services.content.sections(), categories: await services.content.categories() };
}

export default function Create({ loaderData }: Route.ComponentProps) {
  const { sections, categories } = loaderData;
  return (
    <FeatureScreen
      path="/create"
      purpose="Write a new article, course, video page or markdown page, choose its section, category and plan, and send it for review."
      coming="the editor with markdown preview, image uploads, SEO fields and the review workflow."
    >
      <Panel title="Where new content can go">
        <p className="mb-4 text-sm text-ink-muted">
          Every item belongs to a section and a category. A category's default plan is used unless the item
          sets its own.
        </p>
        <div className="space-y-5">
          {sections.map((section) => {
            const inSection = categories.filter((c) => c.section === section.slug);
            return (
              <div key={section.slug}>
                <h3 className="mb-1 text-sm font-semibold text-ink">{section.label}</h3>
                {inSection.length > 0 ? (
                  <KeyValueList
                    rows={inSection.map((c) => [
                      c.label,
                      <span key={c.slug} className="inline-flex items-center gap-2">
                        <TierBadge tier={c.defaultTier} />
                        <span className="text-ink-muted">{c.itemCount} published</span>
                      </span>,
                    ])}
                  />
                ) : (
                  <p className="text-sm text-ink-muted">No categories yet.</p>
                )}
              </div>
            );
          })}
        </div>
      </Panel>
    </FeatureScreen>
  );
}
