import path from 'node:path';

/** Server settings, read once from the environment (README lists every variable). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…` switches from the embedded SQLite file to a PostgreSQL server. */
  databaseUrl: string | undefined;
  /** Seed demo data on a fresh database (default on; `DEMO=0` turns it off). */
  demo: boolean;
  /**
   * With the demo data, also render the demo library's media and make its clones at the first
   * start (default on; `DEMO_MEDIA=0` skips both: the server tests that restart a server and use
   * no media, docs/decisions.md "Tests").
   */
  demoMedia: boolean;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  sessionAbsoluteHours: number;
  sessionIdleMinutes: number;
  overstepSessionMinutes: number;
  logLevel: string;
  /** The built console (Vite's `dist/`); served with an SPA fallback when it exists. */
  staticDir: string;
  /**
   * The embedded sandbox payment provider, which credits balances without real money: `true`
   * (`PAYMENT_SANDBOX=1`) on, `false` (`PAYMENT_SANDBOX=0`) off, `undefined` (unset) on only when
   * the database holds the demo data (docs/decisions.md "Recharge packages and orders").
   */
  paymentSandbox: boolean | undefined;
  /** HMAC key of the sandbox's notifications; default a random one kept in DATA_DIR. */
  paymentSandboxSecret: string | undefined;
  /**
   * The embedded sandbox social platform served under `/sandbox-platform` (README "Social
   * platforms and the sandbox platform"): `true` (`SOCIAL_SANDBOX=1`) on, `false` (`0`) off,
   * `undefined` (unset) on only when the database holds the demo data.
   */
  socialSandbox: boolean | undefined;
  /** The sandbox platform's client_secret (`SOCIAL_SANDBOX_SECRET`); default random, in DATA_DIR. */
  socialSandboxSecret: string | undefined;
  /**
   * The origin whose `/sandbox-platform` the adapter calls (`SOCIAL_SANDBOX_URL`; default
   * PUBLIC_URL, this server): another server of ours serving the sandbox (a shared test platform,
   * the speed bench's platform in its own process) on the same database.
   */
  socialSandboxUrl: string | undefined;
  /** The real Douyin Open Platform (on when `DOUYIN_CLIENT_KEY` is set). */
  douyin: DouyinConfig;
  /**
   * WeChat Pay's API (`WECHATPAY_BASE_URL`, default `https://api.mch.weixin.qq.com`): the system
   * init page's connection test asks it for the platform certificates.
   */
  wechatPayBaseUrl: string;
  /**
   * WeChat's server API (`WECHAT_API_BASE_URL`, default `https://api.weixin.qq.com`): the system
   * init page's connection test of the mini program asks it for the stable access token.
   */
  wechatApiBaseUrl: string;
  /** `redis://…`: the job runner uses BullMQ on this Redis instead of the app's database. */
  redisUrl: string | undefined;
  /** BullMQ: the prefix of its Redis keys (default `vc`): installations sharing a Redis differ. */
  redisPrefix: string | undefined;
  /** `npm start` runs job workers in child processes (default on; `WORKER=0`: API only). */
  worker: boolean;
  /** How many (`WORKER_PROCESSES`, default 1; each runs every kind at its own concurrency). */
  workerProcesses: number;
  /** HMAC key of the signed file URLs (`/api/v1/files/…`); default a random one kept in DATA_DIR. */
  fileUrlSecret: string | undefined;
  /** S3-compatible object storage for files (when `S3_BUCKET` is set); else local disk. */
  s3: S3Config | undefined;
  /** A video task with no output progress for this long is marked stalled and its jobs re-queued. */
  videoTaskStallMs: number;
  /**
   * How long a claimed post of a release plan is held by its publisher before another may take it
   * (a publisher that died: docs/domain.md §20). Default 10 minutes; tests shorten it.
   */
  /** `matrix-publish` jobs a worker runs at once (`MATRIX_PUBLISH_CONCURRENCY`, default 16). */
  matrixPublishConcurrency: number;
  matrixPublishLeaseMs: number;
  /**
   * How often an idle embedded-queue worker looks for due jobs (`JOBS_POLL_MS`, default 1 s); an
   * enqueue in the same process or by `npm start`'s API wakes it at once.
   */
  jobsPollMs: number;
  /** How often posts under review are asked about (`MATRIX_REVIEW_POLL_MS`, default 30 s). */
  matrixReviewPollMs: number;
  /** x264 preset of the video renders (tests: `ultrafast`). */
  videoRenderPreset: RenderPreset;
  /** Renders one worker runs at once (default 1: ffmpeg uses every core already). */
  videoRenderConcurrency: number;
  /** The digital human's AI provider (README "Digital-human providers"). */
  digitalHuman: DigitalHumanConfig;
  /** The AI-text provider: titles for matrix distribution (README "AI text"). */
  aiText: AiTextConfig;
  /**
   * The server's own address as a vendor reaches it (`PUBLIC_URL`, e.g. `https://console.example`):
   * the HTTP digital-human vendor fetches inputs from signed file URLs and sends callbacks there.
   * Default `http://127.0.0.1:PORT`.
   */
  publicUrl: string;
  /**
   * The keys that seal stored secrets (docs/architecture.md §Secrets): `SECRETS_KEYS`
   * (`kid:base64,kid:base64`, the first seals) or `SECRETS_KEY` (one base64 key, id `k1`); neither:
   * a key generated into DATA_DIR/secrets.key. Parsed by server/platform/secrets/keys.ts.
   */
  secretsKeys: string | undefined;
  secretsKey: string | undefined;
  /**
   * A successful state-changing call that wrote no audit row fails with a 500 instead of only
   * being logged (docs/architecture.md §Audit). Off in production; the server tests turn it on.
   */
  auditStrict: boolean;
}

export const DH_PROVIDERS = ['embedded', 'http'] as const;
export type DhProviderName = (typeof DH_PROVIDERS)[number];

export interface DigitalHumanConfig {
  /** `DH_PROVIDER`: `embedded` (default: local, deterministic, demonstration output) or `http`. */
  provider: DhProviderName;
  /** `DH_BASE_URL` (required with `http`). */
  baseUrl: string | undefined;
  /**
   * `DH_API_KEY`, `DH_CALLBACK_SECRET`: the HTTP vendor's key and callback HMAC key, unless an admin
   * set them in the sealed settings (which win).
   */
  apiKey: string | undefined;
  callbackSecret: string | undefined;
}

export const AI_TEXT_PROVIDERS = ['embedded', 'openai'] as const;
export type AiTextProviderName = (typeof AI_TEXT_PROVIDERS)[number];

export interface AiTextConfig {
  /** `AI_TEXT_PROVIDER`: `embedded` (default: templates, demonstration output) or `openai`. */
  provider: AiTextProviderName;
  /** `AI_TEXT_BASE_URL`: an OpenAI-compatible API, e.g. `https://api.openai.com/v1` (required with `openai`). */
  baseUrl: string | undefined;
  /** `AI_TEXT_MODEL` (default `gpt-4o-mini`). */
  model: string;
  /** `AI_TEXT_API_KEY`, unless an admin set one in the sealed settings (which wins). */
  apiKey: string | undefined;
}

function aiTextConfig(env: Env): AiTextConfig {
  const raw = text(env, 'AI_TEXT_PROVIDER') ?? 'embedded';
  const provider = AI_TEXT_PROVIDERS.find((p) => p === raw);
  if (!provider) throw new Error(`AI_TEXT_PROVIDER must be one of ${AI_TEXT_PROVIDERS.join(', ')}`);
  const baseUrl = text(env, 'AI_TEXT_BASE_URL')?.replace(/\/+$/, '');
  if (baseUrl && !/^https?:\/\/[^/]/i.test(baseUrl)) {
    throw new Error(`AI_TEXT_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  }
  // The key may come from the sealed settings instead: checked at use.
  if (provider === 'openai' && !baseUrl) {
    throw new Error('AI_TEXT_PROVIDER=openai needs AI_TEXT_BASE_URL');
  }
  return {
    provider,
    baseUrl,
    model: text(env, 'AI_TEXT_MODEL') ?? 'gpt-4o-mini',
    apiKey: text(env, 'AI_TEXT_API_KEY'),
  };
}

function digitalHumanConfig(env: Env): DigitalHumanConfig {
  const raw = text(env, 'DH_PROVIDER') ?? 'embedded';
  const provider = DH_PROVIDERS.find((p) => p === raw);
  if (!provider) throw new Error(`DH_PROVIDER must be one of ${DH_PROVIDERS.join(', ')}`);
  const config = {
    provider,
    baseUrl: text(env, 'DH_BASE_URL'),
    apiKey: text(env, 'DH_API_KEY'),
    callbackSecret: text(env, 'DH_CALLBACK_SECRET'),
  };
  // The key and callback secret may come from the sealed settings instead: checked at use.
  if (provider === 'http' && !config.baseUrl) throw new Error('DH_PROVIDER=http needs DH_BASE_URL');
  return config;
}

export interface DouyinConfig {
  /** `DOUYIN_CLIENT_KEY`: the app's client_key; unset: no real Douyin. */
  clientKey: string | undefined;
  /** `DOUYIN_CLIENT_SECRET`, unless an admin set one in the sealed settings (which wins). */
  clientSecret: string | undefined;
  /** `DOUYIN_BASE_URL` (default `https://open.douyin.com`). */
  baseUrl: string;
}

function douyinConfig(env: Env): DouyinConfig {
  const baseUrl = (text(env, 'DOUYIN_BASE_URL') ?? 'https://open.douyin.com').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/i.test(baseUrl)) {
    throw new Error(`DOUYIN_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  }
  return {
    clientKey: text(env, 'DOUYIN_CLIENT_KEY'),
    clientSecret: text(env, 'DOUYIN_CLIENT_SECRET'),
    baseUrl,
  };
}

export const RENDER_PRESETS = ['ultrafast', 'veryfast', 'fast', 'medium'] as const;
export type RenderPreset = (typeof RENDER_PRESETS)[number];

function renderPreset(env: Env): RenderPreset {
  const raw = text(env, 'VIDEO_RENDER_PRESET') ?? 'veryfast';
  const preset = RENDER_PRESETS.find((p) => p === raw);
  if (!preset) throw new Error(`VIDEO_RENDER_PRESET must be one of ${RENDER_PRESETS.join(', ')}`);
  return preset;
}

export interface S3Config {
  /** `S3_ENDPOINT`: a non-AWS server (MinIO, a cloud's S3 API); unset: AWS itself. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Both or neither; neither: the SDK's default credentials (environment, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

function positiveNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number, got "${raw}"`);
  }
  return value;
}

/** An http(s) base URL without a trailing slash. */
function httpUrl(env: Env, name: string, fallback: string): string {
  const url = (text(env, name) ?? fallback).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/i.test(url))
    throw new Error(`${name} must be an http(s) URL, got "${url}"`);
  return url;
}

function text(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

const OFF = ['0', 'false', 'off', 'no'];
const ON = ['1', 'true', 'on', 'yes'];

/** An on/off variable: true, false, or undefined when unset (the default decides). */
function switchOf(env: Env, name: string): boolean | undefined {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return undefined;
  if (ON.includes(raw)) return true;
  if (OFF.includes(raw)) return false;
  throw new Error(`${name} must be 1 or 0, got "${env[name]}"`);
}

function s3Config(env: Env): S3Config | undefined {
  const bucket = text(env, 'S3_BUCKET');
  const names = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'];
  if (!bucket) {
    const stray = names.filter((name) => text(env, name));
    if (stray.length > 0) throw new Error(`${stray.join(', ')} set without S3_BUCKET`);
    return undefined;
  }
  if (bucket.length < 3) throw new Error('S3_BUCKET must be at least 3 characters');
  const endpoint = text(env, 'S3_ENDPOINT');
  if (endpoint && !/^https?:\/\/[^/]/i.test(endpoint)) {
    throw new Error(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  }
  const accessKeyId = text(env, 'S3_ACCESS_KEY');
  const secretAccessKey = text(env, 'S3_SECRET_KEY');
  if (!accessKeyId !== !secretAccessKey) {
    throw new Error('S3_ACCESS_KEY and S3_SECRET_KEY go together');
  }
  return {
    endpoint,
    bucket,
    region: text(env, 'S3_REGION') ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
  };
}

export function loadConfig(env: Env = process.env): Config {
  const port = positiveNumber(env, 'PORT', 8080);
  if (!Number.isInteger(port) || port > 65535) throw new Error(`PORT must be a port number`);
  return {
    port,
    host: text(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './data'),
    databaseUrl: text(env, 'DATABASE_URL'),
    demo: !OFF.includes((env.DEMO ?? '').trim().toLowerCase()),
    demoMedia: !OFF.includes((env.DEMO_MEDIA ?? '').trim().toLowerCase()),
    adminUsername: text(env, 'ADMIN_USERNAME'),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    sessionAbsoluteHours: positiveNumber(env, 'SESSION_ABSOLUTE_HOURS', 12),
    sessionIdleMinutes: positiveNumber(env, 'SESSION_IDLE_MINUTES', 120),
    overstepSessionMinutes: positiveNumber(env, 'OVERSTEP_SESSION_MINUTES', 60),
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
    staticDir: path.resolve(text(env, 'STATIC_DIR') ?? './dist'),
    paymentSandbox: switchOf(env, 'PAYMENT_SANDBOX'),
    paymentSandboxSecret: text(env, 'PAYMENT_SANDBOX_SECRET'),
    socialSandbox: switchOf(env, 'SOCIAL_SANDBOX'),
    socialSandboxSecret: text(env, 'SOCIAL_SANDBOX_SECRET'),
    socialSandboxUrl: text(env, 'SOCIAL_SANDBOX_URL')?.replace(/\/+$/, ''),
    douyin: douyinConfig(env),
    wechatPayBaseUrl: httpUrl(env, 'WECHATPAY_BASE_URL', 'https://api.mch.weixin.qq.com'),
    wechatApiBaseUrl: httpUrl(env, 'WECHAT_API_BASE_URL', 'https://api.weixin.qq.com'),
    redisUrl: text(env, 'REDIS_URL'),
    redisPrefix: text(env, 'REDIS_PREFIX'),
    worker: switchOf(env, 'WORKER') ?? true,
    workerProcesses: Math.floor(positiveNumber(env, 'WORKER_PROCESSES', 1)),
    jobsPollMs: positiveNumber(env, 'JOBS_POLL_MS', 1_000),
    fileUrlSecret: text(env, 'FILE_URL_SECRET'),
    s3: s3Config(env),
    videoTaskStallMs: positiveNumber(env, 'VIDEO_TASK_STALL_MS', 10 * 60_000),
    videoRenderPreset: renderPreset(env),
    matrixPublishLeaseMs: positiveNumber(env, 'MATRIX_PUBLISH_LEASE_MS', 10 * 60_000),
    matrixPublishConcurrency: positiveNumber(env, 'MATRIX_PUBLISH_CONCURRENCY', 16),
    matrixReviewPollMs: positiveNumber(env, 'MATRIX_REVIEW_POLL_MS', 30_000),
    videoRenderConcurrency: Math.floor(positiveNumber(env, 'VIDEO_RENDER_CONCURRENCY', 1)),
    digitalHuman: digitalHumanConfig(env),
    aiText: aiTextConfig(env),
    publicUrl: (text(env, 'PUBLIC_URL') ?? `http://127.0.0.1:${port}`).replace(/\/+$/, ''),
    secretsKeys: text(env, 'SECRETS_KEYS'),
    secretsKey: text(env, 'SECRETS_KEY'),
    auditStrict: false,
  };
}

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}
