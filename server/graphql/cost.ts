/**
 * The cost of a GraphQL operation for the rate limits (decision 014): about the number of
 * objects it may return. Every field with a selection costs 1; a field with a `limit` argument
 * (the paginated lists) multiplies what is selected inside it by its page size (the argument, or
 * the default page size; a size outside 1…maxPageSize is named in `badPageSizes`, and the
 * operation is refused); scalars are free. A mutation field costs
 * MUTATION_WEIGHT more. So `listContents(limit: 100) { items { slug } }` costs 101, fifteen aliases
 * of it 1,515, and a list nested in a list multiplies.
 */
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import { GRAPHQL_LIMITS } from "./limits.ts";

/** Extra cost of each mutation field (writes weigh more than reads). */
export const MUTATION_WEIGHT = 10;
const MAX_WALK_DEPTH = 32;

export interface OperationCost {
  cost: number;
  /** Names of the mutation fields requested (aliases counted once each). */
  mutationFields: string[];
  /**
   * Paginated fields asked for a page size outside 1…GRAPHQL_LIMITS.maxPageSize (as
   * `field (given n)`): the operation is refused before it runs (`yoga.ts`).
   */
  badPageSizes: string[];
}

/** The page size a `limit` argument asks for (the default when absent or null). */
function requestedPageSize(value: ValueNode | undefined, variables: Record<string, unknown>): unknown {
  if (!value || value.kind === Kind.NULL) return GRAPHQL_LIMITS.defaultPageSize;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) return variables[value.name.value] ?? GRAPHQL_LIMITS.defaultPageSize;
  // Any other literal is a type error GraphQL validation already reports.
  return GRAPHQL_LIMITS.defaultPageSize;
}

const validPageSize = (n: unknown): n is number =>
  typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= GRAPHQL_LIMITS.maxPageSize;

export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): OperationCost {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const mutationFields: string[] = [];
  const badPageSizes: string[] = [];
  const root =
    operation.operation === "mutation"
      ? schema.getMutationType()
      : operation.operation === "subscription"
        ? schema.getSubscriptionType()
        : schema.getQueryType();

  function walk(
    set: SelectionSetNode,
    type: GraphQLNamedType | null | undefined,
    depth: number,
    path: ReadonlySet<string>,
  ): number {
    if (depth > MAX_WALK_DEPTH) return 0;
    const fields = type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields() : {};
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (depth === 0 && operation.operation === "mutation" && !name.startsWith("__")) {
          mutationFields.push(name);
          total += MUTATION_WEIGHT;
        }
        if (!selection.selectionSet) continue;
        const definition = fields[name];
        const paged = definition?.args.some((arg) => arg.name === "limit") ?? false;
        let n = 1;
        if (paged) {
          const asked = requestedPageSize(
            selection.arguments?.find((arg) => arg.name.value === "limit")?.value,
            variables,
          );
          if (validPageSize(asked)) n = asked;
          else {
            badPageSizes.push(`${name} (given ${JSON.stringify(asked)})`);
            n = GRAPHQL_LIMITS.maxPageSize;
          }
        }
        const inner = walk(
          selection.selectionSet,
          definition ? getNamedType(definition.type) : null,
          depth + 1,
          path,
        );
        total += 1 + n * inner;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        total += walk(selection.selectionSet, on, depth, path);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || path.has(name)) continue;
        const on = schema.getType(fragment.typeCondition.name.value);
        total += walk(fragment.selectionSet, on, depth, new Set([...path, name]));
      }
    }
    return total;
  }

  const cost = walk(operation.selectionSet, root, 0, new Set());
  return { cost: Math.max(1, cost), mutationFields, badPageSizes };
}
