import { EditorScreen } from "../../features/studio/editor/editor-screen.tsx";
import { loadEditorOptions } from "../../features/studio/editor/studio.server.ts";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/create";
import { studioParts } from "./studio-parts.tsx";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/create");

export async function loader({ context, request }: Route.LoaderArgs) {
  return { options: await loadEditorOptions(context), origin: new URL(request.url).origin };
}

export default function Create({ loaderData }: Route.ComponentProps) {
  return (
    <EditorScreen item={null} options={loaderData.options} origin={loaderData.origin} studio={studioParts} />
  );
}
