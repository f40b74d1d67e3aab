import { useRouteLoaderData } from "react-router";
import type { PublicConfig } from "../../server/services.ts";
import { DEFAULT_PRODUCT_NAME } from "./meta.ts";

const FALLBACK: PublicConfig = {
  productName: DEFAULT_PRODUCT_NAME,
  tagline: "Education, Tools, Resources",
  publicUrl: "",
  version: "",
  environment: "",
  featureFlags: {},
};

/** The public configuration from the root loader (product name, tagline, version, feature flags). */
export function useAppConfig(): PublicConfig {
  const root = useRouteLoaderData("root") as { config?: PublicConfig } | undefined;
  return root?.config ?? FALLBACK;
}
