/**
 * Sign-up: the accepted fields and their rules (password policy included), the phone number
 * kept as unverified, the notice to the owner of an e-mail address already in use, the free tier
 * every new account starts on, the organisation of a business sign-up, and the audit row.
 *
 * Business sign-up (`account: "business"`, `organizationName`): once Better Auth has created the
 * account, `createOrganizationFor` creates the organisation with the account as its admin in one
 * transaction (organisation row, its groups, memberships, account type business, audit row
 * `org_created`). Should that transaction fail, nothing of the organisation exists and the
 * account stays a plain individual one; `/business/start` (where a business sign-up lands)
 * offers to create the organisation again.
 */
import { APIError } from "better-auth/api";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { GROUP_PRECEDENCE } from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { createOrganizationFor } from "../../modules/organizations/organizations.service.ts";
import { createSubscriptionsRepo } from "../../modules/subscriptions/subscriptions.repo.ts";
import { createUsersRepo } from "../../modules/users/users.repo.ts";
import type { OtpCooldown } from "../otp-cooldown.ts";
import { newPasswordProblem } from "../password-policy.ts";
import type { SecurityAudit } from "../security-audit.ts";
import { keepUnverifiedPhone } from "../user-attributes.ts";
import { FORBIDDEN_INPUT_FIELDS, fieldErrorMessage, signUpSchema } from "../validation.ts";
import { type AuthHookContext, bodyOf, ipOf, str } from "./context.ts";
import type { HookTable } from "./registry.ts";

export const SIGN_UP_PATH = "/sign-up/email";

export interface SignUpDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  audit: SecurityAudit;
  cooldown: OtpCooldown;
  now: () => number;
  logger?: Logger;
}

export function createSignUpHooks({ db, mailer, audit, cooldown, now, logger }: SignUpDeps) {
  /** Per-request phone number given at sign-up, from the before hook to the after hook. */
  const signUpPhones = new WeakMap<Headers, string>();
  /** Per-request organisation name of a business sign-up, from the before hook to the after hook. */
  const signUpOrganizations = new WeakMap<Headers, string>();

  async function before(ctx: AuthHookContext) {
    const body = bodyOf(ctx.body);
    const forbidden = Object.keys(body).filter((k) => FORBIDDEN_INPUT_FIELDS.has(k));
    if (forbidden.length) {
      throw new APIError("BAD_REQUEST", {
        code: "FIELD_NOT_ALLOWED",
        message: `These fields cannot be set: ${forbidden.join(", ")}`,
        fields: Object.fromEntries(forbidden.map((f) => [f, `${f} cannot be set`])),
      });
    }
    const parsed = signUpSchema.safeParse(body);
    const fields: Record<string, string> = {};
    for (const issue of parsed.error?.issues ?? []) {
      const field = String(issue.path[0] ?? "body");
      fields[field] ??= fieldErrorMessage(field, issue);
    }
    if (!fields.password) {
      const problem = await newPasswordProblem(body.password);
      if (problem) fields.password = problem;
    }
    if (!parsed.success || fields.password) {
      throw new APIError("BAD_REQUEST", {
        code: "VALIDATION_ERROR",
        message: Object.values(fields).join(" "),
        fields,
      });
    }
    // The number given here is kept as the account's unverified phone (after the account is
    // created); it becomes the verified one only by SMS in /settings (decision 016).
    const phone = body.phoneNumber === undefined ? {} : { phoneNumber: "" };
    if (parsed.data.phoneNumber && ctx.headers) signUpPhones.set(ctx.headers, parsed.data.phoneNumber);
    if (parsed.data.account === "business" && parsed.data.organizationName && ctx.headers) {
      signUpOrganizations.set(ctx.headers, parsed.data.organizationName);
    }
    // The account choice and organisation name are ours, not user fields: Better Auth never sees them.
    const { account: _account, organizationName: _organizationName, ...rest } = body;
    return {
      context: {
        body: { ...rest, ...phone, email: parsed.data.email, username: parsed.data.username },
      },
    };
  }

  async function after(ctx: AuthHookContext) {
    const returned = ctx.context.returned;
    if (returned instanceof APIError) return;
    const id = bodyOf(bodyOf(returned).user).id;
    const created =
      typeof id === "string"
        ? await db.selectFrom("user").select("id").where("id", "=", id).executeTakeFirst()
        : undefined;
    if (!created) return;
    const phone = ctx.headers ? signUpPhones.get(ctx.headers) : undefined;
    if (phone) await keepUnverifiedPhone(db, created.id, phone);
    // Better Auth has just e-mailed the confirmation code: the resend cooldown starts now.
    await cooldown.markSent("email-verification", str(bodyOf(ctx.body).email));
    await audit.record("sign_up", {
      actorId: created.id,
      ip: ipOf(ctx.headers),
      targetType: "user",
      targetId: created.id,
    });
    const organizationName = ctx.headers ? signUpOrganizations.get(ctx.headers) : undefined;
    if (organizationName) {
      try {
        await createOrganizationFor(db, {
          userId: created.id,
          name: organizationName,
          domain: null,
          at: new Date(now()).toISOString(),
          ip: ipOf(ctx.headers),
          via: "sign-up",
        });
      } catch (error) {
        // Rolled back as a whole: the account is an individual one; /business/start offers the
        // organisation again. The sign-up itself succeeded (its code is already mailed).
        logger?.error(
          { err: error, userId: created.id },
          "business sign-up: creating the organisation failed",
        );
      }
    }
  }

  /** Sign-up with an existing e-mail answers like a new one; the owner gets a notice instead of a code. */
  async function existingAccountNotice(email: string) {
    await mailer.send({
      to: email,
      subject: "Someone tried to sign up with your e-mail address",
      text: "Someone tried to create a Lumen Hub account with this e-mail address, which already has an account.\n\nIf it was you, sign in instead (or reset your password). Otherwise you can ignore this e-mail.\n",
    });
  }

  /** Every new account starts on the free tier from real rows: group + active subscription. */
  async function startOnFreeTier(userId: string) {
    const users = createUsersRepo(db);
    await users.ensureGroups([{ name: "individual-free", precedence: GROUP_PRECEDENCE["individual-free"] }]);
    await users.addAll(userId, ["individual-free"]);
    const at = new Date(now()).toISOString();
    await createSubscriptionsRepo(db).create({
      userId,
      tier: "free",
      status: "active",
      source: "sign-up",
      startedAt: at,
      expiresAt: null,
    });
  }

  const table: HookTable = { before: { [SIGN_UP_PATH]: before }, after: { [SIGN_UP_PATH]: after } };
  return { table, existingAccountNotice, startOnFreeTier };
}
