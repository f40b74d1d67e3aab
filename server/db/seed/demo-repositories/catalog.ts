/**
 * The demo repositories: what each holds, commit by commit. File contents are plain files under
 * `files/<slug>/` (read them there); a commit adds or replaces the listed paths. Everything is
 * fixed (author, dates, order) so the generated object ids are the same on every machine.
 */

export interface DemoCommit {
  message: string;
  /** ISO 8601, UTC. */
  date: string;
  /** Paths added or replaced, read from files/<slug>/<path>. */
  files: string[];
}

export interface DemoBranch {
  name: string;
  /** Branched from this branch's last commit (absent: the first branch, from nothing). */
  from?: string;
  commits: DemoCommit[];
}

export interface DemoRepository {
  slug: string;
  displayName: string;
  description: string;
  language: string;
  category: string;
  tags: string[];
  sortOrder: number;
  /** The first is the default branch. */
  branches: DemoBranch[];
}

export interface DemoRepositoryCategory {
  slug: string;
  name: string;
  description: string;
  icon: string;
  sortOrder: number;
}

export const DEMO_AUTHOR = { name: "Lumen Hub Demo", email: "demo@lumenhub.example" } as const;

/** Bump when a file or commit below changes: existing demo folders are then generated anew. */
export const DEMO_REPOSITORIES_VERSION = 1;

export const DEMO_REPOSITORY_CATEGORIES: DemoRepositoryCategory[] = [
  {
    slug: "ai-tooling",
    name: "AI tooling",
    description: "Small tools for building and checking AI features.",
    icon: "wrench",
    sortOrder: 10,
  },
  {
    slug: "data-workflows",
    name: "Data workflows",
    description: "Scripts that clean, move and explain data.",
    icon: "table",
    sortOrder: 20,
  },
  {
    slug: "workforce",
    name: "Workforce development",
    description: "Frameworks and templates for building skills in a team.",
    icon: "users",
    sortOrder: 30,
  },
];

export const DEMO_REPOSITORIES: DemoRepository[] = [
  {
    slug: "prompt-eval-kit",
    displayName: "Prompt Eval Kit",
    description: "Deterministic checks for prompt outputs: write test cases once, catch regressions early.",
    language: "TypeScript",
    category: "ai-tooling",
    tags: ["prompts", "evaluation", "typescript"],
    sortOrder: 10,
    branches: [
      {
        name: "main",
        commits: [
          {
            message: "Start prompt-eval-kit: README and package manifest",
            date: "2026-01-12T09:30:00Z",
            files: ["README.md", "package.json", ".gitignore"],
          },
          {
            message: "Add rule-based checks: contains, notContains, matches, maxWords, json",
            date: "2026-01-14T14:05:00Z",
            files: ["src/checks.ts"],
          },
          {
            message: "Add the case runner and an offline summarisation example",
            date: "2026-01-19T10:42:00Z",
            files: ["src/run.ts", "examples/summarize.cases.json"],
          },
          { message: "Add the project logo", date: "2026-01-20T16:10:00Z", files: ["assets/logo.png"] },
        ],
      },
      {
        name: "feature/json-keys",
        from: "main",
        commits: [
          {
            message:
              "Add a JSON key check for structured outputs\n\nModels often rename or drop a field; this check names the key that is missing or of the wrong type.",
            date: "2026-02-02T11:20:00Z",
            files: ["src/json-keys.ts", "examples/extract.cases.json"],
          },
        ],
      },
    ],
  },
  {
    slug: "tidy-csv",
    displayName: "tidy-csv",
    description: "A standard-library Python script that cleans CSV exports and reports what it changed.",
    language: "Python",
    category: "data-workflows",
    tags: ["python", "csv", "data-cleaning"],
    sortOrder: 10,
    branches: [
      {
        name: "main",
        commits: [
          {
            message: "Clean CSV exports: snake_case headers, trimmed cells, no blank rows",
            date: "2026-01-08T08:55:00Z",
            files: ["tidy_csv.py", "README.md"],
          },
          {
            message: "Add a messy sample export to try it on",
            date: "2026-01-09T13:15:00Z",
            files: ["sample/customers.csv"],
          },
          {
            message: "Test header, date and duplicate handling",
            date: "2026-01-13T17:30:00Z",
            files: ["tests/test_tidy_csv.py"],
          },
        ],
      },
      {
        name: "feature/column-rules",
        from: "main",
        commits: [
          {
            message: "Add column rules: drop and rename columns after cleaning",
            date: "2026-02-10T09:00:00Z",
            files: ["tidy_columns.py"],
          },
        ],
      },
    ],
  },
  {
    slug: "skills-matrix",
    displayName: "Workforce Skills Matrix",
    description: "A skills matrix for teams adopting AI: levels, skills, role targets and growth notes.",
    language: "Markdown",
    category: "workforce",
    tags: ["skills", "upskilling", "csv"],
    sortOrder: 10,
    branches: [
      {
        name: "main",
        commits: [
          {
            message: "Define the four proficiency levels",
            date: "2026-01-05T10:00:00Z",
            files: ["README.md", "levels.md"],
          },
          {
            message: "Add the skills list and role targets",
            date: "2026-01-06T15:20:00Z",
            files: ["skills.csv", "matrix.csv"],
          },
          {
            message: "Describe the data analyst and ML engineer roles",
            date: "2026-01-21T11:45:00Z",
            files: ["roles/data-analyst.md", "roles/ml-engineer.md"],
          },
        ],
      },
      {
        name: "draft/product-manager",
        from: "main",
        commits: [
          {
            message: "Draft the product manager role for review",
            date: "2026-02-16T14:30:00Z",
            files: ["roles/product-manager.md"],
          },
        ],
      },
    ],
  },
  {
    slug: "rag-starter",
    displayName: "RAG Starter",
    description:
      "The smallest useful retrieval-augmented generation example: chunk, rank with BM25, ground the prompt.",
    language: "Python",
    category: "ai-tooling",
    tags: ["rag", "retrieval", "python"],
    sortOrder: 20,
    branches: [
      {
        name: "main",
        commits: [
          {
            message: "Add three sample policy notes to search",
            date: "2026-01-15T09:10:00Z",
            files: ["docs/retention.md", "docs/expenses.md", "docs/onboarding.md"],
          },
          {
            message: "Chunk notes, rank with BM25 and build a grounded prompt",
            date: "2026-01-16T16:40:00Z",
            files: ["rag.py", "README.md"],
          },
        ],
      },
      {
        name: "feature/chunk-overlap",
        from: "main",
        commits: [
          {
            message: "Add overlapping chunks so answers across a boundary are not lost",
            date: "2026-02-05T10:25:00Z",
            files: ["chunk_overlap.py"],
          },
        ],
      },
    ],
  },
];
