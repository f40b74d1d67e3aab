import { useLocation } from "react-router";
import type { CarriedEdits } from "../../features/studio/editor/editor-screen.tsx";
import { EditorScreen } from "../../features/studio/editor/editor-screen.tsx";
import { loadEditorOptions, loadStudioItem } from "../../features/studio/editor/studio.server.ts";
import { screenMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/edit";
import { studioParts } from "./studio-parts.tsx";

export const meta: Route.MetaFunction = (args) =>
  screenMeta(
    args,
    `Edit: ${args.loaderData?.item.title ?? "item"}`,
    "Edit an item: its text, metadata and workflow.",
  );

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const [item, options] = await Promise.all([loadStudioItem(context, params.id), loadEditorOptions(context)]);
  return { item, options, origin: new URL(request.url).origin };
}

export default function Edit({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const handed = location.state as CarriedEdits | null;
  const carried = handed?.version === loaderData.item.version ? handed.carried : null;
  return (
    // A different item is a different form: start afresh.
    <EditorScreen
      key={loaderData.item.id}
      item={loaderData.item}
      options={loaderData.options}
      origin={loaderData.origin}
      carried={carried}
      studio={studioParts}
    />
  );
}
