/**
 * TypeScript types for the client's GraphQL operations, generated from the schema (decision 034):
 * each named operation of an operations file is validated against the schema (an operation the
 * schema no longer answers stops generation) and becomes a typed document for
 * `graphqlRequest` (`app/lib/graphql-client.ts`): its result type, its variables type and its
 * source. No code generator dependency: graphql-js reads the schema and the operations.
 *
 * Supported: fields, aliases, `__typename`, lists, non-null, scalars, enums, input objects.
 * Fragments are refused (write the fields out).
 */
import {
  type FieldNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  type SelectionSetNode,
  typeFromAST,
  validate,
} from "graphql";

/** Custom scalars as the JSON answers carry them. */
const SCALARS: Record<string, string> = {
  String: "string",
  ID: "string",
  Int: "number",
  Float: "number",
  Boolean: "boolean",
  DateTime: "string",
  JSON: "unknown",
  File: "Blob",
};

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

export interface OperationTypesOptions {
  /** Where the generated file imports `graphql` from (the client module). */
  clientImport: string;
  /** The operations file's path, named in the header. */
  sourceName: string;
}

/** The generated module for the operations in `source`. */
export function operationTypes(
  schema: GraphQLSchema,
  source: string,
  options: OperationTypesOptions,
): string {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length > 0) {
    throw new Error(
      `${options.sourceName} does not match the schema:\n${errors.map((e) => `- ${e.message}`).join("\n")}`,
    );
  }
  const inputs = new Map<string, string>();
  const scalar = (type: GraphQLNamedType) => SCALARS[type.name] ?? "unknown";

  const enumUnion = (type: GraphQLNamedType) =>
    isEnumType(type)
      ? type
          .getValues()
          .map((v) => JSON.stringify(v.name))
          .join(" | ")
      : scalar(type);

  function inputType(type: GraphQLInputType): string {
    if (isNonNullType(type)) return inputType(type.ofType);
    if (isListType(type)) return `Array<${nullableInput(type.ofType)}>`;
    const named = getNamedType(type);
    if (isInputObjectType(named)) {
      if (!inputs.has(named.name)) {
        inputs.set(named.name, ""); // reserved first: input types may refer to themselves
        const fields = Object.values(named.getFields()).map(
          (f) => `  ${f.name}${isNonNullType(f.type) ? "" : "?"}: ${nullableInput(f.type)};`,
        );
        inputs.set(named.name, `export interface ${named.name} {\n${fields.join("\n")}\n}`);
      }
      return named.name;
    }
    return enumUnion(named);
  }
  const nullableInput = (type: GraphQLInputType): string =>
    isNonNullType(type) ? inputType(type) : `${inputType(type)} | null`;

  function outputType(type: GraphQLOutputType, field: FieldNode, depth: number): string {
    if (isNonNullType(type)) return outputInner(type.ofType, field, depth);
    return `${outputInner(type, field, depth)} | null`;
  }
  function outputInner(type: GraphQLOutputType, field: FieldNode, depth: number): string {
    if (isNonNullType(type)) return outputInner(type.ofType, field, depth);
    if (isListType(type)) return `Array<${outputType(type.ofType, field, depth)}>`;
    const named = getNamedType(type);
    if (isScalarType(named) || isEnumType(named)) return enumUnion(named);
    if (!isObjectType(named) || !field.selectionSet) {
      throw new Error(`${field.name.value}: abstract types and fragments are not supported here`);
    }
    return selectionType(named.name, field.selectionSet, depth + 1);
  }
  function selectionType(typeName: string, selections: SelectionSetNode, depth: number): string {
    const parent = schema.getType(typeName);
    if (!isObjectType(parent)) throw new Error(`${typeName} is not an object type`);
    const pad = "  ".repeat(depth);
    const lines: string[] = [];
    for (const selection of selections.selections) {
      if (selection.kind !== Kind.FIELD) {
        throw new Error(`${typeName}: fragments are not supported in the client's operations`);
      }
      const key = selection.alias?.value ?? selection.name.value;
      if (selection.name.value === "__typename") {
        lines.push(`${pad}  ${key}: ${JSON.stringify(typeName)};`);
        continue;
      }
      const field = parent.getFields()[selection.name.value]!;
      lines.push(`${pad}  ${key}: ${outputType(field.type, selection, depth)};`);
    }
    return `{\n${lines.join("\n")}\n${pad}}`;
  }

  const blocks: string[] = [];
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) {
      throw new Error(`${options.sourceName}: fragments are not supported; write the fields out`);
    }
    const operation = definition as OperationDefinitionNode;
    if (!operation.name) throw new Error(`${options.sourceName}: every operation needs a name`);
    const name = pascal(operation.name.value);
    const kind = pascal(operation.operation);
    const root = schema.getRootType(operation.operation);
    if (!root) throw new Error(`The schema has no ${operation.operation} type`);
    const variables = (operation.variableDefinitions ?? []).map((v) => {
      const type = typeFromAST(schema, v.type) as GraphQLInputType;
      const optional = !isNonNullType(type) || v.defaultValue !== undefined;
      return `  ${v.variable.name.value}${optional ? "?" : ""}: ${nullableInput(type)};`;
    });
    const resultName = `${name}${kind}`;
    blocks.push(
      [
        `/** The result of \`${operation.operation} ${operation.name.value}\`. */`,
        `export interface ${resultName} ${selectionType(root.name, operation.selectionSet, 0)}`,
        "",
        variables.length
          ? `export interface ${resultName}Variables {\n${variables.join("\n")}\n}`
          : `export type ${resultName}Variables = Record<string, never>;`,
        "",
        `export const ${name}Document = graphql<${resultName}, ${resultName}Variables>(`,
        `  ${JSON.stringify(print(operation))},`,
        ");",
      ].join("\n"),
    );
  }
  return [
    `// Generated by \`npm run api:generate\` from ${options.sourceName} and the GraphQL schema`,
    "// (docs/api/schema.graphql). Do not edit: change the operations and regenerate.",
    `import { graphql } from ${JSON.stringify(options.clientImport)};`,
    "",
    ...[...inputs.values()].map((block) => `${block}\n`),
    blocks.join("\n\n"),
    "",
  ].join("\n");
}
