import { data } from "react-router";
import { NotFoundScreen } from "../components/errors/error-screens.tsx";
import { screenMeta } from "../lib/meta.ts";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = (args) => [
  ...screenMeta(args, "Page not found", "We couldn't find that page."),
  { name: "robots", content: "noindex" },
];

/** Unknown paths and /404: the not-found screen with HTTP 404, inside the normal layout. */
export function loader() {
  return data({ notFound: true }, { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}
