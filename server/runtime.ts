import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { getMigrations } from "better-auth/db/migration";
import type { Logger } from "pino";
import {
  type Claims,
  defaultSettings,
  featureFlagsOf,
  type SettingValue,
  type UserContext,
} from "../core/index.ts";
import { type ApiKeyService, createApiKeyService } from "./auth/api-keys.ts";
import { type Auth, type AuthSecurity, createAuth } from "./auth/auth.ts";
import { claimsForUser, createIdentity, type Identity } from "./auth/identity.ts";
import { createIdentityCache, type IdentityCacheStats, readIdentityRevision } from "./auth/identity-cache.ts";
import { createAuthSecurity } from "./auth/security.ts";
import { createServiceCredentials, type ServiceCredentials } from "./auth/service-credentials.ts";
import type { SessionRow } from "./auth/session-guard.ts";
import { createTokenService, type TokenService } from "./auth/tokens.ts";
import { localIdTokenVerifier } from "./auth/tokens-verifiers.ts";
import { createDatabase, type Database } from "./db/database.ts";
import { migrateToLatest } from "./db/migrate.ts";
import { listenForRevisions, type RevisionListener } from "./db/revision-listener.ts";
import { isDatabaseEmpty, seedDemo } from "./db/seed/seed.ts";
import { acquireStartUpLock, type StartUpLock } from "./db/start-up-lock.ts";
import type { Env } from "./env.ts";
import { createAppLogger } from "./logging.ts";
import { createMailer, type Mailer, type SmsSender } from "./mail/mailer.ts";
import { createSmsSender } from "./mail/sms-sns.ts";
import { createAnalyticsService } from "./modules/analytics/analytics.service.ts";
import { createAuditLogService } from "./modules/audit/audit-log.service.ts";
import { createBillingService } from "./modules/billing/billing.service.ts";
import { startBillingScheduler } from "./modules/billing/billing-scheduler.ts";
import { createPlansService } from "./modules/billing/plans.service.ts";
import { createBillingProvider, manualSelfServe } from "./modules/billing/providers.ts";
import { commentRenderCache } from "./modules/comments/comment-render.ts";
import { createCommentsService } from "./modules/comments/comments.service.ts";
import { type BodyLinks, createBodyLinks } from "./modules/content/body-links.ts";
import { createContentModelServices } from "./modules/content/content-models.ts";
import { watchContentRevision } from "./modules/content/content-revision.ts";
import { startContentScheduler } from "./modules/content/content-scheduler.ts";
import { createContentStudioList } from "./modules/content/content-studio-list.ts";
import { reviewPeriodsFrom } from "./modules/content/freshness.ts";
import { highlighterStats } from "./modules/content/render-markdown.ts";
import { createDashboardService } from "./modules/dashboard/dashboard.service.ts";
import { createDiagnosticsService } from "./modules/diagnostics/diagnostics.service.ts";
import { createEngagementService } from "./modules/engagement/engagement.service.ts";
import { createCertificatesService } from "./modules/learning/certificates.service.ts";
import { createReportsService } from "./modules/learning/reports.service.ts";
import { createModerationService } from "./modules/moderation/moderation.service.ts";
import {
  type NotificationSweeper,
  startNotificationSweeper,
} from "./modules/notifications/notification-sweep.ts";
import { createNotificationsService } from "./modules/notifications/notifications.service.ts";
import { createUnsubscribeLinks, type UnsubscribeLinks } from "./modules/notifications/unsubscribe-links.ts";
import { createHeartbeat, newProcessId } from "./modules/operations/heartbeat.ts";
import { createJobLeases } from "./modules/operations/job-lease.ts";
import { createJobRegistry } from "./modules/operations/job-registry.ts";
import { createMetrics, type Metrics } from "./modules/operations/metrics.ts";
import { createOperationsService } from "./modules/operations/operations.service.ts";
import { createProcessMetrics, type ProcessMetrics } from "./modules/operations/process-metrics.ts";
import { createOrganizationsService } from "./modules/organizations/organizations.service.ts";
import { createRateLimits, RATE_WINDOW_MS, type RateLimits } from "./modules/rate-limits/rate-limits.ts";
import { createRedisCounterStore } from "./modules/rate-limits/redis-counter-store.ts";
import { createGitHubResponseStore } from "./modules/repositories/github-response-store.ts";
import { createRepositoriesService } from "./modules/repositories/repositories.service.ts";
import { createRepositorySync } from "./modules/repositories/repository-sync.ts";
import { createRepositorySources } from "./modules/repositories/sources/index.ts";
import { createSearchService } from "./modules/search/search.service.ts";
import { createSearchIndexer } from "./modules/search/search-indexer.ts";
import { createSecurityAdminService } from "./modules/security-admin/security-admin.service.ts";
import { createSettingsService } from "./modules/settings/settings.service.ts";
import { createSubscriptionsService } from "./modules/subscriptions/subscriptions.service.ts";
import { type AccountService, createAccountService } from "./modules/users/account.service.ts";
import { createProfileService } from "./modules/users/profile.service.ts";
import { createUsersService } from "./modules/users/users.service.ts";
import { createUsersAdminService } from "./modules/users-admin/users-admin.service.ts";
import { createWebhooks, type Webhooks, webhookContentHooks } from "./modules/webhooks/webhook-runtime.ts";
import type { AppServices } from "./services.ts";
import { createObjectStore } from "./storage/index.ts";
import type { ObjectStore } from "./storage/object-store.ts";
import { VERSION } from "./version.ts";

export interface Runtime {
  env: Env;
  logger: Logger;
  database: Database;
  storage: ObjectStore;
  mailer: Mailer;
  sms: SmsSender;
  auth: Auth;
  /** Lockout, session guard, audit and the clock, shared by auth hooks and the account API. */
  authSecurity: AuthSecurity;
  /** User context with the session checks; `resolveRequest` may rotate the token (pages). */
  identity: Identity;
  services: AppServices;
  /** Signed ID and service tokens (JWKS in the database). */
  tokens: TokenService;
  apiKeys: ApiKeyService;
  serviceCredentials: ServiceCredentials;
  /** Signed, credential-bound links to content bodies (`/api/content/<id>/body`). */
  bodyLinks: BodyLinks;
  /** Content writes from any process or replica (polled revision): caches subscribe to drop entries. */
  contentChanges: { subscribe(listener: () => void): () => void; check(): Promise<void> };
  /**
   * Identity writes from any process (`identity_revision`, decision 023): `check` reads it now
   * and drops this process's cached sessions and claims when it moved (each signed-in request
   * does the same before using the cache).
   */
  identityChanges: { check(): Promise<void>; stats(): IdentityCacheStats };
  /** The server-built user context for a request's headers (visitor when not signed in). */
  resolveUser(headers: Headers): Promise<UserContext>;
  /** API rate limits per user and address, shared through the database (decision 014). */
  rateLimits: RateLimits;
  /** Sessions, admin unlock, sign-in name look-ups and credential audit (the identity REST handlers). */
  accounts: AccountService;
  /** This process's request and page-cache counters and event-loop delay (the heartbeat reads them). */
  processMetrics: ProcessMetrics;
  /** The Prometheus figures of this process (`GET /metrics`, decision 030). */
  metrics: Metrics;
  /** The e-mail notification sweep (every minute, unref'd); tests stop it and run passes themselves. */
  notificationSweeper: NotificationSweeper;
  /** Signed one-click unsubscribe links of notification e-mails. */
  unsubscribeLinks: UnsubscribeLinks;
  /** Webhook endpoints and the sender (decision 037); tests run sweeps themselves. */
  webhooks: Webhooks;
  /**
   * Stops the scheduled jobs and waits for a running tick to end (graceful shutdown: requests in
   * flight keep the database). Safe to call more than once; `close` calls it.
   */
  stopBackground(): Promise<void>;
  /** Stops the jobs, flushes counters and closes the database. */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Seed demo data when the database is empty (default: env.SEED_DEMO === "1"). */
  seed?: boolean;
  logger?: Logger;
  /** The clock (epoch ms) for session checks, lockout and audit times; tests move it. Default Date.now. */
  now?: () => number;
}

/**
 * AUTH_SECRET, or a secret generated once into DATA_DIR/secrets (never printed). Processes sharing
 * the folder that start together agree on one: the secret is written to a file of this process's
 * own and linked into place, which fails when another process's is already there; that one is read.
 */
async function authSecret(env: Env): Promise<string> {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  const file = path.join(env.DATA_DIR, "secrets", "auth-secret");
  const read = async () => {
    try {
      const existing = (await readFile(file, "utf8")).trim();
      return existing.length >= 32 ? existing : null;
    } catch {
      return null;
    }
  };
  const existing = await read();
  if (existing) return existing;
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString("base64url");
  const own = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(own, secret, { mode: 0o600, flag: "wx" });
  try {
    await link(own, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // Another process's secret got there first; a file too short to be one (written by hand) is replaced.
    const theirs = await read();
    if (theirs) return theirs;
    await writeFile(file, secret, { mode: 0o600 });
    return secret;
  } finally {
    await rm(own, { force: true });
  }
}

/** A node-redis client for REDIS_URL (loaded only when set), connecting in the background. */
async function connectRedis(url: string, logger: Logger) {
  const { createClient } = await import("@redis/client");
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 5000, reconnectStrategy: (retries) => Math.min(200 * 2 ** retries, 5000) },
  });
  let errorLogged = false;
  client.on("error", (error) => {
    if (errorLogged) return;
    errorLogged = true;
    logger.warn(
      { err: error },
      "redis: the connection failed; rate limits let requests through until it is back",
    );
  });
  client.on("ready", () => {
    errorLogged = false;
  });
  // Waits for the first connection a few seconds at most; after that the client keeps trying.
  await Promise.race([
    client.connect().catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, 5000).unref()),
  ]);
  return client;
}

export function databaseUrl(env: Env): string {
  return env.DATABASE_URL || path.join(env.DATA_DIR, "app.db");
}

/** Build everything the server needs: database (migrated), storage, auth, services. */
export async function createRuntime(env: Env, options: RuntimeOptions = {}): Promise<Runtime> {
  // Every line logged while a request runs carries its id (server/http/request-context.ts).
  const logger = options.logger ?? createAppLogger(env.LOG_LEVEL);
  // Counts security failures once the metrics exist (they need the job registry, made later).
  let metrics: Metrics | undefined;
  await mkdir(env.DATA_DIR, { recursive: true });
  const database = createDatabase(databaseUrl(env));
  // Sessions and claims reused for up to 2 s; every identity write through this instance drops
  // them at once, other processes' writes on the next request (the identity revision it reads).
  const identityCache = createIdentityCache<SessionRow, Claims>({
    ttlMs: 2000,
    maxEntries: 10_000,
    readRevision: () => readIdentityRevision(database.db),
  });
  database.db = database.db.withPlugin(identityCache.plugin);
  // Migrations (ours and Better Auth's) and the demo seed run in one process at a time; a process
  // that waited finds the database migrated and seeded (decision 027).
  let startUpLock: StartUpLock | undefined;
  let revisionListener: RevisionListener | null = null;
  let redis: Awaited<ReturnType<typeof connectRedis>> | null = null;
  try {
    startUpLock = await acquireStartUpLock(databaseUrl(env), database.file, { logger });
    await migrateToLatest(database.db);
    const secret = await authSecret(env);
    const outboxDir = env.OUTBOX_DIR ?? path.join(env.DATA_DIR, "outbox");
    const mailer = createMailer({ smtpUrl: env.SMTP_URL || undefined, outboxDir });
    const sms = createSmsSender({ smsUrl: env.SMS_URL, outboxDir });
    const baseURL = env.PUBLIC_URL ?? `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`;
    const authSecurity = createAuthSecurity({
      db: database.db,
      mailer,
      sms,
      secret,
      secureCookies: baseURL.startsWith("https://"),
      now: options.now,
      logger,
      cache: identityCache,
      onSecurityEvent: (action) => metrics?.countSecurityEvent(action),
    });
    const auth = createAuth({
      db: database.db,
      dialect: database.dialect,
      secret,
      baseURL,
      trustedOrigins: [baseURL, `http://localhost:${env.PORT}`, `http://127.0.0.1:${env.PORT}`],
      security: authSecurity,
    });
    const { runMigrations } = await getMigrations(auth.options);
    await runMigrations();

    const storage: ObjectStore = await createObjectStore({
      storageUrl: env.STORAGE_URL,
      dataDir: env.DATA_DIR,
      secret,
      publicUrl: env.PUBLIC_URL,
      now: authSecurity.now,
    });
    // Debug mode is chosen on the client (`?debug=true` or the stored flag); the server reports
    // itself in debug only outside production.
    // The other flags are system settings (core/system-settings.ts): stored in the database, and
    // written into this object in place by the settings service whenever any process changes them.
    const featureFlags: Record<string, boolean> = {
      debugMode: env.NODE_ENV !== "production",
      ...featureFlagsOf(defaultSettings()),
    };
    const tokens = createTokenService({ db: database.db, secret, issuer: baseURL, now: authSecurity.now });
    const apiKeys = createApiKeyService({ db: database.db, secret, now: authSecurity.now });
    const serviceCredentials = createServiceCredentials({ db: database.db, secret, now: authSecurity.now });
    const identity = createIdentity({
      db: database.db,
      guard: authSecurity.guard,
      now: authSecurity.now,
      featureFlags,
      environment: env.NODE_ENV,
      bearerVerifiers: [
        localIdTokenVerifier(tokens, {
          sessionUser: (familyId) => authSecurity.guard.inspectFamily(familyId),
          currentClaims: (user) => claimsForUser(database.db, user, new Date(authSecurity.now())),
        }),
      ],
      tokens,
      apiKeys,
      serviceCredentials,
      cache: identityCache,
    });
    const searchIndexer = createSearchIndexer({ db: database.db, storage, logger });
    const changeListeners = new Set<() => void>();
    const contentChanges = {
      subscribe(listener: () => void) {
        changeListeners.add(listener);
        return () => changeListeners.delete(listener);
      },
      /** Reads the content revision now (after a write): this process drops stale pages at once. */
      check: () => revisionWatcher.check(),
    };
    // The sections' review periods are system settings (decision 038); the settings service is
    // made below, and read here per call.
    let liveSettings: { value(key: string): SettingValue | undefined } | null = null;
    const contentModels = createContentModelServices({
      db: database.db,
      storage,
      logger,
      hooks: webhookContentHooks(searchIndexer.contentHooks),
      now: authSecurity.now,
      changes: contentChanges,
      reviewPeriods: reviewPeriodsFrom((key) => liveSettings?.value(key)),
    });
    const content = contentModels.contents;

    // Repository browser (decision 008): local git folders (REPOSITORIES_DIR, default
    // DATA_DIR/repositories; shared by a cluster, decision 028) and GitHub.
    const repositoriesDir = env.REPOSITORIES_DIR ?? path.join(env.DATA_DIR, "repositories");
    const repositorySources = createRepositorySources({
      localRoot: repositoriesDir,
      github: {
        baseUrl: env.GITHUB_API_URL,
        token: env.GITHUB_TOKEN,
        now: authSecurity.now,
        // ETags and their answers in the database: reused after a restart and by other processes.
        store: createGitHubResponseStore(database.db),
      },
    });
    const repositorySync = createRepositorySync({
      db: database.db,
      sources: repositorySources,
      now: authSecurity.now,
      logger,
    });

    const configuration = [
      {
        name: "database",
        value: database.dialect === "postgres" ? "postgresql (DATABASE_URL)" : "sqlite file",
      },
      { name: "storage", value: env.STORAGE_URL?.startsWith("s3://") ? "s3-compatible" : "local disk" },
      { name: "mail", value: env.SMTP_URL ? "smtp" : "outbox files" },
      { name: "sms", value: sms.kind === "sns" ? "amazon sns" : "outbox files" },
      { name: "authSecret", value: env.AUTH_SECRET ? "set by AUTH_SECRET" : "generated in data folder" },
      { name: "publicUrl", value: env.PUBLIC_URL ? "set" : "derived from HOST and PORT" },
      { name: "trustProxy", value: env.TRUST_PROXY === "1" ? "on" : "off" },
      { name: "demoSeed", value: env.SEED_DEMO === "1" ? "on" : "off" },
    ];
    const settings = createSettingsService({
      db: database.db,
      flags: featureFlags,
      environment: [
        { name: "environment", value: env.NODE_ENV },
        { name: "debugMode", value: featureFlags.debugMode ? "on (not production)" : "off (production)" },
        ...configuration,
      ],
      now: authSecurity.now,
    });
    await settings.reload();
    liveSettings = settings;
    const startedAt = new Date();
    // Operations (/super-admin/infrastructure): this process's figures, its background jobs and
    // its heartbeat row in the shared database.
    const processMetrics = createProcessMetrics();
    // The process-wide caches of modules (those of the HTTP app register themselves there).
    processMetrics.registerCache("comment-html", "Comment bodies rendered to HTML", () =>
      commentRenderCache.stats(),
    );
    processMetrics.registerCache("shiki-languages", "Code highlighting grammars (Shiki)", highlighterStats);
    processMetrics.registerCache(
      "github-responses",
      "GitHub API responses kept for conditional requests",
      () =>
        repositorySources.githubCacheStats?.() ?? { entries: 0, maxEntries: 0, bytes: null, maxBytes: null },
    );
    processMetrics.registerCache("identity", "Sessions and claims of signed-in requests (2 s)", () => {
      const figures = identityCache.stats();
      return {
        entries: figures.sessions + figures.claims,
        maxEntries: figures.maxEntries * 2,
        bytes: null,
        maxBytes: null,
        hits: figures.hits,
        misses: figures.misses,
      };
    });
    // Periodic jobs that must run once per tick across processes hold a lease in the shared
    // database under this process's id (decision 028).
    const processId = newProcessId();
    const jobs = createJobRegistry(Date.now, {
      leases: createJobLeases({
        db: database.db,
        holder: processId,
        onError: (error) => logger.warn({ err: error }, "jobs: a lease could not be renewed or released"),
      }),
    });
    const heartbeat = createHeartbeat({
      db: database.db,
      metrics: processMetrics,
      jobs,
      version: VERSION,
      startedAt,
      processId,
      prune: jobs.registerExclusive({
        name: "heartbeat-prune",
        label: "Deletes the heartbeat rows of processes gone for 10 minutes",
        intervalMs: 60_000,
        leaseMs: 60_000,
      }),
    });
    // Lines of several processes tell which one wrote them (the id the infrastructure screen shows).
    logger.setBindings({ proc: heartbeat.processId });
    const processFigures = createMetrics({ processMetrics, jobs, poolStats: () => database.poolStats() });
    metrics = processFigures;
    const diagnostics = createDiagnosticsService({
      version: VERSION,
      environment: env.NODE_ENV,
      startedAt,
      featureFlags,
      databaseKind: database.dialect === "postgres" ? "postgresql" : "sqlite",
      storageKind: storage.kind,
      pingDatabase: () => database.ping(),
      pingStorage: () => storage.ping(),
      counts: () => content.counts(),
      publicCounts: () => content.publicCounts(),
      configuration,
    });

    const accounts = createAccountService({
      db: database.db,
      now: authSecurity.now,
      audit: authSecurity.audit,
      unlockAccount: (userId) => authSecurity.throttle.unlockAccount(userId),
      logger,
    });
    const certificates = createCertificatesService({
      db: database.db,
      publicUrl: baseURL.replace(/\/+$/, ""),
      now: authSecurity.now,
      onRevoked: () => {
        for (const listener of changeListeners) listener();
      },
    });
    const engagement = createEngagementService({
      db: database.db,
      secret,
      now: authSecurity.now,
      logger,
      onLessonCompleted: (input) => certificates.evaluate(input),
      certificateFor: (userId, courseId) => certificates.certificateIdFor(userId, courseId),
    });
    const unsubscribeLinks = createUnsubscribeLinks({ secret, baseUrl: baseURL });
    // Webhooks (decision 037): writes record deliveries; the sender posts them (started below).
    const webhooks = createWebhooks({
      db: database.db,
      baseUrl: baseURL,
      allowPrivateNetworks: env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS === "1",
      now: authSecurity.now,
      logger,
      version: VERSION,
    });
    const services: AppServices = {
      config: {
        productName: "Lumen Hub",
        tagline: "Education, Tools, Resources",
        publicUrl: baseURL.replace(/\/+$/, ""),
        version: VERSION,
        environment: env.NODE_ENV,
        featureFlags,
      },
      content,
      diagnostics,
      organizations: createOrganizationsService({
        db: database.db,
        mailer,
        now: authSecurity.now,
        baseUrl: baseURL,
      }),
      profile: createProfileService({
        db: database.db,
        storage,
        now: authSecurity.now,
        throttle: authSecurity.throttle,
      }),
      engagement,
      dashboard: createDashboardService({
        db: database.db,
        engagement,
        summarize: content.summarize,
        now: authSecurity.now,
        logger,
      }),
      certificates,
      reports: createReportsService({ db: database.db, now: authSecurity.now }),
      subscriptions: createSubscriptionsService({ db: database.db }),
      users: createUsersService({ db: database.db }),
      comments: createCommentsService({ db: database.db, settings, now: authSecurity.now }),
      repositories: createRepositoriesService({
        db: database.db,
        sources: repositorySources,
        sync: repositorySync,
        now: authSecurity.now,
      }),
      plans: createPlansService({ db: database.db, now: authSecurity.now }),
      search: createSearchService({
        db: database.db,
        indexer: searchIndexer,
        summarize: content.summarize,
        changes: contentChanges,
        enabled: () => featureFlags.search !== false,
        now: authSecurity.now,
        logger,
      }),
      contentModels,
      settings,
      studioList: createContentStudioList({ db: database.db }),
      moderation: createModerationService({
        db: database.db,
        studioList: createContentStudioList({ db: database.db }),
        now: authSecurity.now,
      }),
      audit: createAuditLogService({ db: database.db }),
      usersAdmin: createUsersAdminService({
        db: database.db,
        now: authSecurity.now,
        storage,
        unlock: (actor, userId, meta) => accounts.unlock(actor, userId, meta),
      }),
      analytics: createAnalyticsService({ db: database.db, now: authSecurity.now }),
      notifications: createNotificationsService({
        db: database.db,
        links: unsubscribeLinks,
        now: authSecurity.now,
      }),
      securityAdmin: createSecurityAdminService({
        db: database.db,
        now: authSecurity.now,
        throttle: authSecurity.throttle,
        accounts,
        serviceCredentials,
        logger,
      }),
      billing: createBillingService({
        db: database.db,
        mailer,
        provider: await createBillingProvider(env, { db: database.db, now: authSecurity.now }),
        now: authSecurity.now,
        baseUrl: baseURL,
        graceDays: env.BILLING_GRACE_DAYS,
        selfServe: manualSelfServe(env),
        logger,
      }),
      operations: createOperationsService({
        db: database.db,
        dialect: database.dialect,
        file: database.file,
        databaseUrl: databaseUrl(env),
        storage,
        heartbeat,
        jobs,
        metrics: processMetrics,
        pingDatabase: () => database.ping(),
      }),
      webhooks: webhooks.service,
    };
    // The per-audience read caches (content lists and items, search results): never per user.
    const audienceFigures =
      (stats: () => { hits: number; misses: number; size: number; max: number }) => () => {
        const figures = stats();
        const { hits, misses } = figures;
        return { entries: figures.size, maxEntries: figures.max, bytes: null, maxBytes: null, hits, misses };
      };
    processMetrics.registerCache(
      "content-lists",
      "Content list pages per audience",
      audienceFigures(() => content.cacheStats().lists),
    );
    processMetrics.registerCache(
      "content-items",
      "Content items per audience",
      audienceFigures(() => content.cacheStats().items),
    );
    processMetrics.registerCache(
      "search-results",
      "Search result pages per audience",
      audienceFigures(() => services.search.cacheStats?.() ?? { hits: 0, misses: 0, size: 0, max: 0 }),
    );

    if ((options.seed ?? env.SEED_DEMO === "1") && (await isDatabaseEmpty(database.db))) {
      await seedDemo({ db: database.db, auth, storage, logger, dataDir: env.DATA_DIR, repositoriesDir });
    }
    await startUpLock.release();
    // Repositories whose cache expired are synced in the background (unref'd timer).
    const repositoryRefresh = repositorySync.start(
      undefined,
      jobs.registerExclusive({
        name: "repository-refresh",
        label: "Syncs the repositories whose cached copy expired",
        intervalMs: 5 * 60 * 1000,
        leaseMs: 60_000,
      }),
    );
    // A database from before search has content but no index: build it in the background.
    const indexing = new AbortController();
    const trackIndex = jobs.register({
      name: "search-index-build",
      label: "Builds the search index at start-up when content has none (once)",
      intervalMs: null,
    });
    const initialIndex = trackIndex(() => searchIndexer.ensureIndexed({ signal: indexing.signal })).catch(
      (error) => logger.error({ err: error }, "search: building the index failed"),
    );

    let rateLimitErrorLogged = false;
    // Redis for the rate-limit counters when REDIS_URL is set (decision 033): commands fail at
    // once while it is unreachable (no offline queue), and the limits then let requests through,
    // as they do when the database store fails; the client reconnects by itself.
    redis = env.REDIS_URL ? await connectRedis(env.REDIS_URL, logger) : null;
    const rateLimits = createRateLimits({
      store: redis ? createRedisCounterStore(redis, { ttlMs: RATE_WINDOW_MS * 2 }) : undefined,
      jobs,
      db: database.db,
      now: authSecurity.now,
      settings: {
        readsPerUser: env.RATE_LIMIT_READS_PER_USER,
        readsPerAddress: env.RATE_LIMIT_READS_PER_ADDRESS,
        writesPerUser: env.RATE_LIMIT_WRITES_PER_USER,
        writesPerAddress: env.RATE_LIMIT_WRITES_PER_ADDRESS,
        commentsPerUser: env.RATE_LIMIT_COMMENTS_PER_USER,
        graphqlCostPerUser: env.RATE_LIMIT_GRAPHQL_COST_PER_USER,
        graphqlCostPerAddress: env.RATE_LIMIT_GRAPHQL_COST_PER_ADDRESS,
      },
      onError: (error) => {
        // Once per process: a failing store must not flood the log (requests keep being served).
        if (rateLimitErrorLogged) return;
        rateLimitErrorLogged = true;
        logger.warn({ err: error }, "rate limits: the shared counters could not be updated");
      },
    });

    // Settings and feature flags changed by any process reach this one within about a second.
    const settingsWatcher = settings.watch({
      track: jobs.register({
        name: "settings-poll",
        label: "Applies settings and feature flags changed by any process (settings revision poll)",
        intervalMs: 1000,
      }),
      intervalMs: 1000,
      onError: (error) => logger.warn({ err: error }, "settings revision check failed"),
    });

    const revisionWatcher = watchContentRevision(database.db, {
      track: jobs.register({
        name: "content-revision-poll",
        label: "Drops the page cache when content changed on any process (content revision poll)",
        intervalMs: 1000,
      }),
      intervalMs: 1000,
      onChange: () => {
        for (const listener of changeListeners) listener();
      },
      onError: (error) => logger.warn({ err: error }, "content revision check failed"),
    });

    // PostgreSQL: a change on any process is heard at once (LISTEN, migration 042); the polls
    // above stay as the fallback when the listening connection is down (decision 032).
    let listenErrorLogged = false;
    revisionListener =
      database.dialect === "postgres"
        ? listenForRevisions(databaseUrl(env), {
            onNotify: (table) => {
              if (table === "system_setting_revision") void settingsWatcher.check();
              else void revisionWatcher.check();
            },
            onReconnect: () => {
              listenErrorLogged = false;
              void settingsWatcher.check();
              void revisionWatcher.check();
            },
            onError: (error) => {
              if (listenErrorLogged) return;
              listenErrorLogged = true;
              logger.warn(
                { err: error },
                "revision notifications: the listening connection failed; polling meanwhile",
              );
            },
          })
        : null;
    await revisionListener?.ready;

    // Scheduled items go live at their time; each tick runs on one process (unref'd timer).
    const contentScheduler = startContentScheduler({
      db: database.db,
      now: authSecurity.now,
      hooks: webhookContentHooks(searchIndexer.contentHooks),
      logger,
      intervalMs: 1000,
      track: jobs.registerExclusive({
        name: "content-scheduler",
        label: "Publishes scheduled content when its time comes",
        intervalMs: 1000,
        leaseMs: 30_000,
      }),
    });

    // Notification e-mails: replies, followed sections, the weekly digest (each claimed once; unref'd timer).
    const notificationSweeper = startNotificationSweeper({
      db: database.db,
      mailer,
      links: unsubscribeLinks,
      baseUrl: baseURL,
      now: authSecurity.now,
      logger,
      intervalMs: 60_000,
      track: jobs.registerExclusive({
        name: "notification-sweep",
        label: "Sends reply, followed-section and weekly digest e-mails",
        intervalMs: 60_000,
        leaseMs: 60_000,
      }),
    });

    // Renewals, period ends and grace ends take effect with nobody visiting (unref'd timer).
    const trackBilling = jobs.registerExclusive({
      name: "billing-sweep",
      label: "Renewals, period ends, grace ends and abandoned checkouts (billing sweep)",
      intervalMs: 1000,
      leaseMs: 30_000,
    });
    const billingScheduler = startBillingScheduler({
      billing: { runDue: () => trackBilling(() => services.billing.runDue()) },
      logger,
      intervalMs: 1000,
    });

    // Webhook deliveries: due attempts every second on one process, and at once after an event.
    await webhooks.start(
      jobs.registerExclusive({
        name: "webhook-sweep",
        label: "Sends due webhook deliveries and retries; prunes deliveries older than 30 days",
        intervalMs: 1000,
        leaseMs: 60_000,
      }),
    );

    // Every few seconds this process writes its heartbeat row (unref'd timer; removed on close).
    const heartbeatTimer = heartbeat.start({
      track: jobs.register({
        name: "heartbeat",
        label: "Writes this process's heartbeat row",
        intervalMs: 5000,
      }),
      onError: (error) => logger.warn({ err: error }, "operations: the heartbeat could not be written"),
    });
    await heartbeatTimer.ready;

    let backgroundStopped: Promise<void> | undefined;
    const stopBackground = () => {
      backgroundStopped ??= (async () => {
        await heartbeatTimer.stop();
        processMetrics.stop();
        revisionWatcher.stop();
        settingsWatcher.stop();
        await revisionListener?.stop();
        indexing.abort();
        await Promise.all([
          contentScheduler.stop(),
          notificationSweeper.stop(),
          billingScheduler.stop(),
          webhooks.stop(),
          repositoryRefresh.stop(),
          initialIndex,
        ]);
      })();
      return backgroundStopped;
    };

    return {
      env,
      logger,
      database,
      storage,
      mailer,
      sms,
      auth,
      authSecurity,
      identity,
      services,
      tokens,
      apiKeys,
      serviceCredentials,
      bodyLinks: createBodyLinks({ secret, baseUrl: env.PUBLIC_URL, now: authSecurity.now }),
      contentChanges: { ...contentChanges, check: () => revisionWatcher.check() },
      identityChanges: { check: () => identityCache.revalidate(), stats: () => identityCache.stats() },
      resolveUser: (headers) => identity.resolveUser(headers),
      rateLimits,
      accounts,
      processMetrics,
      metrics: processFigures,
      notificationSweeper,
      unsubscribeLinks,
      webhooks,
      stopBackground,
      close: async () => {
        await stopBackground();
        processFigures.stop();
        await rateLimits.close();
        await redis?.close().catch(() => {});
        await services.search.flushCounts?.();
        return database.close();
      },
    };
  } catch (error) {
    await revisionListener?.stop();
    await redis?.close().catch(() => {});
    await startUpLock?.release().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
}
