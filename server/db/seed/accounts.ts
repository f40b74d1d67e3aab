/**
 * The demo accounts of the runtime contract. Their tier and roles come from real rows
 * (group memberships and subscriptions) written by the seed, not from special cases in code.
 */
export const DEMO_PASSWORD = "Demo-Passw0rd!";

export type DemoTier = "free" | "basic" | "pro" | "enterprise" | "business";

export interface DemoAccount {
  key: "free" | "basic" | "pro" | "enterprise" | "business" | "manager" | "admin" | "owner" | "writer";
  email: string;
  username: string;
  name: string;
  accountType: "individual" | "business";
  groups: string[];
  subscriptionTier: DemoTier;
  description: string;
  /**
   * Staff accounts only: the published TOTP secret (base32) enrolled at seed, so the demo works
   * with any authenticator app (staff rights need a second factor, decision 012). Demo data only.
   */
  totpSecret?: string;
  /** Staff accounts only: published single-use backup codes enrolled with the secret. */
  backupCodes?: string[];
}

/** The published backup codes of a demo staff account: `<key>-backup-1` … `<key>-backup-5`. */
export function demoBackupCodes(key: string): string[] {
  return [1, 2, 3, 4, 5].map((n) => `${key}-backup-${n}`);
}

export const DEMO_ORGANIZATION = { slug: "acme", name: "Acme Learning Co." } as const;

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    key: "free",
    email: "free@demo.local",
    username: "free",
    name: "Fran Free",
    accountType: "individual",
    groups: ["individual-free"],
    subscriptionTier: "free",
    description: "Free plan",
  },
  {
    key: "basic",
    email: "basic@demo.local",
    username: "basic",
    name: "Bailey Basic",
    accountType: "individual",
    groups: ["individual-basic"],
    subscriptionTier: "basic",
    description: "Basic plan",
  },
  {
    key: "pro",
    email: "pro@demo.local",
    username: "pro",
    name: "Priya Pro",
    accountType: "individual",
    groups: ["individual-pro"],
    subscriptionTier: "pro",
    description: "Pro plan",
  },
  {
    key: "enterprise",
    email: "enterprise@demo.local",
    username: "enterprise",
    name: "Erin Enterprise",
    accountType: "individual",
    groups: ["individual-legend"],
    subscriptionTier: "enterprise",
    description: "Enterprise plan",
  },
  {
    key: "business",
    email: "business@demo.local",
    username: "business",
    name: "Bo Business",
    accountType: "business",
    groups: [`org-${DEMO_ORGANIZATION.slug}`, `org-${DEMO_ORGANIZATION.slug}-admin`, "Business"],
    subscriptionTier: "business",
    description: `Business account, admin of ${DEMO_ORGANIZATION.name}`,
    totpSecret: "LUMENBUSINESS222",
    backupCodes: demoBackupCodes("business"),
  },
  {
    key: "manager",
    email: "manager@demo.local",
    username: "manager",
    name: "Morgan Manager",
    accountType: "individual",
    groups: ["individual-pro", "ContentManager"],
    subscriptionTier: "pro",
    description: "Content manager (Pro plan)",
    totpSecret: "LUMENMANAGER2222",
    backupCodes: demoBackupCodes("manager"),
  },
  {
    key: "admin",
    email: "admin@demo.local",
    username: "admin",
    name: "Ada Admin",
    accountType: "individual",
    groups: ["app-admin"],
    subscriptionTier: "enterprise",
    description: "Administrator (app-admin)",
    totpSecret: "LUMENADMIN222222",
    backupCodes: demoBackupCodes("admin"),
  },
  {
    key: "owner",
    email: "owner@demo.local",
    username: "owner",
    name: "Olive Owner",
    accountType: "individual",
    groups: ["app-owner"],
    subscriptionTier: "enterprise",
    description: "Super administrator (app-owner)",
    totpSecret: "LUMENOWNER222222",
    backupCodes: demoBackupCodes("owner"),
  },
  {
    key: "writer",
    email: "writer@demo.local",
    username: "writer",
    name: "Wren Writer",
    accountType: "individual",
    groups: ["individual-free", "ContentCreator"],
    subscriptionTier: "free",
    description: "Content creator: writes and submits for review, cannot publish (Free plan)",
    totpSecret: "LUMENWRITER22222",
    backupCodes: demoBackupCodes("writer"),
  },
];

/** The demo account with this e-mail address (case-insensitive), if any. */
export function demoAccountByEmail(email: string): DemoAccount | undefined {
  const e = email.trim().toLowerCase();
  return DEMO_ACCOUNTS.find((a) => a.email === e);
}
