/**
 * ID-token claims of the demo personas, for core's unit tests (not exported from index.ts).
 * They mirror the demo accounts of DESIGN.md; manager, admin and owner carry no tier claim, so they
 * are on the Free plan (staff roles and plan tiers are separate axes).
 */
import {
  type AccessContext,
  buildUserContext,
  type Claims,
  toAccessContext,
  VISITOR_ACCESS_CONTEXT,
} from "./claims.ts";

export const PERSONA_NAMES = [
  "visitor",
  "free",
  "basic",
  "pro",
  "enterprise",
  "business",
  "manager",
  "admin",
  "owner",
  "writer",
] as const;
export type PersonaName = (typeof PERSONA_NAMES)[number];

export const PERSONA_CLAIMS: Readonly<Record<Exclude<PersonaName, "visitor">, Claims>> = {
  free: {
    sub: "0f8e7d6c-free-4000-8000-000000000001",
    email: "free@demo.local",
    given_name: "Frida",
    "cognito:username": "free",
    "cognito:groups": ["individual-free"],
    "custom:tier": "free",
    "custom:account_type": "individual",
    exp: 2_000_000_000,
  },
  basic: {
    sub: "1a2b3c4d-basic-4000-8000-000000000002",
    email: "basic@demo.local",
    given_name: "Basil",
    "cognito:groups": ["individual-basic"],
    "custom:tier": "basic",
    "custom:account_type": "individual",
  },
  pro: {
    sub: "2b3c4d5e-pro-4000-8000-000000000003",
    email: "pro@demo.local",
    given_name: "Prue",
    "cognito:groups": ["individual-pro"],
    "custom:tier": "pro",
    "custom:account_type": "individual",
  },
  enterprise: {
    sub: "3c4d5e6f-ent-4000-8000-000000000004",
    email: "enterprise@demo.local",
    given_name: "Enzo",
    "custom:tier": "enterprise",
    "custom:account_type": "individual",
  },
  business: {
    sub: "4d5e6f70-biz-4000-8000-000000000005",
    email: "business@demo.local",
    given_name: "Bea",
    "cognito:groups": ["org-acme", "org-acme-admin", "Business"],
    "custom:tier": "business",
    "custom:account_type": "business",
    "custom:org_name": "Acme Ltd",
    "custom:org_role": "admin",
    "custom:tenant_id": "acme",
  },
  manager: {
    sub: "5e6f7081-mgr-4000-8000-000000000006",
    email: "manager@demo.local",
    given_name: "Manon",
    "cognito:groups": ["ContentManager"],
  },
  admin: {
    sub: "6f708192-adm-4000-8000-000000000007",
    email: "admin@demo.local",
    given_name: "Ada",
    "cognito:groups": ["app-admin"],
  },
  owner: {
    sub: "708192a3-own-4000-8000-000000000008",
    email: "owner@demo.local",
    given_name: "Owen",
    "cognito:groups": ["app-owner"],
  },
  writer: {
    sub: "8192a3b4-wri-4000-8000-000000000009",
    email: "writer@demo.local",
    given_name: "Wren",
    "cognito:groups": ["individual-free", "ContentCreator"],
    "custom:tier": "free",
    "custom:account_type": "individual",
  },
};

export function personaAccess(name: PersonaName): AccessContext {
  if (name === "visitor") return VISITOR_ACCESS_CONTEXT;
  return toAccessContext(buildUserContext(PERSONA_CLAIMS[name]));
}

export const PERSONAS: Readonly<Record<PersonaName, AccessContext>> = Object.fromEntries(
  PERSONA_NAMES.map((n) => [n, personaAccess(n)]),
) as Record<PersonaName, AccessContext>;
