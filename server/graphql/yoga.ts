/**
 * The data API's GraphQL Yoga instance: the schema, error masking with our codes, the limits
 * (graphql-armor: depth, cost, aliases, directives, tokens; field suggestions blocked in
 * production), introspection and GraphiQL off in production, the mutation gate (who may write
 * at all, and the CSRF check for cookie sessions) and `extensions.apiVersion` on every response.
 */
import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import { type ExecutionResult, getOperationAST, Kind, NoSchemaIntrospectionCustomRule } from "graphql";
import { createYoga, type GraphiQLOptions, type Plugin } from "graphql-yoga";
import type { Logger } from "pino";
import { rateLimitMessage } from "../modules/rate-limits/rate-limits.ts";
import type { GraphQLContext, GraphQLServerContext } from "./context.ts";
import { operationCost } from "./cost.ts";
import { gqlError, maskError, withVariableErrorCode } from "./errors.ts";
import { API_VERSION, GRAPHQL_LIMITS } from "./limits.ts";
import { createLoaders } from "./loaders.ts";
import { schema } from "./schema.ts";

export type GraphQLMode = "production" | "development" | "test";

/** Why the caller may not run a mutation at all, or null (the services then apply the rules). */
export function mutationRefusal(ctx: GraphQLServerContext) {
  switch (ctx.identity.kind) {
    case "visitor":
      return gqlError("UNAUTHENTICATED", "Sign in (a session or a bearer ID token) to make changes.");
    case "api-key":
      return gqlError(
        "FORBIDDEN",
        "API keys are read only: use a session or a bearer ID token to make changes.",
      );
    case "service":
      return gqlError("FORBIDDEN", "Service credentials are read only.");
    case "session":
      return ctx.sameOrigin
        ? null
        : gqlError("FORBIDDEN", "This request did not come from this site, so it was refused.");
    case "bearer":
      return null;
  }
}

const mutationGate: Plugin = {
  onExecute({ args, setResultAndStopExecution }) {
    const operation = getOperationAST(args.document, args.operationName);
    if (operation?.operation !== "mutation") return;
    const refusal = mutationRefusal(args.contextValue as unknown as GraphQLContext);
    if (refusal) setResultAndStopExecution({ errors: [refusal] });
  },
};

/** Comment-creating mutation fields: also charged to the stricter comment limit. */
const COMMENT_MUTATIONS = new Set(["createComment"]);

/**
 * The operation's page sizes and cost (`cost.ts`): a `limit` outside 1…maxPageSize, or a cost
 * above GRAPHQL_LIMITS.maxRows → BAD_USER_INPUT before it runs; otherwise charged with its mutation fields (writes) and comments to the caller's rate
 * limits (decision 014) → RATE_LIMITED when they are used up.
 */
const costPlugin: Plugin = {
  async onExecute({ args, setResultAndStopExecution }) {
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return;
    const { cost, mutationFields, badPageSizes } = operationCost(
      args.schema,
      args.document,
      operation,
      (args.variableValues ?? {}) as Record<string, unknown>,
    );
    if (badPageSizes.length > 0) {
      setResultAndStopExecution({
        errors: [
          gqlError(
            "BAD_USER_INPUT",
            `limit must be a whole number from 1 to ${GRAPHQL_LIMITS.maxPageSize} (default ${GRAPHQL_LIMITS.defaultPageSize}): ${badPageSizes.join(", ")}.`,
          ),
        ],
      });
      return;
    }
    if (cost > GRAPHQL_LIMITS.maxRows) {
      setResultAndStopExecution({
        errors: [
          gqlError(
            "BAD_USER_INPUT",
            `This operation may return about ${cost} objects; one request may ask for at most ${GRAPHQL_LIMITS.maxRows}. Ask for smaller pages or fewer lists.`,
          ),
        ],
      });
      return;
    }
    const rateLimit = (args.contextValue as unknown as GraphQLContext).rateLimit;
    if (!rateLimit) return;
    const comments = mutationFields.filter((name) => COMMENT_MUTATIONS.has(name)).length;
    const units = { graphqlCost: cost, write: mutationFields.length, comment: comments };
    rateLimit.charged = {
      ...units,
      operation: operation.operation,
      rootFields: operation.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : "*")),
    };
    const verdict = await rateLimit.charge(units);
    rateLimit.verdict = verdict;
    if (!verdict.ok) {
      const error = gqlError("RATE_LIMITED", rateLimitMessage(verdict));
      error.extensions.retryAfter = verdict.retryAfterS;
      setResultAndStopExecution({ errors: [error] });
    }
  },
};

const withApiVersion = (result: ExecutionResult): ExecutionResult => ({
  ...result,
  ...(result.errors ? { errors: result.errors.map(withVariableErrorCode) } : {}),
  extensions: { ...(result.extensions ?? {}), apiVersion: API_VERSION },
});

/** `extensions.apiVersion` on every response (results, errors, parse failures); a code on variable errors. */
const apiVersionPlugin: Plugin = {
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result)) setResult(result.map(withApiVersion));
    else if (result && typeof result === "object" && !(Symbol.asyncIterator in result)) {
      setResult(withApiVersion(result as ExecutionResult));
    }
  },
};

const noIntrospection: Plugin = {
  onValidate({ addValidationRule }) {
    addValidationRule(NoSchemaIntrospectionCustomRule);
  },
};

/**
 * GraphiQL from `@graphql-yoga/render-graphiql`, which inlines the whole IDE (Yoga's default page
 * loads it from a CDN, which an offline machine cannot reach). A development dependency, loaded on
 * first use; without it the page says how to query instead.
 */
export async function renderLocalGraphiQL(options: GraphiQLOptions): Promise<string> {
  try {
    const { renderGraphiQL } = await import("@graphql-yoga/render-graphiql");
    return renderGraphiQL(options);
  } catch {
    return '<!doctype html><html lang="en"><meta charset="utf-8"><title>GraphQL</title><p>GraphiQL is a development dependency and is not installed here. Send queries with POST to /graphql.</p></html>';
  }
}

export const GRAPHIQL_DEFAULT_QUERY = `# The Lumen Hub data API (version 1.4). Signed-in requests use your session.
# Docs: docs/api/graphql.md
query Latest {
  apiVersion
  listContentBySectionAndPublishedAt(section: "ai-news", sortDirection: DESC, limit: 5) {
    items { slug title tier }
    nextToken
  }
}
`;

export function createGraphQLYoga(options: { mode: GraphQLMode; logger?: Pick<Logger, "error"> }) {
  const production = options.mode === "production";
  return createYoga<GraphQLServerContext>({
    schema,
    graphqlEndpoint: "/graphql",
    graphiql: production
      ? false
      : {
          title: "Lumen Hub data API",
          defaultQuery: GRAPHIQL_DEFAULT_QUERY,
        },
    renderGraphiQL: renderLocalGraphiQL,
    landingPage: false,
    logging: false,
    batching: false,
    maskedErrors: {
      maskError: (error, message) =>
        maskError(error, message, (err) => options.logger?.error({ err }, "graphql: unexpected error")),
    },
    context: ({ services, actor }) => ({ loaders: createLoaders(services, actor) }),
    plugins: [
      EnvelopArmorPlugin({
        maxDepth: { n: GRAPHQL_LIMITS.maxDepth },
        costLimit: { maxCost: GRAPHQL_LIMITS.maxCost },
        maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
        maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
        maxTokens: { n: GRAPHQL_LIMITS.maxTokens },
        blockFieldSuggestion: { enabled: production },
      }),
      ...(production ? [noIntrospection] : []),
      mutationGate,
      costPlugin,
      apiVersionPlugin,
    ],
  });
}

export type GraphQLYoga = ReturnType<typeof createGraphQLYoga>;
