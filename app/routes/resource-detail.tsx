import { ChevronRight, FileCode, FolderGit2, GitBranch } from "lucide-react";
import { data, Link } from "react-router";
import { ComingLater } from "../components/ui/notice.tsx";
import { screenMeta } from "../lib/meta.ts";
import type { Route } from "./+types/resource-detail";

export const meta: Route.MetaFunction = (args) => [
  ...screenMeta(args, `Repository ${args.params.slug}`, "Browse a repository's files, branches and README."),
  { name: "robots", content: "noindex" },
];

/** No repository can be found until the repository browser ships: HTTP 404 with an honest frame. */
export function loader({ params }: Route.LoaderArgs) {
  return data({ slug: params.slug }, { status: 404 });
}

export default function ResourceDetail({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <nav aria-label="Breadcrumb" className="mb-5">
        <ol className="flex items-center gap-1 text-sm text-ink-subtle">
          <li>
            <Link to="/resources" className="rounded hover:text-ink">
              Resources
            </Link>
          </li>
          <li className="flex items-center gap-1">
            <ChevronRight aria-hidden="true" className="size-3.5" />
            <span aria-current="page" className="text-ink">
              {loaderData.slug}
            </span>
          </li>
        </ol>
      </nav>
      <h1 className="mb-6 flex items-center gap-3 text-2xl font-semibold tracking-tight text-ink sm:text-3xl">
        <FolderGit2 aria-hidden="true" className="size-7 text-accent-text" />
        <span className="break-all">{loaderData.slug}</span>
      </h1>
      <div className="overflow-hidden rounded-xl border border-line">
        <div className="flex items-center gap-2 border-b border-line bg-sunken px-4 py-2.5 text-sm text-ink-muted">
          <GitBranch aria-hidden="true" className="size-4" />
          <span>No branch loaded</span>
        </div>
        <div className="grid min-h-64 md:grid-cols-[14rem_1fr]">
          <div className="border-b border-line p-4 text-sm text-ink-subtle md:border-r md:border-b-0">
            Files
          </div>
          <div className="flex flex-col items-center justify-center gap-2 p-8 text-center text-sm text-ink-muted">
            <FileCode aria-hidden="true" className="size-8 text-ink-subtle" />
            The repository browser arrives in a later release
          </div>
        </div>
      </div>
      <div className="mt-6">
        <ComingLater>
          the repository browser — files, branches, README and a highlighted code viewer for public
          repositories — arrives in a later release. No repository can be opened yet, so this address returns
          “not found”.
        </ComingLater>
      </div>
    </div>
  );
}
