import type { MetaDescriptor } from "react-router";
import { getRoute } from "../../core/index.ts";

export const DEFAULT_PRODUCT_NAME = "Lumen Hub";

interface MatchLike {
  id: string;
  loaderData?: unknown;
}

interface MetaArgsLike {
  matches: ReadonlyArray<MatchLike | undefined>;
}

/** The product name from the root loader's public config, else the default. */
export function productNameFrom(args: MetaArgsLike): string {
  const root = args.matches.find((m) => m?.id === "root")?.loaderData as
    | { config?: { productName?: string } }
    | undefined;
  return root?.config?.productName || DEFAULT_PRODUCT_NAME;
}

/** "<Screen> · Lumen Hub" and a description. */
export function screenMeta(args: MetaArgsLike, title: string, description: string): MetaDescriptor[] {
  return [{ title: `${title} · ${productNameFrom(args)}` }, { name: "description", content: description }];
}

/** Title and description of a registry route ("Profile · Lumen Hub"), read from core's registry. */
export function registryMeta(args: MetaArgsLike, path: string, description?: string): MetaDescriptor[] {
  const route = getRoute(path);
  return screenMeta(args, route.label, description ?? route.description);
}
