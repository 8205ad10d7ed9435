import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { prepareDatabase } from '../../server/prepare';
import { holdsDemoData } from '../../server/modules/system/demo-data';
import { ASSETS } from '../../server/platform/db/schema';
import { BALANCE_COLUMN, postEntry } from '../../server/modules/ledger/repo';
import {
  DEMO_PASSWORD,
  createTestApp,
  createTestDatabase,
  engines,
  freePort,
  type TestApp,
  type TestDatabase,
  underMigrationLock,
} from './helpers';

describe.each(engines)('database and demo data on %s', (engine) => {
  let t: TestApp | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await t?.close();
    await database?.drop();
    t = undefined;
    database = undefined;
  });

  it('every balance equals the sum of its ledger rows, and each row chains before → after', async () => {
    t = await createTestApp(engine);
    const users = await t.db.selectFrom('users').selectAll().execute();
    const ledger = await t.db.selectFrom('ledger').selectAll().orderBy('id').execute();
    expect(ledger.length).toBeGreaterThan(0);
    for (const user of users) {
      for (const asset of ASSETS) {
        const rows = ledger.filter((r) => r.user_id === user.id && r.asset === asset);
        const balance = user[BALANCE_COLUMN[asset]];
        expect(
          rows.reduce((sum, r) => sum + r.change, 0),
          `${user.username} ${asset}`,
        ).toBe(balance);
        let running = 0;
        for (const row of rows) {
          expect(row.before).toBe(running);
          expect(row.after).toBe(row.before + row.change);
          running = row.after;
        }
      }
    }
    const partner = users.find((u) => u.username === 'partner')!;
    expect(partner.money).toBeGreaterThan(0);
    expect(partner.digital_man_seconds).toBeGreaterThan(0);
    expect(partner.voice_clone_count).toBeGreaterThan(0);
  });

  it('seeds the demo tree and branding', async () => {
    t = await createTestApp(engine);
    const users = await t.db.selectFrom('users').selectAll().orderBy('id').execute();
    const byName = Object.fromEntries(users.map((u) => [u.username, u]));
    expect(Object.keys(byName).sort()).toEqual(
      ['admin', 'agent', 'merchant', 'merchant2', 'partner', 'partner2'].sort(),
    );
    expect(new Set(users.map((u) => u.mobile)).size).toBe(6);
    expect(byName.merchant).toMatchObject({
      user_type: 2,
      service_id: byName.partner.id,
      agent_id: byName.agent.id,
      mobile: '13800000003',
    });
    expect(byName.merchant2.service_id).toBe(byName.partner2.id);
    expect(byName.agent).toMatchObject({ user_type: 3, service_id: byName.partner.id });
    expect(byName.partner).toMatchObject({
      service_id: byName.partner.id,
      service_prefix_no: 'PA',
    });
    expect(byName.partner2.service_prefix_no).toBe('PB');
    const domains = await t.db.selectFrom('domains').selectAll().execute();
    expect(domains.map((d) => [d.hostname, d.owner_id]).sort()).toEqual([
      ['127.0.0.1', byName.partner.id],
      ['localhost', byName.partner.id],
    ]);
  });

  it('a debit larger than the balance changes nothing (CHECK and conditional update)', async () => {
    t = await createTestApp(engine);
    const merchant = await t.user('merchant');
    const before = await t.db.selectFrom('ledger').select('id').execute();
    const result = await postEntry(t.db, {
      userId: merchant.id,
      asset: 'money',
      type: 'admin_adjust',
      change: -(merchant.money + 1),
      now: t.clock(),
    });
    expect(result).toBeUndefined();
    expect((await t.user('merchant')).money).toBe(merchant.money);
    expect(await t.db.selectFrom('ledger').select('id').execute()).toEqual(before);
    await expect(
      t.db.updateTable('users').set({ money: -1 }).where('id', '=', merchant.id).execute(),
    ).rejects.toThrow();
  });

  it('migrations run once; preparing again keeps the data', async () => {
    database = await createTestDatabase(engine);
    const config = { demo: true, adminUsername: undefined, adminPassword: undefined };
    const { handle } = database;
    await underMigrationLock(engine, async () => {
      await prepareDatabase(handle, config);
      await migrateToLatest(handle.db, handle.engine);
      await prepareDatabase(handle, config);
    });
    const users = await database.handle.db.selectFrom('users').select('username').execute();
    expect(users).toHaveLength(6);
    expect(await holdsDemoData(handle.db)).toBe(true);
  });

  it('without demo data the first admin comes from ADMIN_USERNAME / ADMIN_PASSWORD', async () => {
    database = await createTestDatabase(engine);
    const { handle } = database;
    const prepare = (adminUsername?: string, adminPassword?: string) =>
      underMigrationLock(engine, () =>
        prepareDatabase(handle, { demo: false, adminUsername, adminPassword }),
      );
    await expect(prepare()).rejects.toThrow(/ADMIN_USERNAME and ADMIN_PASSWORD/);
    await expect(prepare('root', 'weak')).rejects.toThrow(/ADMIN_PASSWORD/);
    await prepare('root', 'Root#2026');
    await prepare('other', 'Other#2026');
    const users = await handle.db.selectFrom('users').select(['username', 'user_type']).execute();
    expect(users).toEqual([{ username: 'root', user_type: 0 }]);
    const settings = await handle.db
      .selectFrom('platform_config')
      .select(['name', 'value'])
      .execute();
    expect(settings.find((s) => s.name === 'register_open')?.value).toBe('0');
    expect(settings.find((s) => s.name === 'money_name')?.value).toBe('余额');
    // Not demo data: the sandbox payment provider stays off unless PAYMENT_SANDBOX=1.
    expect(await holdsDemoData(handle.db)).toBe(false);
  });
});

interface ProcessInfo {
  pid: number;
  cmdline: string[];
  /** Its niceness (field 19 of /proc/<pid>/stat). */
  nice: number;
}

/** `pid` and its descendants, from /proc. */
async function processTree(pid: number): Promise<ProcessInfo[]> {
  const out: ProcessInfo[] = [];
  const visit = async (id: number) => {
    const stat = await fs.readFile(`/proc/${id}/stat`, 'utf8');
    const cmdline = (await fs.readFile(`/proc/${id}/cmdline`, 'utf8')).split('\0');
    out.push({
      pid: id,
      cmdline,
      nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]),
    });
    for (const task of await fs.readdir(`/proc/${id}/task`)) {
      const children = await fs.readFile(`/proc/${id}/task/${task}/children`, 'utf8');
      for (const child of children.split(' ').filter(Boolean)) await visit(Number(child));
    }
  };
  await visit(pid);
  return out;
}

/** Whether `pid` runs (a zombie, dead but not yet reaped, does not). */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `tsx server/main.ts` and resolves with the first line matching `until`, or the exit. */
function startServer(env: Record<string, string>, until: RegExp) {
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<{ line?: string; code?: number | null }>((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => until.test(l));
      if (line) resolve({ line });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => resolve({ code }));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.on('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { ready, stop, output: () => output, pid: child.pid! };
}

describe('server/main.ts', () => {
  let dataDir: string;
  afterEach(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  // The server renders the demo media before it listens: about 10 s quiet, far more under load.
  it('migrates and seeds a fresh data dir, then serves the API on HOST:PORT', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-main-'));
    const port = String(await freePort());
    const server = startServer(
      {
        DATA_DIR: dataDir,
        PORT: port,
        HOST: '127.0.0.1',
        STATIC_DIR: dataDir,
        DEMO: '',
        DATABASE_URL: '',
        WORKER_PROCESSES: '2',
      },
      /listening on/,
    );
    try {
      const started = await server.ready;
      expect(started.line, server.output()).toBe(`listening on http://127.0.0.1:${port}`);
      const reply = await fetch(`http://127.0.0.1:${port}/api/v1/platform/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'admin', password: DEMO_PASSWORD }),
      });
      const body = (await reply.json()) as { code: number; data: { userinfo: { token: string } } };
      expect(body.code).toBe(1);
      expect(body.data.userinfo.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await expect(fs.stat(path.join(dataDir, 'app.db'))).resolves.toBeTruthy();

      // Its job workers (WORKER_PROCESSES=2): server/worker.ts in child processes, niceness +10,
      // running jobs (the recurring ones: matrix-dispatch every second), gone when the server is
      // killed -9.
      const tree = await processTree(server.pid);
      // tsx's command line, then the node process it starts (pre-order: the last of the two).
      const main = tree.filter((p) => p.cmdline.includes('server/main.ts')).at(-1);
      const workers = tree.filter((p) => p.cmdline.some((arg) => arg.endsWith('server/worker.ts')));
      expect(main, JSON.stringify(tree)).toBeDefined();
      expect(workers, JSON.stringify(tree)).toHaveLength(2);
      for (const worker of workers) expect(worker.nice).toBe(main!.nice + 10);
      const db = new BetterSqlite3(path.join(dataDir, 'app.db'), { readonly: true });
      try {
        await waitFor(
          () =>
            (
              db.prepare("select count(*) as n from jobs where state = 'completed'").get() as {
                n: number;
              }
            ).n > 0,
          // Two workers start through tsx (seconds of CPU each) on a machine maybe busy.
          60_000,
        );
      } finally {
        db.close();
      }
      process.kill(main!.pid, 'SIGKILL');
      for (const worker of workers) await waitFor(async () => !(await alive(worker.pid)));
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('buildApp without a database opens, migrates and later closes the configured one', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-main-'));
    const app = await buildApp({
      logger: false,
      config: { dataDir, staticDir: dataDir, databaseUrl: undefined },
    });
    try {
      const reply = await app.inject({
        method: 'GET',
        url: '/api/v1/platform/get_system_info?domain=localhost',
      });
      expect(reply.json()).toMatchObject({ code: 1, data: { money_name: '余额' } });
    } finally {
      await app.close();
    }
    await expect(app.ctx.db.selectFrom('users').select('id').execute()).rejects.toThrow();
  });

  it('refuses to start with DEMO=0 and no admin configured, saying what to set', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-main-'));
    const server = startServer(
      {
        DATA_DIR: dataDir,
        PORT: '39999',
        DEMO: '0',
        ADMIN_USERNAME: '',
        ADMIN_PASSWORD: '',
        DATABASE_URL: '',
      },
      /ADMIN_USERNAME/,
    );
    try {
      const result = await server.ready;
      expect(result.line ?? server.output()).toMatch(/set ADMIN_USERNAME and ADMIN_PASSWORD/);
    } finally {
      await server.stop();
    }
  });
});
