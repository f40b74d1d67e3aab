import { loadRepositoryPage } from "../features/repositories/repositories.server.ts";
import {
  CommitList,
  DirectoryTable,
  FilePanel,
  FileSidebar,
  IssueList,
  PathCrumbs,
  ReadmePanel,
  RepositoryHeader,
  RepositoryToolbar,
  SearchPanel,
  WorkflowList,
} from "../features/repositories/repository-parts.tsx";
import { screenMeta } from "../lib/meta.ts";
import type { Route } from "./+types/resource-detail";

export const meta: Route.MetaFunction = (args) => {
  const page = args.loaderData;
  if (!page)
    return [
      ...screenMeta(args, "Repository not found", "No such repository."),
      { name: "robots", content: "noindex" },
    ];
  const name = page.repository.displayName;
  const title = page.file ? `${page.file.path} · ${name}` : name;
  const tags = screenMeta(
    args,
    title,
    page.repository.description ?? `Browse ${name}: files, branches and README.`,
  );
  // File, branch and view addresses are many per repository: only the repository's own page is indexed.
  const plain = !page.path && page.view === "files" && page.branch === page.repository.defaultBranch;
  return plain ? tags : [...tags, { name: "robots", content: "noindex" }];
};

/** /resources/{slug}?branch=&path=&view=&q= — server-rendered; unknown repository, branch or path → 404. */
export async function loader(args: Route.LoaderArgs) {
  return loadRepositoryPage(args, args.params.slug);
}

export default function ResourceDetail({ loaderData: page }: Route.ComponentProps) {
  return (
    <div>
      <RepositoryHeader page={page} />
      <RepositoryToolbar page={page} />
      {page.view === "files" && !page.unavailable ? (
        <>
          {page.path ? <PathCrumbs page={page} /> : null}
          {page.file ? (
            <div className="grid gap-5 lg:grid-cols-[14rem_minmax(0,1fr)]">
              <FileSidebar page={page} />
              <FilePanel page={page} file={page.file} />
            </div>
          ) : (
            <>
              <DirectoryTable page={page} />
              {page.readme ? <ReadmePanel readme={page.readme} /> : null}
            </>
          )}
        </>
      ) : null}
      {page.view === "commits" && !page.unavailable ? <CommitList page={page} /> : null}
      {page.view === "issues" ? <IssueList page={page} /> : null}
      {page.view === "workflows" ? <WorkflowList page={page} /> : null}
      {page.view === "search" ? <SearchPanel page={page} /> : null}
    </div>
  );
}
