/**
 * Demo catalog for Lumen Hub: sections, content categories, staff authors and content items.
 *
 * Every item's markdown body lives in `./bodies/<slug>.md` (see `loadDemoBody` in `./index.ts`).
 * The data is deliberately typed with string-literal unions so that category, section, tier and
 * author references are checked by the compiler; `catalog.unit.test.ts` checks the rest
 * (unique slugs, lessons/related targets, body files).
 */

export type DemoSectionSlug = "ai-education" | "workforce-tools" | "resources" | "ai-news" | "documentation";

export type DemoTier = "Free" | "Basic" | "Pro" | "Enterprise";

export type DemoContentType = "article" | "course" | "video" | "markdown" | "category" | "collection";

export type DemoAuthorUsername = "manager" | "admin" | "owner";

export type DemoCategorySlug =
  | "prompt-engineering"
  | "machine-learning-foundations"
  | "data-literacy"
  | "responsible-ai"
  | "productivity-automation"
  | "ai-for-managers"
  | "hiring-and-skills"
  | "templates-and-checklists"
  | "enterprise-playbooks"
  | "ai-policy-news"
  | "model-releases"
  | "platform-guides"
  | "api-reference";

export interface DemoSection {
  slug: DemoSectionSlug;
  label: string;
  description: string;
}

export interface DemoCategory {
  slug: DemoCategorySlug;
  label: string;
  description: string;
  defaultTier: DemoTier;
  /** A lucide-react icon name. */
  icon: string;
  section: DemoSectionSlug;
  s3Prefix: string;
  isActive: boolean;
}

export interface DemoAuthor {
  username: DemoAuthorUsername;
  displayName: string;
  /** What this staff account typically writes in the demo. */
  beat: string;
}

export interface DemoVideoChapter {
  atS: number;
  title: string;
}

export interface DemoVideo {
  durationS: number;
  chapters: DemoVideoChapter[];
}

export interface DemoContent {
  slug: string;
  title: string;
  type: DemoContentType;
  templateId?: DemoContentType;
  section: DemoSectionSlug;
  categorySlug: DemoCategorySlug;
  tier: DemoTier;
  rolesRequired?: string[];
  excerpt: string;
  tags: string[];
  seoTitle?: string;
  metaDescription: string;
  author: DemoAuthorUsername;
  publishedAt: string;
  featured?: boolean;
  featuredOrder?: number;
  audience?: string[];
  seoKeywords?: string[];
  related?: string[];
  /** Only for type "course": ordered slugs of the lesson items. */
  lessons?: string[];
  /** Only for type "video". */
  video?: DemoVideo;
  /** File name of the markdown body inside `./bodies/`. */
  body: string;
}

export const DEMO_SECTIONS: readonly DemoSection[] = [
  {
    slug: "ai-education",
    label: "AI Education",
    description:
      "Courses, lessons and explainers that take you from your first prompt to a working understanding of how models learn, fail and should be governed.",
  },
  {
    slug: "workforce-tools",
    label: "Workforce Tools",
    description:
      "Practical guidance for putting AI to work in real teams: automation recipes, management playbooks and the skills your people need.",
  },
  {
    slug: "resources",
    label: "Resources",
    description:
      "Templates, checklists, curated collections and enterprise playbooks you can copy, adapt and put in front of your team today.",
  },
  {
    slug: "ai-news",
    label: "AI News",
    description:
      "Dated analysis of the trends, regulations and practices shaping applied AI, written to stay useful after the headlines fade.",
  },
  {
    slug: "documentation",
    label: "Documentation",
    description:
      "How Lumen Hub works: getting started, plans and tiers, keyboard shortcuts, account security and the content API.",
  },
];

export const DEMO_CATEGORIES: readonly DemoCategory[] = [
  {
    slug: "prompt-engineering",
    label: "Prompt Engineering",
    description:
      "Write prompts that produce reliable, checkable output, and test them like any other piece of work.",
    defaultTier: "Free",
    icon: "Brain",
    section: "ai-education",
    s3Prefix: "content/free/prompting/",
    isActive: true,
  },
  {
    slug: "machine-learning-foundations",
    label: "Machine Learning Foundations",
    description:
      "The core ideas behind modern models, such as training data, generalisation, embeddings and evaluation, without the maths wall.",
    defaultTier: "Basic",
    icon: "GraduationCap",
    section: "ai-education",
    s3Prefix: "content/basic/ml-foundations/",
    isActive: true,
  },
  {
    slug: "data-literacy",
    label: "Data Literacy",
    description:
      "Read metrics, query data and question a chart with confidence before you trust an AI-generated answer.",
    defaultTier: "Free",
    icon: "LineChart",
    section: "ai-education",
    s3Prefix: "content/free/data-literacy/",
    isActive: true,
  },
  {
    slug: "responsible-ai",
    label: "Responsible AI",
    description:
      "Fairness, privacy, human oversight and risk assessment, turned into habits a delivery team can actually keep.",
    defaultTier: "Pro",
    icon: "ShieldCheck",
    section: "ai-education",
    s3Prefix: "content/pro/responsible-ai/",
    isActive: true,
  },
  {
    slug: "productivity-automation",
    label: "Productivity & Automation",
    description:
      "Recipes for automating the repetitive parts of knowledge work while keeping a human in charge of the result.",
    defaultTier: "Free",
    icon: "Wrench",
    section: "workforce-tools",
    s3Prefix: "content/free/productivity-automation/",
    isActive: true,
  },
  {
    slug: "ai-for-managers",
    label: "AI for Managers",
    description:
      "Lead a team through AI adoption: set expectations, write usable policies and measure what really changed.",
    defaultTier: "Basic",
    icon: "Users",
    section: "workforce-tools",
    s3Prefix: "content/basic/ai-for-managers/",
    isActive: true,
  },
  {
    slug: "hiring-and-skills",
    label: "Hiring & Skills",
    description:
      "Skills frameworks, interview approaches and upskilling programmes for roles that now work alongside AI.",
    defaultTier: "Pro",
    icon: "Briefcase",
    section: "workforce-tools",
    s3Prefix: "content/pro/hiring-and-skills/",
    isActive: true,
  },
  {
    slug: "templates-and-checklists",
    label: "Templates & Checklists",
    description:
      "Copy-ready prompt packs, intake forms and review rubrics that turn good intentions into a repeatable process.",
    defaultTier: "Free",
    icon: "ClipboardCheck",
    section: "resources",
    s3Prefix: "content/free/templates/",
    isActive: true,
  },
  {
    slug: "enterprise-playbooks",
    label: "Enterprise Playbooks",
    description:
      "Rollout plans, vendor questionnaires, data handling and incident response for organisations deploying AI at scale.",
    defaultTier: "Enterprise",
    icon: "Building2",
    section: "resources",
    s3Prefix: "content/enterprise/playbooks/",
    isActive: true,
  },
  {
    slug: "ai-policy-news",
    label: "AI Policy & Regulation",
    description:
      "Plain-language analysis of the regulations, standards and frameworks that affect how you build and buy AI.",
    defaultTier: "Free",
    icon: "Scale",
    section: "ai-news",
    s3Prefix: "content/free/ai-policy/",
    isActive: true,
  },
  {
    slug: "model-releases",
    label: "Models & Research Trends",
    description:
      "What shifts in model families, sizes and techniques mean for practitioners, explained without the hype.",
    defaultTier: "Free",
    icon: "Newspaper",
    section: "ai-news",
    s3Prefix: "content/free/model-trends/",
    isActive: true,
  },
  {
    slug: "platform-guides",
    label: "Platform Guides",
    description:
      "Everything you need to use Lumen Hub well: accounts, plans, navigation, shortcuts and security.",
    defaultTier: "Free",
    icon: "BookOpen",
    section: "documentation",
    s3Prefix: "content/free/platform-guides/",
    isActive: true,
  },
  {
    slug: "api-reference",
    label: "API Reference",
    description:
      "How to read Lumen Hub content programmatically, and how tiers and errors show up in API responses.",
    defaultTier: "Free",
    icon: "Code",
    section: "documentation",
    s3Prefix: "content/free/api-reference/",
    isActive: true,
  },
];

export const DEMO_AUTHORS: readonly DemoAuthor[] = [
  {
    username: "manager",
    displayName: "Lumen Hub Editorial",
    beat: "Courses, lessons, workforce guides, templates and the editorial style guide.",
  },
  {
    username: "admin",
    displayName: "Lumen Hub Platform Team",
    beat: "Documentation, API reference, security and enterprise playbooks.",
  },
  {
    username: "owner",
    displayName: "Lumen Hub Founders",
    beat: "AI news analysis, policy explainers and curated collections.",
  },
];

export const DEMO_CONTENT: readonly DemoContent[] = [
  // ───────────────────────────── AI Education ─────────────────────────────
  {
    slug: "prompting-fundamentals-course",
    title: "Prompting Fundamentals: From First Draft to Reliable Output",
    type: "course",
    section: "ai-education",
    categorySlug: "prompt-engineering",
    tier: "Free",
    excerpt:
      "A four-lesson course that turns prompting from guesswork into a craft: structure, examples, machine-readable output and testing.",
    tags: ["prompting", "course", "beginner", "llm"],
    seoTitle: "Prompting Fundamentals Course | Lumen Hub",
    metaDescription:
      "Free four-lesson course: structure prompts, use few-shot examples, get JSON output and test prompts like code.",
    author: "manager",
    publishedAt: "2026-02-03T09:00:00.000Z",
    featured: true,
    featuredOrder: 2,
    audience: ["beginners", "knowledge workers", "analysts"],
    seoKeywords: ["prompt engineering course", "llm prompting", "few-shot prompting"],
    lessons: [
      "anatomy-of-a-good-prompt",
      "few-shot-examples-that-work",
      "structured-output-with-json",
      "iterating-on-prompts-with-test-cases",
    ],
    related: ["explore-prompt-engineering", "video-prompt-clinic", "prompt-library-starter-pack"],
    body: "prompting-fundamentals-course.md",
  },
  {
    slug: "anatomy-of-a-good-prompt",
    title: "The Anatomy of a Good Prompt",
    type: "article",
    section: "ai-education",
    categorySlug: "prompt-engineering",
    tier: "Free",
    excerpt:
      "Most weak prompts are missing the same four things: a role, the context, a concrete task and a definition of done. Here is how to supply them.",
    tags: ["prompting", "beginner", "writing"],
    metaDescription:
      "The four parts every useful prompt needs (role, context, task and output format) with before-and-after examples.",
    author: "manager",
    publishedAt: "2026-02-03T09:10:00.000Z",
    audience: ["beginners", "knowledge workers"],
    seoKeywords: ["how to write a prompt", "prompt structure"],
    related: ["few-shot-examples-that-work", "prompt-review-rubric"],
    body: "anatomy-of-a-good-prompt.md",
  },
  {
    slug: "few-shot-examples-that-work",
    title: "Few-Shot Examples That Actually Work",
    type: "article",
    section: "ai-education",
    categorySlug: "prompt-engineering",
    tier: "Free",
    excerpt:
      "Examples are the strongest signal you can put in a prompt. Choose them badly and the model copies your mistakes; choose them well and you rarely need long instructions.",
    tags: ["prompting", "few-shot", "examples"],
    metaDescription:
      "How many examples to include, how to pick them, and the quiet ways few-shot prompts go wrong.",
    author: "manager",
    publishedAt: "2026-02-05T09:00:00.000Z",
    audience: ["beginners", "analysts"],
    related: ["anatomy-of-a-good-prompt", "structured-output-with-json"],
    body: "few-shot-examples-that-work.md",
  },
  {
    slug: "structured-output-with-json",
    title: "Getting Structured Output: JSON You Can Trust",
    type: "article",
    section: "ai-education",
    categorySlug: "prompt-engineering",
    tier: "Free",
    excerpt:
      "When a model's answer feeds another program, prose is a liability. Ask for JSON, describe it precisely and validate every response before you use it.",
    tags: ["prompting", "json", "validation", "developers"],
    metaDescription:
      "Ask a model for JSON, describe the schema, validate with Zod and retry safely when the output does not parse.",
    author: "manager",
    publishedAt: "2026-02-10T09:00:00.000Z",
    audience: ["developers", "analysts"],
    seoKeywords: ["llm json output", "structured output", "zod validation"],
    related: ["building-a-triage-bot-with-webhooks", "iterating-on-prompts-with-test-cases"],
    body: "structured-output-with-json.md",
  },
  {
    slug: "iterating-on-prompts-with-test-cases",
    title: "Iterating on Prompts with Test Cases",
    type: "article",
    section: "ai-education",
    categorySlug: "prompt-engineering",
    tier: "Free",
    excerpt:
      "A prompt that worked once has not been tested. Build a small set of cases, score every change against them and stop arguing from single examples.",
    tags: ["prompting", "testing", "evaluation", "python"],
    metaDescription:
      "Build a tiny evaluation set for your prompt, score each revision and keep the prompts that actually improve.",
    author: "manager",
    publishedAt: "2026-02-12T09:00:00.000Z",
    audience: ["analysts", "developers"],
    related: ["evaluation-metrics-explained", "evaluating-rag-practical-checklist"],
    body: "iterating-on-prompts-with-test-cases.md",
  },
  {
    slug: "ml-foundations-course",
    title: "Machine Learning Foundations for Non-Engineers",
    type: "course",
    section: "ai-education",
    categorySlug: "machine-learning-foundations",
    tier: "Basic",
    excerpt:
      "Four lessons on how models learn, why they fail on new data, what tokens and embeddings are, and how to judge a model by the right metric.",
    tags: ["machine learning", "course", "foundations", "llm"],
    seoTitle: "Machine Learning Foundations Course for Non-Engineers",
    metaDescription:
      "Learn how models learn, overfit, represent text and get evaluated, in four plain-language lessons for non-engineers.",
    author: "manager",
    publishedAt: "2026-03-02T09:00:00.000Z",
    featured: true,
    featuredOrder: 4,
    audience: ["product managers", "analysts", "team leads"],
    seoKeywords: ["machine learning basics", "ml for managers", "embeddings explained"],
    lessons: [
      "how-models-learn-from-data",
      "overfitting-and-generalization",
      "tokens-embeddings-and-context-windows",
      "evaluation-metrics-explained",
    ],
    related: ["video-embeddings-explained", "reading-a-confusion-matrix"],
    body: "ml-foundations-course.md",
  },
  {
    slug: "how-models-learn-from-data",
    title: "How Models Learn from Data",
    type: "article",
    section: "ai-education",
    categorySlug: "machine-learning-foundations",
    tier: "Free",
    excerpt:
      "Training is a loop: guess, measure the error, adjust, repeat. Understanding that loop explains most of what models can and cannot do.",
    tags: ["machine learning", "training", "beginner"],
    metaDescription:
      "The training loop in plain language: data splits, loss, gradient descent and why the data matters more than the model.",
    author: "manager",
    publishedAt: "2026-03-02T09:10:00.000Z",
    audience: ["beginners", "product managers"],
    related: ["overfitting-and-generalization", "ml-foundations-course"],
    body: "how-models-learn-from-data.md",
  },
  {
    slug: "overfitting-and-generalization",
    title: "Overfitting and Generalisation",
    type: "article",
    section: "ai-education",
    categorySlug: "machine-learning-foundations",
    tier: "Basic",
    excerpt:
      "A model that memorises its training data looks brilliant until it meets the real world. Learn to spot overfitting and the standard ways to prevent it.",
    tags: ["machine learning", "overfitting", "validation", "python"],
    metaDescription:
      "Why models memorise instead of learning, how to spot it with a validation set, and the usual fixes, with a Python demo.",
    author: "manager",
    publishedAt: "2026-03-05T09:00:00.000Z",
    audience: ["analysts", "product managers"],
    related: ["how-models-learn-from-data", "evaluation-metrics-explained"],
    body: "overfitting-and-generalization.md",
  },
  {
    slug: "tokens-embeddings-and-context-windows",
    title: "Tokens, Embeddings and Context Windows",
    type: "article",
    section: "ai-education",
    categorySlug: "machine-learning-foundations",
    tier: "Basic",
    excerpt:
      "Three terms you meet in every AI conversation, explained with concrete consequences for cost, accuracy and what a model can 'remember'.",
    tags: ["llm", "tokens", "embeddings", "context window"],
    metaDescription:
      "What tokens, embeddings and context windows are, and how each affects cost, latency and answer quality.",
    author: "manager",
    publishedAt: "2026-03-09T09:00:00.000Z",
    audience: ["product managers", "analysts", "developers"],
    seoKeywords: ["what is a token", "embeddings explained", "context window"],
    related: ["video-embeddings-explained", "video-context-windows-cost-latency"],
    body: "tokens-embeddings-and-context-windows.md",
  },
  {
    slug: "evaluation-metrics-explained",
    title: "Evaluation Metrics Explained: Accuracy Is Not Enough",
    type: "article",
    section: "ai-education",
    categorySlug: "machine-learning-foundations",
    tier: "Basic",
    excerpt:
      "Precision, recall, F1 and friends: which metric matches which business question, and why a 95% accurate model can be useless.",
    tags: ["evaluation", "metrics", "precision", "recall"],
    metaDescription:
      "Precision, recall and F1 explained with worked numbers, plus how to choose the metric that matches the cost of errors.",
    author: "manager",
    publishedAt: "2026-03-12T09:00:00.000Z",
    audience: ["analysts", "product managers"],
    related: ["reading-a-confusion-matrix", "evaluating-rag-practical-checklist"],
    body: "evaluation-metrics-explained.md",
  },
  {
    slug: "responsible-ai-in-practice-course",
    title: "Responsible AI in Practice",
    type: "course",
    section: "ai-education",
    categorySlug: "responsible-ai",
    tier: "Pro",
    excerpt:
      "A three-lesson course that turns responsible-AI principles into concrete checks for fairness, personal data and human oversight.",
    tags: ["responsible ai", "course", "governance", "privacy"],
    seoTitle: "Responsible AI in Practice: A Course for Delivery Teams",
    metaDescription:
      "Three lessons that turn fairness, privacy and human-oversight principles into checks your delivery team can run.",
    author: "manager",
    publishedAt: "2026-04-06T09:00:00.000Z",
    featured: true,
    featuredOrder: 5,
    audience: ["product managers", "developers", "risk and compliance"],
    seoKeywords: ["responsible ai course", "ai fairness", "human in the loop"],
    lessons: ["bias-and-fairness-basics", "privacy-and-pii-in-ai-workflows", "human-oversight-patterns"],
    related: ["ai-risk-assessment-for-internal-tools", "governance-essentials"],
    body: "responsible-ai-in-practice-course.md",
  },
  {
    slug: "bias-and-fairness-basics",
    title: "Bias and Fairness: The Working Basics",
    type: "article",
    section: "ai-education",
    categorySlug: "responsible-ai",
    tier: "Pro",
    excerpt:
      "Bias enters through data, labels, proxies and deployment context. Here is where to look and how to measure whether outcomes differ across groups.",
    tags: ["responsible ai", "fairness", "bias", "evaluation"],
    metaDescription:
      "Where bias enters an AI system, how to compare outcomes across groups, and what to do when the numbers differ.",
    author: "manager",
    publishedAt: "2026-04-06T09:10:00.000Z",
    audience: ["product managers", "analysts"],
    related: ["evaluation-metrics-explained", "human-oversight-patterns"],
    body: "bias-and-fairness-basics.md",
  },
  {
    slug: "privacy-and-pii-in-ai-workflows",
    title: "Privacy and Personal Data in AI Workflows",
    type: "article",
    section: "ai-education",
    categorySlug: "responsible-ai",
    tier: "Pro",
    excerpt:
      "Prompts, logs and retrieval indexes quietly collect personal data. Map where it flows, minimise it and redact it before it reaches a model.",
    tags: ["privacy", "pii", "data protection", "python"],
    metaDescription:
      "Map where personal data flows in an AI feature, minimise it, and redact obvious identifiers before text reaches a model.",
    author: "admin",
    publishedAt: "2026-04-09T09:00:00.000Z",
    audience: ["developers", "risk and compliance"],
    related: ["data-classification-and-retention-guide", "automating-meeting-notes-responsibly"],
    body: "privacy-and-pii-in-ai-workflows.md",
  },
  {
    slug: "human-oversight-patterns",
    title: "Human Oversight Patterns That Do Not Become Rubber Stamps",
    type: "article",
    section: "ai-education",
    categorySlug: "responsible-ai",
    tier: "Pro",
    excerpt:
      "'A human reviews it' is only a control if the reviewer has time, context and the authority to say no. Five patterns, and when to use each.",
    tags: ["responsible ai", "human in the loop", "workflow design"],
    metaDescription:
      "Five human-oversight patterns for AI workflows, how to choose between them, and how to keep reviews from becoming rubber stamps.",
    author: "manager",
    publishedAt: "2026-04-14T09:00:00.000Z",
    audience: ["product managers", "team leads", "risk and compliance"],
    related: ["agentic-workflows-where-they-help", "incident-response-for-ai-features"],
    body: "human-oversight-patterns.md",
  },
  {
    slug: "reading-a-confusion-matrix",
    title: "Reading a Confusion Matrix in Five Minutes",
    type: "article",
    section: "ai-education",
    categorySlug: "data-literacy",
    tier: "Free",
    excerpt:
      "Four boxes tell you almost everything about a classifier's mistakes. Learn to read them and you can challenge any accuracy claim.",
    tags: ["data literacy", "evaluation", "beginner"],
    metaDescription:
      "Learn to read a confusion matrix, spot the costly errors and ask the right questions about any accuracy claim.",
    author: "manager",
    publishedAt: "2026-02-18T09:00:00.000Z",
    audience: ["beginners", "team leads", "analysts"],
    related: ["evaluation-metrics-explained", "bias-and-fairness-basics"],
    body: "reading-a-confusion-matrix.md",
  },
  {
    slug: "sql-for-ai-curious-analysts",
    title: "SQL for AI-Curious Analysts: Checking the Answer Yourself",
    type: "article",
    section: "ai-education",
    categorySlug: "data-literacy",
    tier: "Basic",
    excerpt:
      "An assistant can draft a query in seconds; knowing whether it is right still takes you. Five SQL patterns for verifying AI-generated analysis.",
    tags: ["sql", "data literacy", "analysis", "verification"],
    metaDescription:
      "Five SQL patterns to verify AI-generated queries and numbers: row counts, join fan-out, nulls, date edges and reconciliation.",
    author: "manager",
    publishedAt: "2026-05-04T09:00:00.000Z",
    audience: ["analysts"],
    seoKeywords: ["sql for analysts", "verify ai generated sql"],
    related: ["reading-a-confusion-matrix", "spreadsheet-safe-ai-analysis"],
    body: "sql-for-ai-curious-analysts.md",
  },
  {
    slug: "explore-prompt-engineering",
    title: "Prompt Engineering",
    type: "category",
    section: "ai-education",
    categorySlug: "prompt-engineering",
    tier: "Free",
    excerpt:
      "Start here for everything on writing, structuring and testing prompts, from a first lesson to copy-ready templates.",
    tags: ["prompting", "category", "overview"],
    metaDescription:
      "All Lumen Hub prompt engineering content in one place: a free course, a video clinic, templates and a review rubric.",
    author: "manager",
    publishedAt: "2026-02-02T09:00:00.000Z",
    audience: ["beginners", "knowledge workers"],
    related: [
      "prompting-fundamentals-course",
      "video-prompt-clinic",
      "prompt-library-starter-pack",
      "prompt-review-rubric",
    ],
    body: "explore-prompt-engineering.md",
  },
  {
    slug: "video-prompt-clinic",
    title: "Prompt Clinic: Rewriting Five Everyday Prompts",
    type: "video",
    section: "ai-education",
    categorySlug: "prompt-engineering",
    tier: "Free",
    excerpt:
      "Watch five vague workplace prompts get rebuilt step by step, from a meeting summary to a customer reply, with the reasoning behind every change.",
    tags: ["prompting", "video", "examples"],
    metaDescription:
      "A video walkthrough rewriting five everyday workplace prompts, explaining each change and why it improves the output.",
    author: "manager",
    publishedAt: "2026-02-20T09:00:00.000Z",
    audience: ["beginners", "knowledge workers"],
    related: ["anatomy-of-a-good-prompt", "prompt-review-rubric"],
    video: {
      durationS: 20,
      chapters: [
        { atS: 0, title: "Why rewrite instead of retry" },
        { atS: 3, title: "Prompt 1: the meeting summary" },
        { atS: 6, title: "Prompt 2: the customer reply" },
        { atS: 9, title: "Prompt 3: the data question" },
        { atS: 12, title: "Prompt 4: the job description" },
        { atS: 15, title: "Prompt 5: the brainstorm" },
        { atS: 18, title: "Recap and checklist" },
      ],
    },
    body: "video-prompt-clinic.md",
  },
  {
    slug: "video-embeddings-explained",
    title: "Embeddings, Visually Explained",
    type: "video",
    section: "ai-education",
    categorySlug: "machine-learning-foundations",
    tier: "Basic",
    excerpt:
      "A visual tour of how text becomes vectors, why similar meanings land close together, and how search and retrieval use that geometry.",
    tags: ["embeddings", "video", "semantic search", "rag"],
    metaDescription:
      "A visual explainer of embeddings: how text becomes vectors, how similarity works, and how semantic search uses it.",
    author: "manager",
    publishedAt: "2026-03-16T09:00:00.000Z",
    audience: ["product managers", "developers"],
    related: ["tokens-embeddings-and-context-windows", "evaluating-rag-practical-checklist"],
    video: {
      durationS: 15,
      chapters: [
        { atS: 0, title: "Words as points in space" },
        { atS: 3, title: "Measuring similarity" },
        { atS: 6, title: "From words to whole passages" },
        { atS: 9, title: "Semantic search in practice" },
        { atS: 12, title: "Where embeddings mislead" },
      ],
    },
    body: "video-embeddings-explained.md",
  },
  {
    slug: "ai-risk-assessment-for-internal-tools",
    title: "A Lightweight AI Risk Assessment for Internal Tools",
    type: "article",
    section: "ai-education",
    categorySlug: "responsible-ai",
    tier: "Enterprise",
    excerpt:
      "Not every internal AI tool needs a committee, but every one needs answers to eight questions. A proportionate assessment you can finish in an hour.",
    tags: ["risk assessment", "governance", "responsible ai", "enterprise"],
    metaDescription:
      "An eight-question, one-hour risk assessment for internal AI tools, with a scoring table and clear escalation triggers.",
    author: "admin",
    publishedAt: "2026-05-11T09:00:00.000Z",
    audience: ["risk and compliance", "IT leaders", "product managers"],
    seoKeywords: ["ai risk assessment template", "internal ai tools governance"],
    related: [
      "eu-ai-act-risk-tiers-internal-tools",
      "nist-ai-rmf-in-plain-language",
      "vendor-evaluation-questionnaire",
    ],
    body: "ai-risk-assessment-for-internal-tools.md",
  },

  // ──────────────────────────── Workforce Tools ────────────────────────────
  {
    slug: "explore-productivity-automation",
    title: "Productivity & Automation",
    type: "category",
    section: "workforce-tools",
    categorySlug: "productivity-automation",
    tier: "Free",
    excerpt:
      "Automation recipes for real teams, each with a human checkpoint and a note on what can go wrong.",
    tags: ["automation", "productivity", "category", "overview"],
    metaDescription:
      "Lumen Hub's productivity and automation content: meeting notes, spreadsheets, triage bots and weekly-report walkthroughs.",
    author: "manager",
    publishedAt: "2026-03-03T09:00:00.000Z",
    audience: ["knowledge workers", "team leads", "operations"],
    related: [
      "automating-meeting-notes-responsibly",
      "spreadsheet-safe-ai-analysis",
      "building-a-triage-bot-with-webhooks",
      "video-automating-a-weekly-report",
    ],
    body: "explore-productivity-automation.md",
  },
  {
    slug: "automating-meeting-notes-responsibly",
    title: "Automating Meeting Notes Responsibly",
    type: "article",
    section: "workforce-tools",
    categorySlug: "productivity-automation",
    tier: "Free",
    excerpt:
      "AI meeting notes save real time, as long as everyone knows they are being recorded, the summary is checked and the transcript does not live forever.",
    tags: ["meetings", "automation", "privacy", "productivity"],
    metaDescription:
      "Set up AI meeting notes your colleagues will trust: consent, a summary template, a review step and sensible retention.",
    author: "manager",
    publishedAt: "2026-03-10T09:00:00.000Z",
    audience: ["knowledge workers", "team leads"],
    related: ["privacy-and-pii-in-ai-workflows", "writing-an-ai-use-policy-for-your-team"],
    body: "automating-meeting-notes-responsibly.md",
  },
  {
    slug: "spreadsheet-safe-ai-analysis",
    title: "Spreadsheet Analysis with an AI Assistant, Safely",
    type: "article",
    section: "workforce-tools",
    categorySlug: "productivity-automation",
    tier: "Free",
    excerpt:
      "Assistants are good at writing formulas and bad at noticing that your data is wrong. A workflow that uses the first strength and guards against the second.",
    tags: ["spreadsheets", "analysis", "productivity", "verification"],
    metaDescription:
      "Use an AI assistant for spreadsheet formulas and analysis while checking for the errors it will not notice itself.",
    author: "manager",
    publishedAt: "2026-03-24T09:00:00.000Z",
    audience: ["knowledge workers", "analysts", "operations"],
    related: ["sql-for-ai-curious-analysts", "reading-a-confusion-matrix"],
    body: "spreadsheet-safe-ai-analysis.md",
  },
  {
    slug: "building-a-triage-bot-with-webhooks",
    title: "Building a Support Triage Bot with Webhooks",
    type: "article",
    section: "workforce-tools",
    categorySlug: "productivity-automation",
    tier: "Pro",
    excerpt:
      "A small TypeScript service that labels incoming tickets, validates the model's answer and routes anything uncertain to a person.",
    tags: ["automation", "typescript", "webhooks", "support"],
    metaDescription:
      "Build a TypeScript webhook service that classifies support tickets with an LLM, validates output and escalates when unsure.",
    author: "admin",
    publishedAt: "2026-04-20T09:00:00.000Z",
    audience: ["developers", "operations"],
    seoKeywords: ["llm ticket triage", "typescript webhook", "support automation"],
    related: ["structured-output-with-json", "human-oversight-patterns"],
    body: "building-a-triage-bot-with-webhooks.md",
  },
  {
    slug: "leading-ai-adoption-first-90-days",
    title: "Leading AI Adoption on Your Team: The First 90 Days",
    type: "article",
    section: "workforce-tools",
    categorySlug: "ai-for-managers",
    tier: "Basic",
    excerpt:
      "A phased plan for team leads: listen first, pilot on real work, then standardise what worked, with the conversations to have at each stage.",
    tags: ["management", "adoption", "change management"],
    metaDescription:
      "A 90-day plan for team leads introducing AI tools: discovery, pilots, standardisation and the conversations at each stage.",
    author: "manager",
    publishedAt: "2026-04-01T09:00:00.000Z",
    audience: ["team leads", "managers"],
    seoKeywords: ["ai adoption plan", "ai change management"],
    related: [
      "writing-an-ai-use-policy-for-your-team",
      "measuring-ai-productivity-honestly",
      "team-lead-toolkit",
    ],
    body: "leading-ai-adoption-first-90-days.md",
  },
  {
    slug: "writing-an-ai-use-policy-for-your-team",
    title: "Writing an AI Use Policy Your Team Will Actually Read",
    type: "article",
    section: "workforce-tools",
    categorySlug: "ai-for-managers",
    tier: "Basic",
    excerpt:
      "One page, plain words, concrete examples. A structure for a team-level AI use policy that answers the questions people really ask.",
    tags: ["policy", "management", "governance"],
    metaDescription:
      "Write a one-page team AI use policy: approved tools, data rules, review expectations and who to ask, with a template.",
    author: "manager",
    publishedAt: "2026-04-15T09:00:00.000Z",
    audience: ["team leads", "managers"],
    related: ["leading-ai-adoption-first-90-days", "data-classification-and-retention-guide"],
    body: "writing-an-ai-use-policy-for-your-team.md",
  },
  {
    slug: "measuring-ai-productivity-honestly",
    title: "Measuring AI Productivity Honestly",
    type: "article",
    section: "workforce-tools",
    categorySlug: "ai-for-managers",
    tier: "Enterprise",
    excerpt:
      "Hours saved is the metric everyone reports and nobody can verify. Measure cycle time, quality and rework instead, and compare against a baseline.",
    tags: ["metrics", "productivity", "management", "roi"],
    metaDescription:
      "Measure the impact of AI tools with baselines, cycle time, quality and rework, instead of self-reported hours saved.",
    author: "owner",
    publishedAt: "2026-06-08T09:00:00.000Z",
    audience: ["managers", "IT leaders", "finance"],
    seoKeywords: ["measure ai productivity", "ai roi"],
    related: ["leading-ai-adoption-first-90-days", "enterprise-ai-rollout-playbook"],
    body: "measuring-ai-productivity-honestly.md",
  },
  {
    slug: "skills-matrix-for-ai-roles",
    title: "A Skills Matrix for Working with AI",
    type: "article",
    section: "workforce-tools",
    categorySlug: "hiring-and-skills",
    tier: "Pro",
    excerpt:
      "Six skill areas, four levels, observable behaviours for each. Use it for hiring, self-assessment and planning training, not for ranking people.",
    tags: ["skills", "hiring", "learning and development"],
    metaDescription:
      "A six-area, four-level skills matrix for AI-assisted work, with observable behaviours for hiring and development plans.",
    author: "manager",
    publishedAt: "2026-05-18T09:00:00.000Z",
    audience: ["managers", "HR", "learning and development"],
    related: ["designing-an-upskilling-program", "video-coaching-conversations-about-ai"],
    body: "skills-matrix-for-ai-roles.md",
  },
  {
    slug: "designing-an-upskilling-program",
    title: "Designing an AI Upskilling Programme That Sticks",
    type: "article",
    section: "workforce-tools",
    categorySlug: "hiring-and-skills",
    tier: "Enterprise",
    excerpt:
      "One-off workshops fade within weeks. Build a programme around real tasks, peer champions and time protected for practice.",
    tags: ["upskilling", "training", "enterprise", "learning and development"],
    metaDescription:
      "Design an AI upskilling programme around real tasks, champions and practice time, with a cohort plan and success measures.",
    author: "owner",
    publishedAt: "2026-06-22T09:00:00.000Z",
    audience: ["HR", "learning and development", "IT leaders"],
    related: ["skills-matrix-for-ai-roles", "enterprise-ai-rollout-playbook"],
    body: "designing-an-upskilling-program.md",
  },
  {
    slug: "video-automating-a-weekly-report",
    title: "Walkthrough: Automating a Weekly Status Report",
    type: "video",
    section: "workforce-tools",
    categorySlug: "productivity-automation",
    tier: "Pro",
    excerpt:
      "Follow one weekly report from a manual copy-paste ritual to a pipeline that gathers the data, drafts a summary and waits for a human to approve it.",
    tags: ["automation", "video", "reporting", "workflow"],
    metaDescription:
      "Video walkthrough: turn a manual weekly status report into an automated draft that a person reviews before it is sent.",
    author: "manager",
    publishedAt: "2026-05-26T09:00:00.000Z",
    audience: ["operations", "team leads", "developers"],
    related: ["building-a-triage-bot-with-webhooks", "structured-output-with-json"],
    video: {
      durationS: 18,
      chapters: [
        { atS: 0, title: "The report we are automating" },
        { atS: 3, title: "Mapping the manual steps" },
        { atS: 6, title: "Gathering the data" },
        { atS: 9, title: "Drafting the summary" },
        { atS: 12, title: "The approval step" },
        { atS: 15, title: "What we chose not to automate" },
      ],
    },
    body: "video-automating-a-weekly-report.md",
  },
  {
    slug: "video-coaching-conversations-about-ai",
    title: "Coaching Conversations About AI at Work",
    type: "video",
    section: "workforce-tools",
    categorySlug: "ai-for-managers",
    tier: "Basic",
    excerpt:
      "How to talk with team members who are anxious, sceptical or over-enthusiastic about AI, with conversation structures you can use this week.",
    tags: ["management", "coaching", "video", "change management"],
    metaDescription:
      "A video guide for managers on coaching anxious, sceptical and over-enthusiastic team members through AI adoption.",
    author: "manager",
    publishedAt: "2026-05-06T09:00:00.000Z",
    audience: ["team leads", "managers"],
    related: ["leading-ai-adoption-first-90-days", "skills-matrix-for-ai-roles"],
    video: {
      durationS: 15,
      chapters: [
        { atS: 0, title: "Why these conversations matter" },
        { atS: 3, title: "The anxious team member" },
        { atS: 6, title: "The sceptic" },
        { atS: 9, title: "The over-enthusiast" },
        { atS: 12, title: "Following up" },
      ],
    },
    body: "video-coaching-conversations-about-ai.md",
  },

  // ─────────────────────────────── Resources ───────────────────────────────
  {
    slug: "start-here-new-to-ai",
    title: "Start Here: New to AI at Work",
    type: "collection",
    section: "resources",
    categorySlug: "templates-and-checklists",
    tier: "Free",
    excerpt:
      "A hand-picked path through Lumen Hub for your first week: how models work, how to prompt, how to check the output.",
    tags: ["collection", "beginner", "getting started"],
    seoTitle: "Start Here: New to AI at Work | Lumen Hub",
    metaDescription:
      "A curated first-week path for newcomers to AI at work: how models learn, how to prompt and how to check the results.",
    author: "owner",
    publishedAt: "2026-02-24T09:00:00.000Z",
    featured: true,
    featuredOrder: 1,
    audience: ["beginners", "knowledge workers"],
    related: [
      "getting-started-with-lumen-hub",
      "how-models-learn-from-data",
      "anatomy-of-a-good-prompt",
      "reading-a-confusion-matrix",
      "prompting-fundamentals-course",
      "automating-meeting-notes-responsibly",
    ],
    body: "start-here-new-to-ai.md",
  },
  {
    slug: "team-lead-toolkit",
    title: "The Team Lead's AI Toolkit",
    type: "collection",
    section: "workforce-tools",
    categorySlug: "ai-for-managers",
    tier: "Basic",
    excerpt:
      "Everything a team lead needs to introduce AI tools with care: a 90-day plan, a policy template, coaching advice and an intake checklist.",
    tags: ["collection", "management", "adoption"],
    metaDescription:
      "A curated toolkit for team leads adopting AI: a 90-day plan, a one-page policy, coaching guidance and an intake checklist.",
    author: "owner",
    publishedAt: "2026-05-13T09:00:00.000Z",
    audience: ["team leads", "managers"],
    related: [
      "leading-ai-adoption-first-90-days",
      "writing-an-ai-use-policy-for-your-team",
      "video-coaching-conversations-about-ai",
      "ai-project-intake-checklist",
      "measuring-ai-productivity-honestly",
    ],
    body: "team-lead-toolkit.md",
  },
  {
    slug: "governance-essentials",
    title: "AI Governance Essentials",
    type: "collection",
    section: "resources",
    categorySlug: "enterprise-playbooks",
    tier: "Enterprise",
    excerpt:
      "The reading list for whoever owns AI risk: frameworks, regulation, risk assessment, vendor questions and incident response.",
    tags: ["collection", "governance", "enterprise", "compliance"],
    metaDescription:
      "A curated governance reading list: NIST AI RMF, ISO/IEC 42001, the EU AI Act, risk assessment and incident response.",
    author: "owner",
    publishedAt: "2026-07-06T09:00:00.000Z",
    audience: ["risk and compliance", "IT leaders", "legal"],
    related: [
      "nist-ai-rmf-in-plain-language",
      "iso-42001-what-it-asks-of-you",
      "eu-ai-act-risk-tiers-internal-tools",
      "ai-risk-assessment-for-internal-tools",
      "vendor-evaluation-questionnaire",
      "incident-response-for-ai-features",
    ],
    body: "governance-essentials.md",
  },
  {
    slug: "prompt-library-starter-pack",
    title: "Prompt Library Starter Pack",
    type: "markdown",
    section: "resources",
    categorySlug: "templates-and-checklists",
    tier: "Free",
    excerpt:
      "Twelve copy-ready prompt templates for everyday work, each with placeholders and a note on what to check in the output.",
    tags: ["templates", "prompting", "productivity"],
    metaDescription:
      "Twelve copy-ready prompt templates for summaries, emails, analysis and planning, with placeholders and review notes.",
    author: "manager",
    publishedAt: "2026-04-27T09:00:00.000Z",
    audience: ["knowledge workers", "beginners"],
    related: ["anatomy-of-a-good-prompt", "prompt-review-rubric"],
    body: "prompt-library-starter-pack.md",
  },
  {
    slug: "ai-project-intake-checklist",
    title: "AI Project Intake Checklist",
    type: "markdown",
    templateId: "article",
    section: "resources",
    categorySlug: "templates-and-checklists",
    tier: "Basic",
    excerpt:
      "Twenty questions to answer before anyone builds or buys an AI feature, grouped so the right people answer the right part.",
    tags: ["checklist", "project management", "governance"],
    metaDescription:
      "A 20-question intake checklist for AI projects: problem, data, users, risk and success measures, before work starts.",
    author: "manager",
    publishedAt: "2026-05-20T09:00:00.000Z",
    audience: ["product managers", "team leads"],
    related: ["ai-risk-assessment-for-internal-tools", "vendor-evaluation-questionnaire"],
    body: "ai-project-intake-checklist.md",
  },
  {
    slug: "prompt-review-rubric",
    title: "Prompt Review Rubric",
    type: "markdown",
    section: "resources",
    categorySlug: "templates-and-checklists",
    tier: "Basic",
    excerpt:
      "A six-criterion rubric for reviewing prompts before they go into shared templates or production features.",
    tags: ["rubric", "prompting", "review", "templates"],
    metaDescription:
      "Review prompts before they are shared or shipped with a six-criterion rubric covering clarity, context, format and safety.",
    author: "manager",
    publishedAt: "2026-06-01T09:00:00.000Z",
    audience: ["knowledge workers", "developers"],
    related: ["prompt-library-starter-pack", "iterating-on-prompts-with-test-cases"],
    body: "prompt-review-rubric.md",
  },
  {
    slug: "vendor-evaluation-questionnaire",
    title: "AI Vendor Evaluation Questionnaire",
    type: "markdown",
    section: "resources",
    categorySlug: "enterprise-playbooks",
    tier: "Enterprise",
    excerpt:
      "The questions to send an AI vendor before procurement: data use, security, evaluation evidence, failure handling and exit.",
    tags: ["procurement", "vendors", "enterprise", "security"],
    metaDescription:
      "A procurement questionnaire for AI vendors covering data use, security, evaluation evidence, incidents and exit terms.",
    author: "admin",
    publishedAt: "2026-06-15T09:00:00.000Z",
    audience: ["procurement", "IT leaders", "risk and compliance"],
    seoKeywords: ["ai vendor questionnaire", "ai procurement"],
    related: ["ai-risk-assessment-for-internal-tools", "enterprise-ai-rollout-playbook"],
    body: "vendor-evaluation-questionnaire.md",
  },
  {
    slug: "enterprise-ai-rollout-playbook",
    title: "The Enterprise AI Rollout Playbook",
    type: "article",
    section: "resources",
    categorySlug: "enterprise-playbooks",
    tier: "Enterprise",
    excerpt:
      "Four phases, from foundations to scale, with the decisions, owners and exit criteria that keep an organisation-wide rollout from stalling.",
    tags: ["enterprise", "rollout", "governance", "change management"],
    seoTitle: "Enterprise AI Rollout Playbook: Phases, Owners and Exit Criteria",
    metaDescription:
      "A four-phase playbook for rolling out AI across an organisation, with owners, decisions and exit criteria for each phase.",
    author: "owner",
    publishedAt: "2026-07-13T09:00:00.000Z",
    featured: true,
    featuredOrder: 6,
    audience: ["IT leaders", "executives", "risk and compliance"],
    seoKeywords: ["enterprise ai rollout", "ai adoption strategy"],
    related: [
      "designing-an-upskilling-program",
      "measuring-ai-productivity-honestly",
      "governance-essentials",
    ],
    body: "enterprise-ai-rollout-playbook.md",
  },
  {
    slug: "data-classification-and-retention-guide",
    title: "Data Classification and Retention for AI Content",
    type: "markdown",
    section: "resources",
    categorySlug: "enterprise-playbooks",
    tier: "Enterprise",
    excerpt:
      "A reference scheme for classifying prompts, outputs, transcripts and indexes, with retention defaults and handling rules.",
    tags: ["data governance", "retention", "classification", "enterprise"],
    metaDescription:
      "Classify prompts, outputs and retrieval indexes, and set retention and handling rules, with a copyable reference scheme.",
    author: "admin",
    publishedAt: "2026-07-20T09:00:00.000Z",
    audience: ["risk and compliance", "IT leaders", "data owners"],
    related: ["privacy-and-pii-in-ai-workflows", "writing-an-ai-use-policy-for-your-team"],
    body: "data-classification-and-retention-guide.md",
  },
  {
    slug: "incident-response-for-ai-features",
    title: "Incident Response for AI Features",
    type: "article",
    section: "resources",
    categorySlug: "enterprise-playbooks",
    tier: "Enterprise",
    excerpt:
      "When an AI feature leaks data, gives harmful advice or silently degrades, your usual runbook needs a few extra steps. Here they are.",
    tags: ["incident response", "operations", "enterprise", "security"],
    metaDescription:
      "Extend your incident runbook for AI features: detection signals, severity, containment switches and post-incident review.",
    author: "admin",
    publishedAt: "2026-08-03T09:00:00.000Z",
    audience: ["IT leaders", "developers", "security"],
    related: ["human-oversight-patterns", "ai-risk-assessment-for-internal-tools"],
    body: "incident-response-for-ai-features.md",
  },

  // ──────────────────────────────── AI News ────────────────────────────────
  {
    slug: "eu-ai-act-risk-tiers-internal-tools",
    title: "What the EU AI Act's Risk Tiers Mean for Internal Tools",
    type: "article",
    section: "ai-news",
    categorySlug: "ai-policy-news",
    tier: "Free",
    excerpt:
      "Most internal AI tools fall into the Act's lighter tiers, but HR and access-to-services uses can be high-risk. How to sort your inventory.",
    tags: ["eu ai act", "regulation", "compliance", "policy"],
    seoTitle: "EU AI Act Risk Tiers Explained for Internal AI Tools",
    metaDescription:
      "How the EU AI Act's four risk tiers apply to internal AI tools, which uses may be high-risk, and how to sort your inventory.",
    author: "owner",
    publishedAt: "2026-09-08T08:00:00.000Z",
    featured: true,
    featuredOrder: 3,
    audience: ["risk and compliance", "IT leaders", "managers"],
    seoKeywords: ["eu ai act risk categories", "high-risk ai systems", "ai act compliance"],
    related: [
      "ai-risk-assessment-for-internal-tools",
      "nist-ai-rmf-in-plain-language",
      "governance-essentials",
    ],
    body: "eu-ai-act-risk-tiers-internal-tools.md",
  },
  {
    slug: "small-language-models-on-the-laptop",
    title: "Small Language Models on the Laptop: What Changed",
    type: "article",
    section: "ai-news",
    categorySlug: "model-releases",
    tier: "Free",
    excerpt:
      "Quantisation, better training data and efficient runtimes have made useful models run on ordinary hardware. What that means for privacy, cost and your tool choices.",
    tags: ["small language models", "local ai", "quantization", "trends"],
    metaDescription:
      "Why small language models now run usefully on laptops, what quantisation trades away, and when local beats hosted.",
    author: "owner",
    publishedAt: "2026-09-22T08:00:00.000Z",
    audience: ["developers", "IT leaders"],
    seoKeywords: ["small language models", "run llm locally", "quantization"],
    related: ["open-weight-vs-hosted-models", "video-context-windows-cost-latency"],
    body: "small-language-models-on-the-laptop.md",
  },
  {
    slug: "evaluating-rag-practical-checklist",
    title: "Evaluating Retrieval-Augmented Generation: A Practical Checklist",
    type: "article",
    section: "ai-news",
    categorySlug: "model-releases",
    tier: "Basic",
    excerpt:
      "RAG systems fail in two places, retrieval and generation, and you need to measure both separately. A checklist and a minimal evaluation harness.",
    tags: ["rag", "evaluation", "retrieval", "python"],
    seoTitle: "How to Evaluate RAG Systems: A Practical Checklist",
    metaDescription:
      "Evaluate retrieval-augmented generation by measuring retrieval and answers separately, with a checklist and Python harness.",
    author: "owner",
    publishedAt: "2026-10-06T08:00:00.000Z",
    audience: ["developers", "product managers"],
    seoKeywords: ["rag evaluation", "retrieval augmented generation", "recall at k"],
    related: [
      "video-embeddings-explained",
      "evaluation-metrics-explained",
      "iterating-on-prompts-with-test-cases",
    ],
    body: "evaluating-rag-practical-checklist.md",
  },
  {
    slug: "open-weight-vs-hosted-models",
    title: "Open-Weight or Hosted? Choosing a Model Strategy",
    type: "article",
    section: "ai-news",
    categorySlug: "model-releases",
    tier: "Free",
    excerpt:
      "The gap between open-weight and hosted frontier models keeps shifting. A decision framework that does not depend on this month's leaderboard.",
    tags: ["open-weight models", "strategy", "hosting", "trends"],
    metaDescription:
      "Compare open-weight and hosted models on control, cost, capability and operations, with a framework that outlasts leaderboards.",
    author: "owner",
    publishedAt: "2026-08-18T08:00:00.000Z",
    audience: ["IT leaders", "developers"],
    related: ["small-language-models-on-the-laptop", "reading-model-benchmarks-critically"],
    body: "open-weight-vs-hosted-models.md",
  },
  {
    slug: "agentic-workflows-where-they-help",
    title: "Agentic Workflows: Where They Help and Where They Break",
    type: "article",
    section: "ai-news",
    categorySlug: "model-releases",
    tier: "Pro",
    excerpt:
      "Agents that plan and call tools are moving from demos into real work. The tasks that suit them, the ways they fail and the guardrails worth building first.",
    tags: ["agents", "automation", "tool use", "trends"],
    metaDescription:
      "Where AI agents that plan and call tools deliver value, how they typically fail, and which guardrails to build first.",
    author: "owner",
    publishedAt: "2026-10-20T08:00:00.000Z",
    audience: ["developers", "product managers", "IT leaders"],
    seoKeywords: ["ai agents", "agentic workflows", "tool calling"],
    related: [
      "human-oversight-patterns",
      "building-a-triage-bot-with-webhooks",
      "incident-response-for-ai-features",
    ],
    body: "agentic-workflows-where-they-help.md",
  },
  {
    slug: "nist-ai-rmf-in-plain-language",
    title: "The NIST AI Risk Management Framework in Plain Language",
    type: "article",
    section: "ai-news",
    categorySlug: "ai-policy-news",
    tier: "Free",
    excerpt:
      "Govern, Map, Measure, Manage: what the four functions of the NIST AI RMF ask of an organisation, and how to start without a compliance team.",
    tags: ["nist ai rmf", "governance", "risk management", "policy"],
    metaDescription:
      "The four functions of the NIST AI Risk Management Framework explained, with a starter action for each one.",
    author: "owner",
    publishedAt: "2026-08-25T08:00:00.000Z",
    audience: ["risk and compliance", "IT leaders", "product managers"],
    seoKeywords: ["nist ai rmf", "ai risk management framework"],
    related: ["iso-42001-what-it-asks-of-you", "eu-ai-act-risk-tiers-internal-tools"],
    body: "nist-ai-rmf-in-plain-language.md",
  },
  {
    slug: "iso-42001-what-it-asks-of-you",
    title: "ISO/IEC 42001: What an AI Management System Asks of You",
    type: "article",
    section: "ai-news",
    categorySlug: "ai-policy-news",
    tier: "Pro",
    excerpt:
      "The first certifiable management-system standard for AI follows a familiar ISO structure. What it requires, how it relates to ISO 27001, and whether to pursue it.",
    tags: ["iso 42001", "standards", "certification", "governance"],
    metaDescription:
      "ISO/IEC 42001 explained: what an AI management system requires, how it maps to ISO 27001, and how to decide on certification.",
    author: "admin",
    publishedAt: "2026-10-13T08:00:00.000Z",
    audience: ["risk and compliance", "IT leaders"],
    seoKeywords: ["iso 42001", "ai management system", "ai certification"],
    related: ["nist-ai-rmf-in-plain-language", "governance-essentials"],
    body: "iso-42001-what-it-asks-of-you.md",
  },
  {
    slug: "reading-model-benchmarks-critically",
    title: "How to Read Model Benchmarks Without Being Misled",
    type: "article",
    section: "ai-news",
    categorySlug: "model-releases",
    tier: "Basic",
    excerpt:
      "Every model announcement arrives with a table of scores. Six questions that tell you how much those numbers say about your use case.",
    tags: ["benchmarks", "evaluation", "model selection", "trends"],
    metaDescription:
      "Six questions to ask of any model benchmark table, from contamination to task fit, before it drives a purchasing decision.",
    author: "owner",
    publishedAt: "2026-11-03T08:00:00.000Z",
    audience: ["IT leaders", "developers", "product managers"],
    related: ["open-weight-vs-hosted-models", "evaluating-rag-practical-checklist"],
    body: "reading-model-benchmarks-critically.md",
  },
  {
    slug: "content-provenance-and-watermarking",
    title: "Content Provenance and Watermarking: A Practical Primer",
    type: "article",
    section: "ai-news",
    categorySlug: "ai-policy-news",
    tier: "Pro",
    excerpt:
      "Provenance metadata and watermarks answer different questions and fail in different ways. What each can and cannot prove about a piece of content.",
    tags: ["provenance", "watermarking", "c2pa", "policy"],
    metaDescription:
      "Provenance metadata versus watermarking: what each proves about AI-generated content, their limits and how to use both.",
    author: "owner",
    publishedAt: "2026-11-10T08:00:00.000Z",
    audience: ["communications", "risk and compliance", "developers"],
    seoKeywords: ["content provenance", "ai watermarking", "c2pa content credentials"],
    related: ["eu-ai-act-risk-tiers-internal-tools", "incident-response-for-ai-features"],
    body: "content-provenance-and-watermarking.md",
  },
  {
    slug: "video-context-windows-cost-latency",
    title: "Explainer: Context Windows, Cost and Latency Trade-offs",
    type: "video",
    section: "ai-news",
    categorySlug: "model-releases",
    tier: "Basic",
    excerpt:
      "Context windows keep growing, but filling them is not free. A whiteboard explainer on what long context costs and when retrieval is the better choice.",
    tags: ["context window", "video", "cost", "latency"],
    metaDescription:
      "A video explainer on long context windows: what they cost in money and latency, and when retrieval is the better design.",
    author: "owner",
    publishedAt: "2026-10-27T08:00:00.000Z",
    audience: ["developers", "product managers"],
    related: [
      "tokens-embeddings-and-context-windows",
      "evaluating-rag-practical-checklist",
      "small-language-models-on-the-laptop",
    ],
    video: {
      durationS: 15,
      chapters: [
        { atS: 0, title: "Why context length keeps coming up" },
        { atS: 3, title: "What you pay for" },
        { atS: 6, title: "Latency and the first token" },
        { atS: 9, title: "Does the model use all of it?" },
        { atS: 12, title: "Long context or retrieval" },
      ],
    },
    body: "video-context-windows-cost-latency.md",
  },

  // ───────────────────────────── Documentation ─────────────────────────────
  {
    slug: "getting-started-with-lumen-hub",
    title: "Getting Started with Lumen Hub",
    type: "markdown",
    templateId: "article",
    section: "documentation",
    categorySlug: "platform-guides",
    tier: "Free",
    excerpt:
      "Create an account, find your way around the sidebar and sections, and open your first course in under ten minutes.",
    tags: ["documentation", "getting started", "onboarding"],
    metaDescription:
      "Create your Lumen Hub account, confirm your e-mail, learn the sidebar and sections, and open your first piece of content.",
    author: "admin",
    publishedAt: "2026-01-08T09:00:00.000Z",
    audience: ["new users"],
    related: ["plans-and-tiers-explained", "keyboard-shortcuts-and-debug-mode", "account-security-and-mfa"],
    body: "getting-started-with-lumen-hub.md",
  },
  {
    slug: "plans-and-tiers-explained",
    title: "Plans and Tiers Explained",
    type: "markdown",
    section: "documentation",
    categorySlug: "platform-guides",
    tier: "Free",
    excerpt:
      "How the Free, Basic, Pro and Enterprise tiers gate content, what the lock icons mean and what happens when you upgrade.",
    tags: ["documentation", "pricing", "tiers", "subscription"],
    metaDescription:
      "How Lumen Hub's Free, Basic, Pro and Enterprise tiers gate content, what locked items mean and how upgrading works.",
    author: "admin",
    publishedAt: "2026-01-09T09:00:00.000Z",
    audience: ["new users", "account owners"],
    related: ["getting-started-with-lumen-hub", "content-api-access-and-errors"],
    body: "plans-and-tiers-explained.md",
  },
  {
    slug: "keyboard-shortcuts-and-debug-mode",
    title: "Keyboard Shortcuts and Debug Mode",
    type: "markdown",
    section: "documentation",
    categorySlug: "platform-guides",
    tier: "Free",
    excerpt:
      "Toggle debug mode with Ctrl+Shift+D, find the diagnostic pages, and navigate the interface from the keyboard.",
    tags: ["documentation", "keyboard shortcuts", "debug", "accessibility"],
    metaDescription:
      "Lumen Hub keyboard shortcuts, including Ctrl+Shift+D for debug mode, plus the public diagnostics pages and what they show.",
    author: "admin",
    publishedAt: "2026-01-12T09:00:00.000Z",
    audience: ["all users", "administrators"],
    related: ["getting-started-with-lumen-hub", "account-security-and-mfa"],
    body: "keyboard-shortcuts-and-debug-mode.md",
  },
  {
    slug: "content-api-basics",
    title: "Content API Basics",
    type: "markdown",
    section: "documentation",
    categorySlug: "api-reference",
    tier: "Free",
    excerpt:
      "Read Lumen Hub content programmatically with GET /api/content and GET /api/content/{slug}: parameters, responses and examples.",
    tags: ["documentation", "api", "developers", "rest"],
    seoTitle: "Lumen Hub Content API Basics",
    metaDescription:
      "Use GET /api/content and GET /api/content/{slug} to list and read Lumen Hub content, with curl and TypeScript examples.",
    author: "admin",
    publishedAt: "2026-01-15T09:00:00.000Z",
    audience: ["developers"],
    seoKeywords: ["lumen hub api", "content api"],
    related: ["content-api-access-and-errors", "plans-and-tiers-explained"],
    body: "content-api-basics.md",
  },
  {
    slug: "content-api-access-and-errors",
    title: "Content API: Access Control and Error Handling",
    type: "markdown",
    section: "documentation",
    categorySlug: "api-reference",
    tier: "Pro",
    excerpt:
      "How tier and role checks apply to API requests, what an empty list or a missing item means, and how to retry safely.",
    tags: ["documentation", "api", "errors", "access control"],
    metaDescription:
      "How Lumen Hub's content API applies tier and role checks, what empty and missing results mean, and how to retry safely.",
    author: "admin",
    publishedAt: "2026-02-09T09:00:00.000Z",
    audience: ["developers"],
    related: ["content-api-basics", "plans-and-tiers-explained"],
    body: "content-api-access-and-errors.md",
  },
  {
    slug: "account-security-and-mfa",
    title: "Account Security and Multi-Factor Authentication",
    type: "markdown",
    section: "documentation",
    categorySlug: "platform-guides",
    tier: "Free",
    excerpt:
      "Password rules, optional multi-factor authentication, session time-outs and what to do if you are locked out.",
    tags: ["documentation", "security", "mfa", "account"],
    metaDescription:
      "Keep your Lumen Hub account safe: password rules, optional MFA with SMS or an authenticator app, sessions and lockouts.",
    author: "admin",
    publishedAt: "2026-01-20T09:00:00.000Z",
    audience: ["all users"],
    related: ["getting-started-with-lumen-hub", "keyboard-shortcuts-and-debug-mode"],
    body: "account-security-and-mfa.md",
  },
  {
    slug: "editorial-style-guide",
    title: "Lumen Hub Editorial Style Guide (Internal)",
    type: "markdown",
    section: "documentation",
    categorySlug: "platform-guides",
    tier: "Free",
    rolesRequired: ["ContentManager"],
    excerpt:
      "House rules for everyone who writes or edits Lumen Hub content: voice, structure, metadata, accuracy and tier placement.",
    tags: ["editorial", "style guide", "internal", "content management"],
    metaDescription:
      "Internal editorial style guide for Lumen Hub content managers: voice, structure, metadata, sourcing and tier placement.",
    author: "manager",
    publishedAt: "2026-01-06T09:00:00.000Z",
    audience: ["content managers", "editors"],
    related: ["prompt-review-rubric", "plans-and-tiers-explained"],
    body: "editorial-style-guide.md",
  },
];
