import { ChildCards, FeatureScreen } from "../../components/feature-screen.tsx";
import { registryMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = (args) => registryMeta(args, "/super-admin");

export default function SuperAdminIndex() {
  return (
    <FeatureScreen
      path="/super-admin"
      purpose="Configuration, security and infrastructure of this installation. Only super administrators (the app owner) see these pages."
      coming="changing settings from these pages; today they show the live configuration and health."
    >
      <ChildCards path="/super-admin" />
    </FeatureScreen>
  );
}
