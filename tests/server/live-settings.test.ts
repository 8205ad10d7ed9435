import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { refreshAccount } from '../../server/modules/matrix/tokens';
import { openDatabase, type DbHandle } from '../../server/platform/db/connection';
import { s3Client } from '../../server/platform/storage/s3';
import { api, createTestApp, engines, type TestApp } from './helpers';
import { sandboxWorld, type SandboxWorld } from './matrix-fixtures';
import { startS3TestServer, type S3TestServer } from './s3-test-server';
import { grant } from './upload-helpers';

/**
 * Values of the system init settings take effect without a restart and win over the environment
 * (docs/domain.md §System init "Taking effect"): the object storage switched to an s3rver bucket
 * and back, files already stored read where they were written, a second API on the same database
 * following within its bound; the Douyin client_key seen by the sandbox platform's token calls.
 */
const EN = { lang: 'en-US' };

/** The storage group's values naming the test server's bucket. */
const bucketValues = (s3: S3TestServer) => ({
  endpoint: s3.config.endpoint!,
  bucket: s3.config.bucket,
  region: s3.config.region,
  access_key: s3.config.accessKeyId!,
  secret_key: s3.config.secretAccessKey!,
});
const bytes = (text: string) => Buffer.from(text, 'utf8');

async function body(read: { body: NodeJS.ReadableStream } | null): Promise<string> {
  if (!read) return '(none)';
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe.each(engines)('the object storage of the settings on %s', (engine) => {
  let s3: S3TestServer;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3TestServer(Date.now);
  });
  afterAll(async () => {
    await s3?.close();
  });
  afterEach(async () => {
    await t?.close();
  });

  it('new files go to the bucket set, old ones are read where they were written, and back', async () => {
    t = await createTestApp(engine);
    // s3rver checks presigned URLs against the real time: the app's clock starts now.
    t.clock.advance(Date.now() - t.clock());
    const admin = await t.login('admin');
    const merchant = await t.login('merchant');
    const storage = t.app.ctx.storage;
    const setStorage = (values: Record<string, string>, clear: string[] = []) =>
      t.call('POST', api('/init_config/set_config'), {
        token: admin,
        body: { group: 'storage', values, clear },
        headers: EN,
      });
    const inBucket = (key: string) =>
      s3Client(s3.config)
        .send(new HeadObjectCommand({ Bucket: s3.config.bucket, Key: key }))
        .then(
          () => true,
          () => false,
        );
    const onDisk = (key: string) =>
      stat(storage.localFiles!.path(key)).then(
        () => true,
        () => false,
      );

    // Nothing set: the environment's local disk, tus uploads.
    await storage.put('live/before.txt', bytes('written before the switch'), {
      contentType: 'text/plain',
    });
    expect(await onDisk('live/before.txt')).toBe(true);
    expect(
      (await grant(t, merchant, { type: 'image', name: 'a.png', size: 1000 })).body.data,
    ).toMatchObject({ method: 'tus' });
    expect(await storage.inUse()).toEqual({ place: 'environment' });
    expect(await storage.mayBeElsewhere()).toBe(false);

    const { endpoint, bucket } = s3.config;
    const saved = await setStorage({
      ...bucketValues(s3),
    });
    expect(saved.body.code, saved.raw).toBe(1);

    // The next file goes to the bucket, at once, without a restart.
    expect(await storage.inUse()).toMatchObject({ place: 'settings', bucket });
    await storage.put('live/after.txt', bytes('written after the switch'), {
      contentType: 'text/plain',
    });
    expect(await inBucket('live/after.txt')).toBe(true);
    expect(await onDisk('live/after.txt')).toBe(false);
    expect(s3.seen.some((line) => line.startsWith(`PUT /${bucket}/live/after.txt`))).toBe(true);
    // Uploads are granted by the bucket (presigned multipart), no longer by tus.
    expect(
      (await grant(t, merchant, { type: 'image', name: 'b.png', size: 1000 })).body.data,
    ).toMatchObject({ method: 'multipart' });

    // Both read, each where it was written: by the API and through their signed URLs.
    expect(await body(await storage.get('live/before.txt'))).toBe('written before the switch');
    expect(await body(await storage.get('live/after.txt'))).toBe('written after the switch');
    const local = await storage.signedReadUrl('live/before.txt');
    expect(local.url.startsWith('/api/v1/files/')).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: local.url })).body).toBe(
      'written before the switch',
    );
    const remote = await storage.signedReadUrl('live/after.txt');
    expect(remote.url.startsWith(`${endpoint}/${bucket}/live/after.txt?`)).toBe(true);
    expect(await (await fetch(remote.url)).text()).toBe('written after the switch');

    // Cleared: new files go to the environment's disk again; the bucket's file is still read there.
    await setStorage({}, ['endpoint', 'bucket', 'region', 'access_key', 'secret_key']);
    expect(await storage.inUse()).toEqual({ place: 'environment' });
    await storage.put('live/back.txt', bytes('written after clearing'), {
      contentType: 'text/plain',
    });
    expect(await onDisk('live/back.txt')).toBe(true);
    expect(await inBucket('live/back.txt')).toBe(false);
    expect(await body(await storage.get('live/after.txt'))).toBe('written after the switch');
    expect(await storage.exists('live/after.txt')).toBe(true);
    // A delete removes it where it is.
    await storage.delete('live/after.txt');
    expect(await inBucket('live/after.txt')).toBe(false);
    expect(await storage.exists('live/after.txt')).toBe(false);
    // A key written again goes where new files go now, and is read there.
    await storage.put('live/again.txt', bytes('in the bucket'), { contentType: 'text/plain' });
    expect(await onDisk('live/again.txt')).toBe(true);
    await setStorage({
      ...bucketValues(s3),
    });
    expect(await storage.inUse()).toMatchObject({ place: 'settings', bucket });
    await storage.put('live/again.txt', bytes('written again'), { contentType: 'text/plain' });
    expect(await inBucket('live/again.txt')).toBe(true);
    expect(await body(await storage.get('live/again.txt'))).toBe('written again');
    await setStorage({}, ['endpoint', 'bucket', 'region', 'access_key', 'secret_key']);
    await storage.put('live/again.txt', bytes('and back'), { contentType: 'text/plain' });
    expect(await body(await storage.get('live/again.txt'))).toBe('and back');
    expect(await storage.localPath('live/again.txt')).toBe(
      storage.localFiles!.path('live/again.txt'),
    );
    expect(await readFile(storage.localFiles!.path('live/before.txt'), 'utf8')).toBe(
      'written before the switch',
    );
  });

  it("the bucket's files are handed out through the CDN, the server's own reads and other files not", async () => {
    t = await createTestApp(engine);
    t.clock.advance(Date.now() - t.clock());
    const admin = await t.login('admin');
    const storage = t.app.ctx.storage;
    const { endpoint, bucket } = s3.config;
    const cdn = await startCdn(`${endpoint}/${bucket}`);
    try {
      await storage.put('cdn/local.txt', bytes('on the disk'), { contentType: 'text/plain' });
      const saved = await t.call('POST', api('/init_config/set_config'), {
        token: admin,
        body: {
          group: 'storage',
          values: {
            ...bucketValues(s3),
            cdn_base: cdn.base,
          },
          clear: [],
        },
        headers: EN,
      });
      expect(saved.body.code, saved.raw).toBe(1);
      await storage.put('cdn/in-bucket.txt', bytes('in the bucket'), { contentType: 'text/plain' });

      // A URL handed out: the CDN's, carrying the bucket's signature, which the bucket checks.
      const handed = await storage.signedReadUrl('cdn/in-bucket.txt');
      expect(handed.url.startsWith(`${cdn.base}cdn/in-bucket.txt?X-Amz-`)).toBe(true);
      expect(await (await fetch(handed.url)).text()).toBe('in the bucket');
      expect(cdn.served).toHaveLength(1);
      // Tampered, the bucket refuses it behind the CDN too.
      const tampered = handed.url.replace('in-bucket', 'other');
      expect((await fetch(tampered)).status).toBe(403);
      // The server's own read (a render's input): the bucket itself.
      const direct = await storage.signedReadUrl('cdn/in-bucket.txt', 60, { direct: true });
      expect(direct.url.startsWith(`${endpoint}/${bucket}/cdn/in-bucket.txt?`)).toBe(true);
      // A file of the environment's storage is not behind that CDN.
      expect((await storage.signedReadUrl('cdn/local.txt')).url.startsWith('/api/v1/files/')).toBe(
        true,
      );
      // The CDN base cleared: the bucket's own address again, at once.
      await t.call('POST', api('/init_config/set_config'), {
        token: admin,
        body: { group: 'storage', values: {}, clear: ['cdn_base'] },
        headers: EN,
      });
      const after = await storage.signedReadUrl('cdn/in-bucket.txt');
      expect(after.url.startsWith(`${endpoint}/${bucket}/cdn/in-bucket.txt?`)).toBe(true);
    } finally {
      await cdn.close();
    }
  });
});

/**
 * A CDN in front of the bucket, as one is set up: its origin the bucket's address, the path and
 * the query string forwarded. Counts what it served.
 */
async function startCdn(
  origin: string,
): Promise<{ base: string; served: string[]; close(): Promise<void> }> {
  const served: string[] = [];
  const server = createServer((request, reply) => {
    served.push(request.url ?? '');
    fetch(`${origin}${request.url}`).then(
      async (upstream) => {
        reply.writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? '',
        });
        reply.end(Buffer.from(await upstream.arrayBuffer()));
      },
      () => reply.writeHead(502).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/`,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(engines)('the storage settings in another process on %s', (engine) => {
  let s3: S3TestServer;
  let t: TestApp;
  let other: FastifyInstance | undefined;
  let otherHandle: DbHandle | undefined;
  beforeAll(async () => {
    s3 = await startS3TestServer(Date.now);
  });
  afterAll(async () => {
    await s3?.close();
  });
  afterEach(async () => {
    await other?.close();
    await otherHandle?.close();
    await t?.close();
  });

  it('a second API on the same database follows a switch within its bound', async () => {
    t = await createTestApp(engine);
    t.clock.advance(Date.now() - t.clock());
    const admin = await t.login('admin');
    const { databaseUrl, pgSchema } = t;
    otherHandle = openDatabase({ dataDir: t.dataDir, databaseUrl, pgSchema });
    const TTL = 300;
    other = await buildApp({
      logger: false,
      db: otherHandle,
      now: t.clock,
      storagePlaceTtlMs: TTL,
      config: { dataDir: t.dataDir, staticDir: t.dataDir, redisUrl: undefined },
    });
    const theirs = other.ctx.storage;
    // It resolved the storage in use (and keeps it) before the change.
    expect(await theirs.inUse()).toEqual({ place: 'environment' });

    const saved = await t.call('POST', api('/init_config/set_config'), {
      token: admin,
      body: {
        group: 'storage',
        values: {
          ...bucketValues(s3),
        },
      },
      headers: EN,
    });
    expect(saved.body.code, saved.raw).toBe(1);
    const switchedAt = Date.now();
    // SQLite: every commit of another connection is seen at once; PostgreSQL: within the bound.
    await expect
      .poll(async () => (await theirs.inUse()).place, { timeout: TTL + 2_000, interval: 50 })
      .toBe('settings');
    if (engine === 'sqlite') expect(Date.now() - switchedAt).toBeLessThan(TTL);

    // A file this process wrote to the bucket is read by the other one from there.
    await t.app.ctx.storage.put('live/shared.txt', bytes('one bucket, two processes'), {
      contentType: 'text/plain',
    });
    expect(await body(await theirs.get('live/shared.txt'))).toBe('one bucket, two processes');
    expect(await theirs.localPath('live/shared.txt')).toBeNull();
  });
});

describe.each(engines)('the Douyin client_key of the settings on %s', (engine) => {
  let world: SandboxWorld;
  afterEach(async () => {
    await world?.t.close();
  });
  const SECRET = 'sandbox-live-secret-2718281828';

  it('is the one the next authorisation and refresh send, without a restart', async () => {
    // The real Douyin adapter pointed at our sandbox platform: on only while a key is in use.
    world = await sandboxWorld(engine, { config: { socialSandboxSecret: SECRET } }, (base) => ({
      douyin: {
        clientKey: undefined,
        clientSecret: undefined,
        baseUrl: `${base}/sandbox-platform`,
      },
    }));
    const { t } = world;
    const admin = await t.login('admin');
    const merchant = await t.login('merchant');
    const setDouyin = (values: Record<string, string>) =>
      t.call('POST', api('/init_config/set_config'), {
        token: admin,
        body: { group: 'douyin', values },
        headers: EN,
      });
    const accounts = await world.sandboxAccounts();
    const openId = accounts[0].open_id;

    // No key: the embedded sandbox adapter binds (a test account).
    expect(await t.app.ctx.integrations.social.douyin()).toBeUndefined();

    // A wrong key saved: the platform refuses its authorisation page at once.
    expect((await setDouyin({ client_key: 'not_the_app', client_secret: SECRET })).body.code).toBe(
      1,
    );
    const refused = await world.authUrl(merchant);
    expect(new URL(refused).searchParams.get('client_key')).toBe('not_the_app');
    expect((await fetch(refused)).status).not.toBe(200);

    // The right key: bound through the Douyin adapter (not the sandbox one).
    await setDouyin({ client_key: 'sandbox' });
    const id = await world.bind(openId, merchant);
    const row = await t.db
      .selectFrom('matrix_accounts')
      .select(['sandbox', 'open_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ sandbox: 0, open_id: openId });

    // The token calls carry the key in use: a changed one is refused by the platform's
    // refresh_token call (10013), the right one accepted again — no restart in between.
    const expire = () =>
      t.db.updateTable('matrix_accounts').set({ expires_at: 0 }).where('id', '=', id).execute();
    await setDouyin({ client_key: 'not_the_app' });
    await expire();
    expect(await refreshAccount(t.app.ctx, id, { force: true })).toMatchObject({
      kind: 'failed',
      status: 'normal',
    });
    await setDouyin({ client_key: 'sandbox' });
    expect(await refreshAccount(t.app.ctx, id, { force: true })).toMatchObject({ kind: 'done' });
    const refreshed = await t.db
      .selectFrom('matrix_accounts')
      .select('expires_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(refreshed.expires_at)).toBeGreaterThan(0);
  });
});
