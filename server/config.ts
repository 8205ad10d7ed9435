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
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  sessionAbsoluteHours: number;
  sessionIdleMinutes: number;
  overstepSessionMinutes: number;
  logLevel: string;
  /** The built console (Vite's `dist/`); served with an SPA fallback when it exists. */
  staticDir: string;
  /**
   * The embedded sandbox payment provider (default on; `PAYMENT_SANDBOX=0` turns it off once a
   * real provider is configured: sandbox payments credit balances without real money).
   */
  paymentSandbox: boolean;
  /** HMAC key of the sandbox's notifications; default a random one kept in DATA_DIR. */
  paymentSandboxSecret: string | undefined;
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

function text(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

export function loadConfig(env: Env = process.env): Config {
  const port = positiveNumber(env, 'PORT', 8080);
  if (!Number.isInteger(port) || port > 65535) throw new Error(`PORT must be a port number`);
  return {
    port,
    host: text(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './data'),
    databaseUrl: text(env, 'DATABASE_URL'),
    demo: !['0', 'false', 'off', 'no'].includes((env.DEMO ?? '').trim().toLowerCase()),
    adminUsername: text(env, 'ADMIN_USERNAME'),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    sessionAbsoluteHours: positiveNumber(env, 'SESSION_ABSOLUTE_HOURS', 12),
    sessionIdleMinutes: positiveNumber(env, 'SESSION_IDLE_MINUTES', 120),
    overstepSessionMinutes: positiveNumber(env, 'OVERSTEP_SESSION_MINUTES', 60),
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
    staticDir: path.resolve(text(env, 'STATIC_DIR') ?? './dist'),
    paymentSandbox: !['0', 'false', 'off', 'no'].includes(
      (env.PAYMENT_SANDBOX ?? '').trim().toLowerCase(),
    ),
    paymentSandboxSecret: text(env, 'PAYMENT_SANDBOX_SECRET'),
  };
}

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}
