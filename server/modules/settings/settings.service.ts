/**
 * System settings and feature flags stored in the database (issue 14, /super-admin/system-config).
 *
 * - Values: the catalogue's defaults (core/system-settings.ts) overridden by `system_setting` rows.
 * - Read: platform administrators (`settings.read`); write: the platform owner only
 *   (`settings.manage`, scope `owner`). API keys and service tokens are refused.
 * - Write: every key validated against the catalogue (400 naming the key), all or nothing, with
 *   the optimistic `version` (the settings revision: 409 STALE_VERSION when another write came
 *   first), audited as `setting_changed` per changed key with from/to and the actor.
 * - Every process polls the revision (a primary-key read, `watch`) and reloads: the live values
 *   are written into the shared `flags` object in place, so `services.config.featureFlags`, the
 *   user context and every per-request check see a change within about a second, without a restart.
 */
import type { Kysely } from "kysely";
import {
  adminAccess,
  defaultSettings,
  featureFlagsOf,
  type SettingDefinition,
  type SettingValue,
  SYSTEM_SETTINGS,
  settingDefinition,
  validateSettingValue,
} from "../../../core/index.ts";
import type { DB } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { BadInputError, ForbiddenError, StaleVersionError, UnauthenticatedError } from "../../errors.ts";
import { serialCheck } from "../../serial-check.ts";
import type { Actor } from "../actor.ts";
import { createAuditRepo } from "../audit/audit.repo.ts";
import { bumpContentRevision } from "../content/content-revision.ts";

export interface EnvironmentRow {
  name: string;
  value: string;
}

export interface SettingView {
  key: string;
  value: SettingValue;
  /** True when no stored value overrides the default. */
  isDefault: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
}

export interface SettingsView {
  /** The settings revision: send it back as `version` with a change. */
  version: number;
  catalogue: readonly SettingDefinition[];
  settings: SettingView[];
  /** Read-only: what the environment decides at start-up (never secrets). */
  environment: EnvironmentRow[];
  /** Whether the asking administrator may change settings (the platform owner). */
  canManage: boolean;
}

export interface SettingsServiceDeps {
  db: Kysely<DB>;
  /** The live feature flags object shared with config, identity and diagnostics: updated in place. */
  flags: Record<string, boolean>;
  environment: EnvironmentRow[];
  now?: () => number;
}

interface Stored {
  revision: number;
  rows: Map<string, { value: SettingValue; updatedAt: string; updatedBy: string | null }>;
}

function requireAccess(actor: Actor, operation: "settings.read" | "settings.manage"): string {
  if (actor.kind === "visitor") throw new UnauthenticatedError("Sign in first.");
  if (actor.kind !== "user" || !actor.userId) {
    throw new ForbiddenError("System settings are for a signed-in administrator; API keys are refused.");
  }
  const decision = adminAccess(operation, actor.access);
  if (decision.kind === "denied") {
    if (decision.reason === "auth") throw new UnauthenticatedError(decision.message);
    throw new ForbiddenError(decision.message);
  }
  return actor.userId;
}

async function readRevision(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom("system_setting_revision")
    .select("revision")
    .where("id", "=", 1)
    .executeTakeFirst();
  return Number(row?.revision ?? 0);
}

async function readStored(db: Kysely<DB>): Promise<Stored> {
  const revision = await readRevision(db);
  const rows = await db.selectFrom("system_setting").selectAll().execute();
  const map: Stored["rows"] = new Map();
  for (const row of rows) {
    const def = settingDefinition(row.key);
    if (!def) continue; // a setting removed from the catalogue: ignored
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.value);
    } catch {
      continue;
    }
    const check = validateSettingValue(def, parsed);
    if (!check.ok) continue; // a stored value the catalogue no longer allows: the default applies
    map.set(row.key, { value: check.value, updatedAt: row.updatedAt, updatedBy: row.updatedBy });
  }
  return { revision, rows: map };
}

export function createSettingsService(deps: SettingsServiceDeps) {
  const { db, flags } = deps;
  const now = deps.now ?? Date.now;
  let current: Record<string, SettingValue> = defaultSettings();
  let loadedRevision: number | null = null;

  function apply(stored: Stored) {
    const values = defaultSettings();
    for (const [key, row] of stored.rows) values[key] = row.value;
    current = values;
    Object.assign(flags, featureFlagsOf(values));
    loadedRevision = stored.revision;
  }

  async function reload(): Promise<void> {
    apply(await readStored(db));
  }

  /** Reloads when the revision moved since the last load (any process wrote). */
  async function check(): Promise<void> {
    const revision = await readRevision(db);
    if (revision !== loadedRevision) await reload();
  }

  function view(stored: Stored, canManage: boolean): SettingsView {
    return {
      version: stored.revision,
      catalogue: SYSTEM_SETTINGS,
      settings: SYSTEM_SETTINGS.map((def) => {
        const row = stored.rows.get(def.key);
        return {
          key: def.key,
          value: row ? row.value : def.default,
          isDefault: !row,
          updatedAt: row?.updatedAt ?? null,
          updatedBy: row?.updatedBy ?? null,
        };
      }),
      environment: deps.environment.map((r) => ({ ...r })),
      canManage,
    };
  }

  return {
    /** The live value of a setting in this process (defaults until the first load). */
    value(key: string): SettingValue | undefined {
      return current[key];
    },

    /** Whether a feature flag is on in this process now. */
    enabled(flag: string): boolean {
      return current[flag] === true;
    },

    reload,

    check,

    /** Polls the revision every `intervalMs` (unref'd timer); errors are reported, polling goes on. */
    watch(options: {
      intervalMs: number;
      onError?(error: unknown): void;
      /** Records each poll in the background jobs registry (/super-admin/infrastructure). */
      track?: <T>(pass: () => Promise<T>) => Promise<T>;
    }): { stop(): void; check(): Promise<void> } {
      const run = async () => {
        try {
          await (options.track ?? ((pass) => pass()))(check);
        } catch (error) {
          options.onError?.(error);
        }
      };
      // One read at a time; a tick asked for while one runs waits for it and reads once more.
      const tick = serialCheck(run);
      const timer = setInterval(() => void tick(), options.intervalMs);
      timer.unref();
      // `check`: at once, when a notification says the revision moved (decision 032).
      return { stop: () => clearInterval(timer), check: tick };
    },

    /** Refuses anyone but the platform owner (before a request body is read). */
    requireManager(actor: Actor): string {
      return requireAccess(actor, "settings.manage");
    },

    async read(actor: Actor): Promise<SettingsView> {
      requireAccess(actor, "settings.read");
      const canManage = adminAccess("settings.manage", actor.access).kind === "allowed";
      const stored = await readStored(db);
      return view(stored, canManage);
    },

    /** `{ <key>: value, …, version }`: all validated first, then written together or not at all. */
    async update(actor: Actor, body: Record<string, unknown>, meta: { ip?: string | null } = {}) {
      const userId = requireAccess(actor, "settings.manage");
      const { version, ...changes } = body;
      if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
        throw new BadInputError("version: expected the settings version you read (a whole number)", {
          field: { version: "expected the settings version you read (a whole number)" },
        });
      }
      const keys = Object.keys(changes);
      if (keys.length === 0) {
        throw new BadInputError("Nothing to change: send at least one setting.", {
          field: { settings: "expected at least one setting" },
        });
      }
      const field: Record<string, string> = {};
      const valid: Record<string, SettingValue> = {};
      for (const key of keys) {
        const def = settingDefinition(key);
        if (!def) {
          field[key] = "not a setting that can be changed here";
          continue;
        }
        const check = validateSettingValue(def, changes[key]);
        if (check.ok) valid[key] = check.value;
        else field[key] = check.message;
      }
      const bad = Object.keys(field);
      if (bad.length > 0) {
        const first = bad[0] as string;
        throw new BadInputError(`${first}: ${field[first]}`, { field });
      }

      const at = new Date(now()).toISOString();
      await inTransaction(db, async (trx) => {
        const bumped = await trx
          .updateTable("system_setting_revision")
          .set((eb) => ({ revision: eb("revision", "+", 1) }))
          .where("id", "=", 1)
          .where("revision", "=", version)
          .executeTakeFirst();
        if (Number(bumped.numUpdatedRows) !== 1) {
          throw new StaleVersionError(
            "Someone changed the settings since you opened them. Reload to see their change, then make yours again.",
          );
        }
        const revision = version + 1;
        const before = await readStored(trx);
        let changed = 0;
        for (const [key, value] of Object.entries(valid)) {
          const def = settingDefinition(key) as SettingDefinition;
          const from = before.rows.get(key)?.value ?? def.default;
          if (from === value) continue;
          const row = { value: JSON.stringify(value), updatedAt: at, updatedBy: userId, version: revision };
          await trx
            .insertInto("system_setting")
            .values({ key, ...row })
            .onConflict((oc) => oc.column("key").doUpdateSet(row))
            .execute();
          changed += 1;
          await createAuditRepo(trx).append({
            action: "setting_changed",
            actorId: userId,
            targetType: "setting",
            targetId: key,
            ip: meta.ip ?? null,
            details: { key, from, to: value },
            at,
          });
        }
        // Pages cached for visitors show the flags (the search box): every process drops them.
        if (changed > 0) await bumpContentRevision(trx);
      });
      const stored = await readStored(db);
      apply(stored); // this process at once; the others on their next poll
      return view(stored, true);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
