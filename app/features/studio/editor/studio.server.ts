/**
 * The editor screens' loaders: the item as the editor holds it (a StudioItem) and the choices its
 * form offers (sections, categories). They call the content service, which checks access itself.
 */
import { data, type RouterContextProvider } from "react-router";
import {
  actionsFrom,
  canPublishContent,
  canWriteContent,
  WORKFLOW_RULES,
  workflowStateOf,
} from "../../../../core/index.ts";
import type { StudioItem } from "../../../../server/modules/content/studio.types.ts";
import { actorContext, servicesContext } from "../../../lib/context.ts";
import type { EditorOptions } from "./editor-options.ts";

type Context = Readonly<RouterContextProvider>;

export async function loadEditorOptions(context: Context): Promise<EditorOptions> {
  const content = context.get(servicesContext).content;
  const categories = await content.categories();
  return {
    sections: content.sections().map((s) => ({ slug: s.slug, label: s.label })),
    categories: categories.map((c) => ({
      slug: c.slug,
      label: c.label,
      section: c.section,
      defaultTier: c.defaultTier,
    })),
  };
}

/**
 * The item with id `id` as a StudioItem for this writer, or a 404 answer when it is missing or the
 * actor may not write content. The one place that reads it: swap in the studio operation
 * (`GET /api/studio/content/:id`'s) when it exists.
 */
export async function loadStudioItem(context: Context, id: string): Promise<StudioItem> {
  const services = context.get(servicesContext);
  const actor = context.get(actorContext);
  const notFound = () => data({ message: "There is no item with this id." }, { status: 404 });
  if (!canWriteContent(actor.access)) throw notFound();
  const view = await services.content.get(actor, id);
  if (!view) throw notFound();
  const [body, names] = await Promise.all([
    services.content.readBody(actor, id),
    services.content.authorNames([view.authorId, view.lastEditedBy].filter((v): v is string => v !== null)),
  ]);
  const state = workflowStateOf(view);
  const actions = actionsFrom(state).filter((action) =>
    WORKFLOW_RULES[action].from[state] === "publish"
      ? canPublishContent(actor.access)
      : canWriteContent(actor.access),
  );
  // Never open a body this writer cannot read as empty: a save would replace it.
  if (body.kind === "denied") {
    throw data(
      { message: "Your plan does not include this item's text, so it cannot be edited from this account." },
      { status: 403 },
    );
  }
  return {
    ...view,
    state,
    body: body.kind === "ok" ? body.text : "",
    actions,
    authorName: view.authorId ? (names.get(view.authorId) ?? null) : null,
    lastEditedByName: view.lastEditedBy ? (names.get(view.lastEditedBy) ?? null) : null,
    publicUrl: `/content/${view.slug}`,
  };
}
