import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferRecord } from '../../src/api/contract/money';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { reconcile } from '../../server/modules/ledger/reconcile';
import type { Engine } from '../../server/platform/db/dialect';
import { createScratchDatabase, DEMO_PASSWORD, freePort } from './helpers';
import { serverArgs } from './server-bundle';

/**
 * Crash safety: the real server process is killed with SIGKILL in the middle of a
 * stream of transfers, ten times, and restarted on the same database. Every transfer it
 * acknowledged must still be there, requests left without an answer can be sent again with their
 * idempotency key without running twice, and the money invariants hold.
 *
 * One file per engine (money-crash-sqlite / money-crash-postgres): each half is two minutes of a
 * busy CI machine, and two files run side by side in the test pool where one file ran them in turn.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const CYCLES = 10;
const WORKERS = 8;

interface Op {
  key: string;
  body: { to_user_id: number; asset: 'money'; amount: string; direction: 'give' | 'take' };
}

export function defineMoneyCrashSuite(engine: Engine): void {
  describe(`kill -9 under load on ${engine}`, () => {
    let dataDir: string;
    let databaseUrl: string | undefined;
    let dropDatabase: (() => Promise<void>) | undefined;
    let child: ChildProcess | undefined;
    let port: number;

    beforeAll(async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-crash-'));
      port = await freePort();
      if (engine === 'postgres') {
        ({ databaseUrl, drop: dropDatabase } = await createScratchDatabase('crash'));
      }
    });

    afterAll(async () => {
      child?.kill('SIGKILL');
      await dropDatabase?.();
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    async function start(): Promise<void> {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        STATIC_DIR: path.join(dataDir, 'no-console'),
        LOG_LEVEL: 'error',
        DEMO: '1',
        // The demo users and money, without the demo library's media and clones (no call here
        // uses them; rendering them took most of the first start).
        DEMO_MEDIA: '0',
        DATABASE_URL: databaseUrl ?? '',
      };
      child = spawn(process.execPath, serverArgs('main'), {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      // The first start migrates and seeds the demo data (no media: DEMO_MEDIA=0).
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/platform/get_system_info`);
          if (res.ok) return;
        } catch {
          // not listening yet
        }
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('server did not start');
    }

    async function kill(): Promise<void> {
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
    }

    async function call<T>(
      url: string,
      body: unknown,
      token?: string,
      key?: string,
    ): Promise<{ code: number; msg: string; data: T }> {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1${url}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          lang: 'en-US',
          ...(token ? { token } : {}),
          ...(key ? { 'idempotency-key': key } : {}),
        },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { code: number; msg: string; data: T };
    }

    it(`${CYCLES} kills mid-load lose no acknowledged transfer and keep every invariant`, async () => {
      await start();
      const login = await call<{ userinfo: { token: string; accountId?: number } }>(
        '/platform/login',
        { account: 'partner', password: DEMO_PASSWORD },
      );
      const token = login.data.userinfo.token;
      const merchantLogin = await call<{ userinfo: { token: string } }>('/platform/login', {
        account: 'merchant',
        password: DEMO_PASSWORD,
      });
      const me = await fetch(`http://127.0.0.1:${port}/api/v1/platform/get_user_info`, {
        method: 'POST',
        headers: { token: merchantLogin.data.userinfo.token },
      });
      const merchantId = ((await me.json()) as { data: { accountId: number } }).data.accountId;

      const acknowledged = new Map<string, TransferRecord>();
      const unanswered = new Map<string, Op>();
      let seq = 0;
      const nextOp = (): Op => {
        seq += 1;
        const cents = 1 + ((seq * 7919) % 5000);
        return {
          key: `crash-${engine}-${seq}`,
          body: {
            to_user_id: merchantId,
            asset: 'money',
            amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
            direction: seq % 3 === 0 ? 'take' : 'give',
          },
        };
      };

      for (let cycle = 0; cycle < CYCLES; cycle += 1) {
        if (cycle > 0) await start();
        let stop = false;
        const worker = async () => {
          while (!stop) {
            const op = nextOp();
            unanswered.set(op.key, op);
            try {
              const reply = await call<TransferRecord>(
                '/platform/transfer',
                op.body,
                token,
                op.key,
              );
              unanswered.delete(op.key);
              if (reply.code === 1) acknowledged.set(op.key, reply.data);
              else expect(reply.msg).toBe('Insufficient balance');
            } catch {
              return; // the server died under this request: it stays unanswered
            }
          }
        };
        const workers = Array.from({ length: WORKERS }, worker);
        // Kill once this cycle has acknowledged some transfers (a busy machine may need seconds
        // to get there), at a varying point after that: always mid-load, never before it.
        const before = acknowledged.size;
        const deadline = Date.now() + 30_000;
        while (acknowledged.size < before + 6 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20));
        }
        await new Promise((r) => setTimeout(r, (cycle * 137) % 300));
        await kill();
        stop = true;
        await Promise.all(workers);
      }
      expect(acknowledged.size).toBeGreaterThan(CYCLES * 5);

      // After the last crash: every request left unanswered is sent again with its key.
      await start();
      const retried = new Map<string, TransferRecord>();
      for (const op of unanswered.values()) {
        const reply = await call<TransferRecord>('/platform/transfer', op.body, token, op.key);
        if (reply.code === 1) retried.set(op.key, reply.data);
        else expect(reply.msg).toBe('Insufficient balance');
      }
      // The same keys again: each answered with the stored reply, nothing runs twice.
      for (const [key, record] of [...acknowledged].slice(0, 20)) {
        const op = { ...nextOp(), key };
        const body = { ...op.body, amount: record.amount, direction: 'give' as const };
        const original = record.from_user_id === merchantId ? { ...body, direction: 'take' } : body;
        const again = await call<TransferRecord>('/platform/transfer', original, token, key);
        expect(again).toMatchObject({ code: 1, data: record });
      }
      await kill();

      const handle: DbHandle = openDatabase({ dataDir, databaseUrl });
      try {
        const rows = await handle.db
          .selectFrom('transfers')
          .select(['transfer_no', 'amount', 'from_user_id', 'to_user_id', 'remark'])
          .execute();
        // The demo data's own transfers are there from the start.
        const stored = new Map(
          rows.filter((r) => r.remark !== 'demo transfer').map((r) => [r.transfer_no, r]),
        );
        for (const record of acknowledged.values()) {
          const row = stored.get(record.transfer_no);
          expect(row, record.transfer_no).toBeDefined();
          expect(row?.from_user_id).toBe(record.from_user_id);
          expect(row?.to_user_id).toBe(record.to_user_id);
        }
        // Exactly the acknowledged and the retried ones exist: nothing lost, nothing doubled.
        const expected = new Set(
          [...acknowledged.values(), ...retried.values()].map((r) => r.transfer_no),
        );
        expect(new Set(stored.keys())).toEqual(expected);
        expect(await reconcile(handle.db)).toEqual([]);
      } finally {
        await handle.close();
      }
    }, 360_000);
  });
}
