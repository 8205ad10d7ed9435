import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { DEFAULT_LOCALE } from '../src/api/contract/messages';
import { loadConfig, type Config } from './platform/config';
import type { AppContext } from './context';
import { createAppContext } from './app-context';
import { openDatabase, type DbHandle } from './platform/db/connection';
import { migrateToLatest } from './platform/db/migrate';
import type { RunnerTiming } from './platform/jobs/queue';
import { BODY_LIMIT, installBodyParsing } from './platform/http/body-parsing';
import { clientErrorReply } from './platform/http/client-errors';
import {
  apiNotFound,
  frameworkErrorReply,
  installErrorHandling,
  plainNotFound,
} from './platform/http/error-handler';
import { installAudit } from './platform/http/audit-trail';
import { openApiRoutes } from './platform/http/openapi';
import { API_PREFIX, installPolicies } from './platform/http/policy';
import { loggerOptions } from './platform/http/request-log';
import { installSecurityHeaders, isApiUrl } from './platform/http/security-headers';
import {
  consoleScriptHashes,
  hasConsoleBuild,
  isSpaPath,
  registerConsole,
  sendConsoleIndex,
} from './platform/http/static';
import { localeOf } from './platform/i18n';
import type { Clock } from './platform/lib/clock';
import { articleRoutes } from './modules/articles';
import { auditRoutes } from './modules/audit';
import { authRoutes } from './modules/auth';
import { cardRoutes } from './modules/cards';
import { customerRoutes } from './modules/customers';
import { fileRoutes } from './modules/files';
import { domainRoutes } from './modules/domains';
import { dashboardRoutes } from './modules/dashboard';
import { dhCallbackRoutes } from './modules/digital-human';
import { dhTemplateRoutes, dhVideoRoutes } from './modules/digital-human';
import { APP_JOBS } from './app-jobs';
import { jobRoutes } from './modules/jobs';
import { menuRoutes } from './modules/menu';
import { moneyRoutes } from './modules/money';
import { rechargeRoutes } from './modules/recharge';
import { resourceRoutes } from './modules/resources';
import { authenticate } from './modules/sessions';
import { ensurePlatformDefaults, getSystemInfo, normalizeHost } from './modules/system';
import { brandPaletteStyle } from '../src/api/contract/brand-palette';
import { systemRoutes } from './modules/system';
import { uploadRoutes } from './modules/uploads';
import { userRoutes } from './modules/users';
import { videoTaskRoutes } from './modules/video-tasks';
import { cloneRoutes } from './modules/digital-human';
import { initConfigRoutes } from './modules/init-config';
import { integrationSettingRoutes } from './modules/integration-settings';
import { notificationRoutes } from './modules/notifications';
import { aiTitleRoutes } from './modules/ai-titles';
import { aiToolRoutes } from './modules/ai-tools';
import { sandboxPlatformRoutes } from './modules/sandbox-platform';
import { SANDBOX_PLATFORM_PREFIX } from './integrations/social';
import { matrixAccountRoutes } from './modules/matrix';
import type { Integrations } from './integrations/registry';
import type { FileStorage } from './platform/storage/storage';

export interface BuildOptions {
  /** Overrides of the environment's settings. */
  config?: Partial<Config>;
  /**
   * An open, migrated database (tests). Without one the app opens the configured database,
   * migrates it and closes it on `app.close()`.
   */
  db?: DbHandle;
  /** The clock (tests move time). */
  now?: Clock;
  /** Integrations to use instead of the configured ones (tests: a capturing SMS provider). */
  integrations?: Partial<Integrations>;
  /** The environment's file storage (default: the configured one, local disk or S3). */
  storage?: FileStorage;
  /** How long another process's storage settings may go unseen on PostgreSQL (tests shorten it). */
  storagePlaceTtlMs?: number;
  logger?: FastifyServerOptions['logger'];
  /** Installs hooks before any route or plugin (tests: the reply check of tests/server). */
  instrument?: (app: FastifyInstance) => void;
  /** The job runner's timing and (BullMQ) Redis key prefix (tests). */
  jobs?: { timing?: Partial<RunnerTiming>; prefix?: string; onEnqueue?: () => void };
  /** Extra API routes, registered under /api/v1 like the modules' (tests). */
  extraApiRoutes?: (api: FastifyInstance) => void;
}

/** The API modules; each registers its calls under /api/v1. */
const MODULES: readonly ((api: FastifyInstance) => void)[] = [
  authRoutes,
  userRoutes,
  systemRoutes,
  domainRoutes,
  menuRoutes,
  dashboardRoutes,
  customerRoutes,
  moneyRoutes,
  cardRoutes,
  rechargeRoutes,
  resourceRoutes,
  (api) =>
    jobRoutes(
      api,
      APP_JOBS.map((job) => job.kind),
    ),
  fileRoutes,
  uploadRoutes,
  videoTaskRoutes,
  dhVideoRoutes,
  dhTemplateRoutes,
  dhCallbackRoutes,
  cloneRoutes,
  integrationSettingRoutes,
  initConfigRoutes,
  auditRoutes,
  notificationRoutes,
  matrixAccountRoutes,
  aiTitleRoutes,
  aiToolRoutes,
  articleRoutes,
];

/**
 * Builds the whole server (API, console files, hooks) and waits until it is ready. Rejects when a
 * route under /api lacks a policy.
 */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const config: Config = { ...loadConfig(), ...options.config };
  const app = Fastify({
    logger: loggerOptions(options.logger, config.logLevel),
    bodyLimit: BODY_LIMIT,
    genReqId: () => randomUUID(),
    // Every error reply is the envelope, also those Fastify and Node answer before any route.
    clientErrorHandler: clientErrorReply,
    frameworkErrors: frameworkErrorReply,
  });
  const handle = options.db ?? openDatabase(config);
  let dbClosed = !!options.db; // a database passed in belongs to the caller
  const closeDb = async () => {
    if (dbClosed) return;
    dbClosed = true;
    await handle.close();
  };
  // Its workers (started by main.ts or worker.ts) stop before the database closes.
  let built: AppContext | undefined;
  app.addHook('onClose', async () => {
    await built?.jobs.close();
    await closeDb();
  });
  try {
    const ctx = createAppContext({
      config,
      db: handle,
      log: app.log,
      now: options.now,
      storage: options.storage,
      storagePlaceTtlMs: options.storagePlaceTtlMs,
      integrations: options.integrations,
      jobs: options.jobs,
      // The sandbox's notification goes through the server's whole HTTP stack, like a provider's.
      deliverPayment: async ({ url, headers, body }) => {
        const response = await app.inject({ method: 'POST', url, headers, payload: body });
        return { status: response.statusCode, body: response.body };
      },
    });
    built = ctx;
    if (!options.db) {
      await migrateToLatest(handle.db, handle.engine);
      await ensurePlatformDefaults(handle.db, Date.now());
    }
    app.decorate('ctx', ctx);
    app.decorateRequest('locale', DEFAULT_LOCALE);
    app.addHook('onRequest', async (request) => {
      request.locale = localeOf(request.headers);
    });
    installSecurityHeaders(app, consoleScriptHashes(config.staticDir));
    installBodyParsing(app);
    installErrorHandling(app);
    installPolicies(app, (token) => authenticate(ctx, token));
    installAudit(app, { db: handle.db, now: ctx.now, strict: config.auditStrict });
    options.instrument?.(app);
    // Replies up to 64 KB (a list page) are compressed in one synchronous call; the plugin's
    // default on 2 cores (8 KB) sent them through a zlib stream, whose set-up and thread-pool
    // round trips cost ten times more. Brotli at quality 1, not the plugin's 4: a 20-row page
    // (9–14 KB of JSON) becomes 0.8 KB instead of 0.6 KB for a third of the CPU time (quality 2:
    // 0.7 KB, 20–30 µs more a merchant page); compression was the largest cost of a list page
    // after its query (docs/performance.md). The console's own files are compressed at
    // build time, at quality 11.
    await app.register(compress, {
      global: true,
      encodings: ['br', 'gzip'],
      syncThreshold: 65_536,
      brotliOptions: {
        params: {
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
        },
      },
    });

    await app.register(
      async (api) => {
        for (const register of MODULES) register(api);
        options.extraApiRoutes?.(api);
        openApiRoutes(api);
      },
      { prefix: API_PREFIX },
    );

    // The sandbox social platform: outside the API (no session, no policy), 404 when off.
    await app.register(sandboxPlatformRoutes, { prefix: SANDBOX_PLATFORM_PREFIX });

    const serveConsole = hasConsoleBuild(config.staticDir);
    if (serveConsole) await registerConsole(app, config.staticDir);
    else app.log.warn(`no console build in ${config.staticDir}: serving the API only`);

    // A branded host's page carries its theme colour from the first frame (docs/domain.md §12);
    // the brand is the cached system info's. Should it fail, the page goes without.
    const sendConsolePage = async (request: FastifyRequest, reply: FastifyReply) => {
      const colour = await getSystemInfo(ctx, normalizeHost(request.host)).then(
        (info) => info.theme_color,
        () => '',
      );
      return sendConsoleIndex(request, reply, config.staticDir, brandPaletteStyle(colour));
    };
    app.setNotFoundHandler((request, reply) => {
      if (isApiUrl(request.url)) {
        return apiNotFound(request, reply);
      }
      if (serveConsole && isSpaPath(request)) return sendConsolePage(request, reply);
      return plainNotFound(request, reply);
    });

    await app.ready();
    return app;
  } catch (error) {
    await app.close().catch(() => undefined);
    await built?.jobs.close().catch(() => undefined);
    await closeDb();
    throw error;
  }
}
