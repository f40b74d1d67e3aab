import { data } from "react-router";
import { ForbiddenScreen } from "../components/errors/error-screens.tsx";
import { registryMeta } from "../lib/meta.ts";
import type { Route } from "./+types/forbidden";

export const meta: Route.MetaFunction = (args) => [
  ...registryMeta(args, "/403"),
  { name: "robots", content: "noindex" },
];

/** The 403 screen as a page of its own (denied access may link here): answered with HTTP 403. */
export function loader() {
  return data({ forbidden: true }, { status: 403 });
}

export default function Forbidden() {
  return <ForbiddenScreen payload={null} />;
}
