import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRange } from '../../server/platform/http/byte-range';
import { loggableUrl } from '../../server/platform/http/request-log';
import { newFileKey } from '../../server/platform/storage/keys';
import { createTestApp, type TestApp } from './helpers';

/**
 * GET /api/v1/files/<key>?exp&sig through the real app (local disk): ranges for seeking, the
 * headers of a stored file, refusals that all look like a missing file, and a log without the
 * signature.
 */
describe('signed file URLs of the local disk (GET /api/v1/files/…)', () => {
  let t: TestApp;
  const lines: string[] = [];
  const EN = { lang: 'en-US' };
  const DIGITS = Buffer.from('0123456789');

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp('sqlite', { seed: false, logger: { level: 'info', stream } });
  });
  afterAll(async () => {
    await t.close();
  });

  async function stored(data: Buffer, contentType: string, filename?: string) {
    const key = newFileKey('test');
    await t.app.ctx.storage.put(key, data, { contentType, filename });
    const { url } = await t.app.ctx.storage.signedReadUrl(key, 600);
    return { key, url };
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.call('GET', url, { headers: { ...EN, ...headers } });

  it('a signed URL holds the key, the expiry and the signature: no session token', async () => {
    const { key, url } = await stored(DIGITS, 'video/mp4');
    expect(url).toMatch(new RegExp(`^/api/v1/files/${key}\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    expect(Number(new URL(url, 'http://x').searchParams.get('exp')) * 1000).toBe(
      t.clock() + 600_000,
    );
  });

  it('serves the whole file with its type, length, Accept-Ranges, nosniff, inline disposition, private cache until expiry', async () => {
    const { url } = await stored(DIGITS, 'video/mp4', '第一集 "pilot".mp4');
    const reply = await get(url);
    expect(reply.status).toBe(200);
    expect(reply.raw).toBe('0123456789');
    expect(reply.headers['content-type']).toBe('video/mp4');
    expect(reply.headers['content-length']).toBe('10');
    expect(reply.headers['accept-ranges']).toBe('bytes');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['content-disposition']).toBe(
      `inline; filename="___ _pilot_.mp4"; filename*=UTF-8''%E7%AC%AC%E4%B8%80%E9%9B%86%20%22pilot%22.mp4`,
    );
    expect(reply.headers['cache-control']).toBe('private, max-age=600');
    t.clock.advance(100_000);
    expect((await get(url)).headers['cache-control']).toBe('private, max-age=500');
  });

  it('serves anything but media as an attachment, and never compressed', async () => {
    const text = Buffer.from('a line of text\n'.repeat(500));
    const { url } = await stored(text, 'text/plain; charset=utf-8', 'notes.txt');
    const reply = await get(url, { 'accept-encoding': 'br, gzip' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(reply.headers['content-disposition']).toBe(
      `attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`,
    );
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.headers['content-length']).toBe(String(text.length));
    expect(reply.raw).toBe(text.toString());
    const image = await stored(DIGITS, 'image/png');
    expect((await get(image.url)).headers['content-disposition']).toMatch(/^inline; filename="/);
    const audio = await stored(DIGITS, 'audio/mpeg');
    expect((await get(audio.url)).headers['content-disposition']).toMatch(/^inline; /);
    const pdf = await stored(DIGITS, 'application/pdf');
    expect((await get(pdf.url)).headers['content-disposition']).toMatch(/^attachment; /);
  });

  it('answers ranges with 206 and Content-Range, so a player seeks', async () => {
    const { url } = await stored(DIGITS, 'video/mp4');
    const cases: [string, string, string][] = [
      ['bytes=2-5', '2345', 'bytes 2-5/10'],
      ['bytes=7-', '789', 'bytes 7-9/10'],
      ['bytes=-3', '789', 'bytes 7-9/10'],
      ['bytes=-30', '0123456789', 'bytes 0-9/10'],
      ['bytes=8-100', '89', 'bytes 8-9/10'],
      ['bytes=0-0', '0', 'bytes 0-0/10'],
      ['bytes=9-9', '9', 'bytes 9-9/10'],
    ];
    for (const [range, body, contentRange] of cases) {
      const reply = await get(url, { range });
      expect(reply.status, range).toBe(206);
      expect(reply.raw, range).toBe(body);
      expect(reply.headers['content-range'], range).toBe(contentRange);
      expect(reply.headers['content-length'], range).toBe(String(body.length));
      expect(reply.headers['accept-ranges'], range).toBe('bytes');
      expect(reply.headers['content-type'], range).toBe('video/mp4');
    }
  });

  it('ignores ranges it does not serve (several, malformed, another unit): the whole file, 200', async () => {
    const { url } = await stored(DIGITS, 'video/mp4');
    for (const range of ['bytes=0-1,4-5', 'bytes=5-2', 'items=0-1', 'bytes=a-b', 'bytes=-']) {
      const reply = await get(url, { range });
      expect(reply.status, range).toBe(200);
      expect(reply.raw, range).toBe('0123456789');
      expect(reply.headers['content-range'], range).toBeUndefined();
    }
  });

  it('answers 416 with Content-Range bytes */size for a range past the end, and for any range of an empty file', async () => {
    const { url } = await stored(DIGITS, 'video/mp4');
    for (const range of ['bytes=10-', 'bytes=10-20', 'bytes=-0']) {
      const reply = await get(url, { range });
      expect(reply.status, range).toBe(416);
      expect(reply.headers['content-range'], range).toBe('bytes */10');
      expect(reply.headers['cache-control'], range).toBe('no-store');
      expect(reply.body, range).toEqual({
        code: 0,
        msg: 'The requested range is outside the file',
        data: null,
      });
    }
    const empty = await stored(Buffer.alloc(0), 'video/mp4');
    const whole = await get(empty.url);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-length']).toBe('0');
    const ranged = await get(empty.url, { range: 'bytes=0-' });
    expect(ranged.status).toBe(416);
    expect(ranged.headers['content-range']).toBe('bytes */0');
  });

  it('answers a wrong, tampered or expired URL exactly like a missing file: 404, the envelope, no-store', async () => {
    const { key, url } = await stored(DIGITS, 'video/mp4');
    const other = await stored(Buffer.from('other'), 'video/mp4');
    const missingKey = newFileKey('test');
    const missing = (await t.app.ctx.storage.signedReadUrl(missingKey, 600)).url;
    const sig = new URL(url, 'http://x').searchParams.get('sig')!;
    const exp = new URL(url, 'http://x').searchParams.get('exp')!;
    const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    const refused = {
      missing,
      'another key': url.replace(key, other.key),
      'changed signature': url.replace(sig, flipped),
      'later expiry': url.replace(`exp=${exp}`, `exp=${Number(exp) + 60}`),
      'no signature': url.replace(`&sig=${sig}`, ''),
      'no expiry': url.replace(`exp=${exp}&`, ''),
      'expiry not a number': url.replace(`exp=${exp}`, `exp=${exp}.5`),
      'signature twice': `${url}&sig=${sig}`,
      'not a key': url.replace(key, `${key}/..`),
    };
    const expected = { code: 0, msg: 'Not found', data: null };
    for (const [why, bad] of Object.entries(refused)) {
      const reply = await get(bad);
      expect(reply.status, why).toBe(404);
      expect(reply.body, why).toEqual(expected);
      expect(reply.headers['cache-control'], why).toBe('no-store');
      expect(reply.headers['content-disposition'], why).toBeUndefined();
    }
    expect((await get(url)).status).toBe(200);
    t.clock.advance(600_000);
    const expired = await get(url, { range: 'bytes=0-1' });
    expect(expired.status).toBe(404);
    expect(expired.body).toEqual(expected);
  });

  it('needs no session and ignores one', async () => {
    const { url } = await stored(DIGITS, 'image/png');
    expect((await t.call('GET', url)).status).toBe(200);
    expect((await t.call('GET', url, { token: 'not-a-session' })).status).toBe(200);
  });

  it('is gone once the file is deleted', async () => {
    const { key, url } = await stored(DIGITS, 'image/png');
    await t.app.ctx.storage.delete(key);
    expect((await get(url)).status).toBe(404);
  });

  it('logs the request without the signature', async () => {
    const { key, url } = await stored(DIGITS, 'image/png');
    const sig = new URL(url, 'http://x').searchParams.get('sig')!;
    await get(url);
    await get(url.replace(sig, `${sig.slice(0, -1)}x`));
    const logged = lines.join('');
    expect(logged).toContain(`/api/v1/files/${key}?exp=`);
    expect(logged).toContain('&sig=[redacted]');
    expect(logged).not.toContain(sig);
    expect(logged).not.toContain(sig.slice(0, -1));
  });
});

describe('parseRange and loggableUrl', () => {
  it('parseRange follows RFC 9110 for one byte range', () => {
    expect(parseRange(undefined, 10)).toBeUndefined();
    expect(parseRange('bytes=0-4', 10)).toEqual({ start: 0, end: 4 });
    expect(parseRange(' bytes=3-3 ', 10)).toEqual({ start: 3, end: 3 });
    expect(parseRange('bytes=4-', 10)).toEqual({ start: 4, end: 9 });
    expect(parseRange('bytes=-4', 10)).toEqual({ start: 6, end: 9 });
    expect(parseRange('bytes=-40', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=5-99', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-1', 0)).toBe('unsatisfiable');
    for (const ignored of ['bytes=5-4', 'bytes=1-2,4-5', 'bytes=-', 'pages=1-2', 'bytes=x-']) {
      expect(parseRange(ignored, 10), ignored).toBeUndefined();
    }
  });

  it('loggableUrl redacts a file URL’s sig and keeps its exp', () => {
    expect(loggableUrl('/api/v1/files/a/b?exp=123&sig=SECRET')).toBe(
      '/api/v1/files/a/b?exp=123&sig=[redacted]',
    );
  });
});
