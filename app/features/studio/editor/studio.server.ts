/**
 * The editor screens' loaders: the item as the editor holds it (a StudioItem) and the choices its
 * form offers (sections, categories). They call the content service, which checks access itself.
 */
import { data, type RouterContextProvider } from "react-router";
import { NotFoundError } from "../../../../server/errors.ts";
import { reviewPeriodsFrom } from "../../../../server/modules/content/freshness.ts";
import type { StudioItem } from "../../../../server/modules/content/studio.types.ts";
import { actorContext, servicesContext } from "../../../lib/context.ts";
import type { EditorOptions } from "./editor-options.ts";

type Context = Readonly<RouterContextProvider>;

export async function loadEditorOptions(context: Context): Promise<EditorOptions> {
  const services = context.get(servicesContext);
  const content = services.content;
  const categories = await content.categories();
  const periods = reviewPeriodsFrom((key) => services.settings.value(key));
  return {
    sections: content.sections().map((s) => ({ slug: s.slug, label: s.label, reviewDays: periods(s.slug) })),
    categories: categories.map((c) => ({
      slug: c.slug,
      label: c.label,
      section: c.section,
      defaultTier: c.defaultTier,
    })),
  };
}

/**
 * The item with id `id` as the editor holds it (the studio operation, which lets content writers
 * only and reads the body source), or a 404 answer when it is missing or the actor may not write.
 */
export async function loadStudioItem(context: Context, id: string): Promise<StudioItem> {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  try {
    return await services.contentModels.studio.get(actor, id);
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw data({ message: "There is no item with this id." }, { status: 404 });
    }
    throw error;
  }
}
