import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/platform/config';
import { createFileStorage } from '../../server/platform/storage/create';
import { newFileKey } from '../../server/platform/storage/keys';
import { createS3Storage, s3Client } from '../../server/platform/storage/s3';
import { testClock, type TestClock } from './helpers';
import { startS3TestServer, type S3TestServer } from './s3-test-server';
import { storageContract } from './storage-contract';

// The S3 adapter against s3rver (random port, temp dir) behind the SigV4-checking front.
storageContract('S3-compatible (s3rver)', 's3', async () => {
  const clock = testClock(Date.now());
  const server = await startS3TestServer(clock);
  const client = s3Client(server.config);
  return {
    storage: createS3Storage(server.config, clock, client),
    clock,
    absolute: (url) => url,
    refusedStatus: 403,
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
});

describe('the S3 adapter, beyond the contract', () => {
  let clock: TestClock;
  let server: S3TestServer;
  let client: ReturnType<typeof s3Client>;
  beforeAll(async () => {
    clock = testClock(Date.now());
    server = await startS3TestServer(clock);
    client = s3Client(server.config);
  });
  afterAll(async () => {
    client.destroy();
    await server.close();
  });

  it('a URL signed two hours ago for one hour is refused by s3rver itself (its own clock)', async () => {
    const storage = createS3Storage(server.config, clock, client);
    const key = newFileKey('test');
    await storage.put(key, Buffer.from('old'), { contentType: 'image/png' });
    const real = Date.now();
    // Signed at the tests' clock, two hours back; the front checks against the same clock and
    // lets it through, s3rver compares with the real time.
    const past = createS3Storage(server.config, () => real - 2 * 3600_000, client);
    const { url } = await past.signedReadUrl(key, 3600);
    clock.advance(-2 * 3600_000);
    const reply = await fetch(url);
    clock.advance(2 * 3600_000);
    expect(reply.status).toBe(403);
    expect(await reply.text()).toContain('expired');
    expect((await fetch((await storage.signedReadUrl(key, 3600)).url)).status).toBe(200);
  });

  it('abort sends AbortMultipartUpload for that upload (s3rver has none: the front answers it)', async () => {
    const storage = createS3Storage(server.config, clock, client);
    const key = newFileKey('test');
    const grant = await storage.directUploads!.createMultipart(key, {
      contentType: 'video/mp4',
      size: 10,
    });
    await storage.directUploads!.abortMultipart(key, grant.uploadId);
    const aborts = server.seen.filter((line) => line.startsWith(`DELETE /test-bucket/${key}?`));
    expect(aborts).toHaveLength(1);
    expect(aborts[0]).toContain(`uploadId=${grant.uploadId}`);
    expect(await storage.exists(key)).toBe(false);
  });

  it('the signed read URL asks S3 to answer Cache-Control private for the URL’s life', async () => {
    const storage = createS3Storage(server.config, clock, client);
    const key = newFileKey('test');
    await storage.put(key, Buffer.from('x'), { contentType: 'image/png' });
    const reply = await fetch((await storage.signedReadUrl(key, 120)).url);
    expect(reply.headers.get('cache-control')).toBe('private, max-age=120');
  });
});

describe('the S3 settings (server/platform/config.ts)', () => {
  it('S3_BUCKET switches to S3; the region defaults to us-east-1; keys go together', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: 'media', S3_ENDPOINT: 'http://127.0.0.1:9000' }).s3).toEqual({
      bucket: 'media',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
    expect(
      loadConfig({
        S3_BUCKET: 'media',
        S3_REGION: 'cn-north-1',
        S3_ACCESS_KEY: 'a',
        S3_SECRET_KEY: 'b',
      }).s3,
    ).toMatchObject({
      region: 'cn-north-1',
      accessKeyId: 'a',
      secretAccessKey: 'b',
      endpoint: undefined,
    });
    expect(() => loadConfig({ S3_BUCKET: 'media', S3_ACCESS_KEY: 'a' })).toThrow(/go together/);
    expect(() => loadConfig({ S3_ENDPOINT: 'http://x' })).toThrow(/without S3_BUCKET/);
    expect(() => loadConfig({ S3_BUCKET: 'ab' })).toThrow(/at least 3/);
    expect(() => loadConfig({ S3_BUCKET: 'media', S3_ENDPOINT: 'minio:9000' })).toThrow(/http/);
  });

  it('the app stores files in S3 when S3_BUCKET is set, on local disk otherwise', async () => {
    const dataDir = '/nonexistent-data-dir';
    const s3 = createFileStorage(
      { ...loadConfig({ S3_BUCKET: 'media', S3_ENDPOINT: 'http://127.0.0.1:1' }), dataDir },
      Date.now,
    );
    expect(s3.kind).toBe('s3');
    expect(s3.directUploads).not.toBeNull();
    const local = createFileStorage(
      { ...loadConfig({ FILE_URL_SECRET: 'x'.repeat(32) }), dataDir },
      Date.now,
    );
    expect(local.kind).toBe('local');
  });
});
