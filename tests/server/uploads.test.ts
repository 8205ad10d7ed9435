import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STORAGE_QUOTA_BYTES } from '../../src/api/contract/resources';
import { AppError } from '../../server/platform/http/errors';
import { t as translate } from '../../server/platform/i18n';
import { checkUpload, claimUpload } from '../../server/modules/uploads/check-upload';
import { sniffType } from '../../server/modules/uploads/media-probe';
import { createTestApp, engines, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { EN, filesUnder, grant, grantHeader, tusCall, uploadBytes, zipOf } from './upload-helpers';

const MB = 1024 * 1024;

/** The refusal checkUpload throws, in English (as the caller's reply would carry it). */
async function refusalOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return translate('en-US', error.messageId, error.params);
    throw error;
  }
  throw new Error('not refused');
}

describe.each(engines)('uploads on local disk (%s)', (engine) => {
  let t: TestApp;
  let partner: string;
  let merchant: string;
  let partnerId: number;
  const filesDir = () => path.join(t.dataDir, 'files');
  const tusDir = () => path.join(t.dataDir, 'tus');

  beforeAll(async () => {
    t = await createTestApp(engine);
    partner = await t.login('partner');
    merchant = await t.login('merchant');
    partnerId = (await t.user('partner')).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const uploadRow = (uploadKey: string) =>
    t.db
      .selectFrom('uploads')
      .selectAll()
      .where('upload_key', '=', uploadKey)
      .executeTakeFirstOrThrow();

  describe('accepted files: probed, with a poster', () => {
    const cases = [
      {
        file: 'clip.mp4',
        type: 'video',
        width: 1280,
        height: 720,
        ms: 2000,
        codec: 'h264',
        poster: [480, 270],
      },
      {
        file: 'clip.mov',
        type: 'intro',
        width: 320,
        height: 240,
        ms: 500,
        codec: 'h264',
        poster: [320, 240],
      },
      {
        file: 'photo.png',
        type: 'image',
        width: 640,
        height: 360,
        ms: null,
        codec: 'png',
        poster: [480, 270],
      },
      {
        file: 'photo.jpg',
        type: 'sticker',
        width: 1024,
        height: 768,
        ms: null,
        codec: 'mjpeg',
        poster: [480, 360],
      },
      {
        file: 'photo.webp',
        type: 'image',
        width: 300,
        height: 200,
        ms: null,
        codec: 'webp',
        poster: [300, 200],
      },
      {
        file: 'tone.mp3',
        type: 'bgm',
        width: null,
        height: null,
        ms: 1500,
        codec: 'mp3',
        poster: null,
      },
      {
        file: 'tone.wav',
        type: 'audio',
        width: null,
        height: null,
        ms: 1000,
        codec: 'pcm_s16le',
        poster: null,
      },
    ] as const;
    for (const c of cases) {
      it(`${c.file} as ${c.type}`, async () => {
        const bytes = await fixtureBytes(c.file);
        const key = await uploadBytes(t, partner, c.type, `素材 ${c.file}`, bytes);
        expect((await uploadRow(key)).state).toBe('uploaded');
        const checked = await checkUpload(t.app.ctx, partnerId, key);
        expect(checked).toMatchObject({
          type: c.type,
          name: `素材 ${c.file}`,
          size: bytes.length,
          width: c.width,
          height: c.height,
          codec: c.codec,
        });
        if (c.ms === null) expect(checked.durationMs).toBeNull();
        else expect(Math.abs(checked.durationMs! - c.ms)).toBeLessThan(120);
        const stored = await t.app.ctx.storage.stat(checked.storageKey);
        expect(stored?.size).toBe(bytes.length);
        expect(stored?.contentType).toBe(checked.contentType);
        if (c.poster === null) {
          expect(checked.posterKey).toBeNull();
        } else {
          expect(checked.posterKey).toMatch(/^posters\/\d{6}\/[0-9a-f]{32}$/);
          const poster = t.app.ctx.storage.localFiles!.path(checked.posterKey!);
          expect(await sniffType(poster)).toBe('image/webp');
          expect((await t.app.ctx.storage.stat(checked.posterKey!))?.contentType).toBe(
            'image/webp',
          );
        }
        // An upload becomes at most one resource.
        expect(await claimUpload(t.db, checked.uploadId)).toBe(true);
        expect(await claimUpload(t.db, checked.uploadId)).toBe(false);
        expect(await refusalOf(checkUpload(t.app.ctx, partnerId, key))).toBe('Unknown upload');
      });
    }

    it('a font (TrueType) when the machine has one', async () => {
      const font = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
      const bytes = await fs.readFile(font).catch(() => undefined);
      if (!bytes) return;
      const key = await uploadBytes(t, merchant, 'font', 'DejaVuSans.ttf', bytes);
      const checked = await checkUpload(t.app.ctx, (await t.user('merchant')).id, key);
      expect(checked).toMatchObject({ contentType: 'font/ttf', posterKey: null, durationMs: null });
    });
  });

  describe('refused files: 100 % refused, with the reason, nothing kept', () => {
    const elf = Buffer.concat([
      Buffer.from('7f454c46020101000000000000000000', 'hex'),
      Buffer.alloc(4000, 1),
    ]);
    const pe = Buffer.alloc(4096);
    pe.write('MZ', 0);
    pe.writeUInt32LE(0x80, 0x3c);
    pe.write('PE\0\0', 0x80, 'latin1');
    const svg = Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
    );
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

    // file, type, name, refusal (English)
    const table: [string, () => Promise<Buffer>, string, string, string][] = [
      [
        'an ELF executable renamed .mp4',
        async () => elf,
        'video',
        'setup.mp4',
        'The file is not a .mp4 .mov file (its content was checked)',
      ],
      [
        'a Windows executable renamed .mp4',
        async () => pe,
        'video',
        'setup.mp4',
        'The file is not a .mp4 .mov file (its content was checked)',
      ],
      [
        'an SVG with a script renamed .png',
        async () => svg,
        'image',
        'logo.png',
        'The file is not a .jpg .jpeg .png .webp file (its content was checked)',
      ],
      [
        'an HTML page renamed .jpg',
        async () => html,
        'sticker',
        'page.jpg',
        'The file is not a .jpg .jpeg .png .webp file (its content was checked)',
      ],
      [
        'an HTML page renamed .mp3',
        async () => html,
        'audio',
        'page.mp3',
        'The file is not a .mp3 .wav .m4a file (its content was checked)',
      ],
      [
        'a JPEG with a ZIP archive appended (polyglot)',
        async () => Buffer.concat([await fixtureBytes('photo.jpg'), zipOf('payload.html', html)]),
        'image',
        'cat.jpg',
        'The file has another file (an archive) hidden inside it',
      ],
      [
        'a PNG with an empty ZIP end record appended',
        async () =>
          Buffer.concat([
            await fixtureBytes('photo.png'),
            Buffer.from('504b0506000000000000000000000000000000000000', 'hex'),
          ]),
        'image',
        'cat.png',
        'The file has another file (an archive) hidden inside it',
      ],
      [
        'a PNG named .jpg (wrong extension)',
        () => fixtureBytes('photo.png'),
        'image',
        'photo.jpg',
        'The file’s content does not match its extension .jpg',
      ],
      [
        'an MP3 named .wav (wrong extension)',
        () => fixtureBytes('tone.mp3'),
        'audio',
        'tone.wav',
        'The file’s content does not match its extension .wav',
      ],
      [
        'a video uploaded as audio',
        () => fixtureBytes('clip.mp4'),
        'bgm',
        'clip.m4a',
        'The file is not a .mp3 .wav .m4a file (its content was checked)',
      ],
      [
        'an MP4 without a video stream',
        () => fixtureBytes('sound-only.mp4'),
        'video',
        'sound.mp4',
        'No video stream was found in the file',
      ],
      [
        'a truncated MP4 (header, then garbage)',
        async () =>
          Buffer.concat([(await fixtureBytes('clip.mp4')).subarray(0, 64), Buffer.alloc(5000, 7)]),
        'video',
        'broken.mp4',
        'The file could not be read as media',
      ],
    ];

    for (const [what, bytesOf, type, name, message] of table) {
      it(what, async () => {
        const bytes = await bytesOf();
        const key = await uploadBytes(t, partner, type, name, bytes);
        const row = await uploadRow(key);
        expect(await t.app.ctx.storage.exists(row.storage_key)).toBe(true);
        expect(await refusalOf(checkUpload(t.app.ctx, partnerId, key))).toBe(message);
        const after = await uploadRow(key);
        expect(after.state).toBe('refused');
        expect(after.refused_reason).toMatch(/^upload\./);
        // Nothing kept: not in the storage, not under the files dir, not in the tus dir.
        expect(await t.app.ctx.storage.exists(row.storage_key)).toBe(false);
        expect(await filesUnder(filesDir())).not.toContain(row.storage_key);
        expect((await filesUnder(tusDir())).filter((f) => f.startsWith(key))).toEqual([]);
        // No resource possible from it.
        expect(await refusalOf(checkUpload(t.app.ctx, partnerId, key))).toBe('Unknown upload');
        expect(await claimUpload(t.db, row.id)).toBe(false);
      });
    }

    it('refuses in the caller’s locale (zh-CN by default)', async () => {
      const key = await uploadBytes(t, partner, 'video', 'setup.mp4', elf);
      try {
        await checkUpload(t.app.ctx, partnerId, key);
        throw new Error('not refused');
      } catch (error) {
        const e = error as AppError;
        expect(translate('zh-CN', e.messageId, e.params)).toBe(
          '文件不是 .mp4 .mov 格式（已检查文件内容）',
        );
      }
    });

    it('refuses names with a path or control characters, and extensions the type does not take, before anything starts', async () => {
      const cases: [string, string, string][] = [
        [
          'video',
          '../../etc/passwd.mp4',
          'The file name must not contain a path (/ or \\) or invisible control characters',
        ],
        [
          'video',
          '..\\..\\boot.mp4',
          'The file name must not contain a path (/ or \\) or invisible control characters',
        ],
        [
          'video',
          'clips/a.mp4',
          'The file name must not contain a path (/ or \\) or invisible control characters',
        ],
        [
          'video',
          'evil\u202Egpj.mp4',
          'name: Must not contain invisible characters (such as text-direction marks or zero-width spaces)',
        ],
        [
          'video',
          'next\u0085line.mp4',
          'name: Must not contain invisible characters (such as text-direction marks or zero-width spaces)',
        ],
        ['video', 'bell\u0007.mp4', 'name: Must not contain control characters (such as NUL)'],
        ['video', 'nul\u0000.mp4', 'name: Must not contain control characters (such as NUL)'],
        ['image', 'logo.svg', 'This type accepts only .jpg .jpeg .png .webp files'],
        ['video', 'page.html', 'This type accepts only .mp4 .mov files'],
        ['video', 'setup.exe', 'This type accepts only .mp4 .mov files'],
        ['video', 'noextension', 'This type accepts only .mp4 .mov files'],
        ['audio', 'clip.mp4', 'This type accepts only .mp3 .wav .m4a files'],
      ];
      const before = await t.db.selectFrom('uploads').select('id').execute();
      for (const [type, name, message] of cases) {
        const reply = await grant(t, partner, { type, name, size: 1000 });
        expect(reply.status, name).toBe(200);
        expect(reply.body, name).toEqual({ code: 0, msg: message, data: null });
      }
      expect(await t.db.selectFrom('uploads').select('id').execute()).toHaveLength(before.length);
    });

    it('refuses an oversize declared size per type, before anything starts', async () => {
      const cases: [string, number, string][] = [
        ['video', 500 * MB + 1, 'The file is too large: at most 500 MB for this type'],
        ['image', 10 * MB + 1, 'The file is too large: at most 10 MB for this type'],
        ['audio', 50 * MB + 1, 'The file is too large: at most 50 MB for this type'],
        ['font', 30 * MB + 1, 'The file is too large: at most 30 MB for this type'],
      ];
      for (const [type, size, message] of cases) {
        const ext = { video: 'mp4', image: 'png', audio: 'mp3', font: 'ttf' }[type];
        const reply = await grant(t, partner, { type, name: `big.${ext}`, size });
        expect(reply.body, type).toEqual({ code: 0, msg: message, data: null });
        const atLimit = await grant(t, partner, { type, name: `big.${ext}`, size: size - 1 });
        expect(atLimit.body.code, type).toBe(1);
        // Given up at once: its declared size stops counting.
        const { upload_key, tus } = atLimit.body.data;
        const gone = await tusCall(t, 'POST', tus!.endpoint, {
          ...tus!.headers,
          'upload-length': String(size - 1),
        });
        expect(gone.status).toBe(201);
        const deleted = await tusCall(t, 'DELETE', String(gone.headers.location), tus!.headers);
        expect(deleted.status).toBe(204);
        expect((await uploadRow(upload_key)).state).toBe('expired');
      }
    });

    it('refuses more bytes than declared (tus length) and a stored size other than declared', async () => {
      const bytes = await fixtureBytes('photo.png');
      const granted = (
        await grant(t, partner, { type: 'image', name: 'p.png', size: bytes.length - 10 })
      ).body.data;
      const created = await tusCall(t, 'POST', granted.tus!.endpoint, {
        ...granted.tus!.headers,
        'upload-length': String(bytes.length),
      });
      expect(created.status).toBe(400);
      expect(created.body?.msg).toBe(
        `The uploaded file is ${bytes.length} bytes, not the ${bytes.length - 10} bytes declared`,
      );
      // Right length, then more bytes than the length in a PATCH: tus refuses them.
      const ok = await tusCall(t, 'POST', granted.tus!.endpoint, {
        ...granted.tus!.headers,
        'upload-length': String(bytes.length - 10),
      });
      expect(ok.status).toBe(201);
      const tooMuch = await tusCall(
        t,
        'PATCH',
        String(ok.headers.location),
        {
          ...granted.tus!.headers,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        bytes,
      );
      expect(tooMuch.status).toBeGreaterThanOrEqual(400);
      expect(tooMuch.status).toBeLessThan(500);
      expect((await uploadRow(granted.upload_key)).state).toBe('pending');
      expect(await refusalOf(checkUpload(t.app.ctx, partnerId, granted.upload_key))).toBe(
        'The upload has not finished yet',
      );

      // A stored file whose size is not the declared one (bytes changed under it) is refused.
      const key = await uploadBytes(t, partner, 'image', 'q.png', bytes);
      const row = await uploadRow(key);
      await fs.appendFile(t.app.ctx.storage.localFiles!.path(row.storage_key), 'more');
      expect(await refusalOf(checkUpload(t.app.ctx, partnerId, key))).toBe(
        `The uploaded file is ${bytes.length + 4} bytes, not the ${bytes.length} bytes declared`,
      );
      expect(await t.app.ctx.storage.exists(row.storage_key)).toBe(false);
    });

    it('refuses over the quota at the grant, and again when the upload is checked', async () => {
      const agentMerchant = await t.user('merchant');
      const token = merchant;
      const quota = async () =>
        (await t.get<{ used: number; quota: number }>('/upload/quota', undefined, token)).body.data;
      const start = await quota();
      expect(start.quota).toBe(DEFAULT_STORAGE_QUOTA_BYTES);
      const bytes = await fixtureBytes('photo.jpg');
      await t.db
        .updateTable('users')
        .set({ storage_quota_bytes: start.used + bytes.length + 100 })
        .where('id', '=', agentMerchant.id)
        .execute();

      const key = await uploadBytes(t, token, 'image', 'one.jpg', bytes);
      expect((await quota()).used).toBe(start.used + bytes.length);
      // A second file does not fit while the first counts.
      const second = await grant(t, token, { type: 'image', name: 'two.jpg', size: bytes.length });
      expect(second.body.code).toBe(0);
      expect(second.body.msg).toMatch(
        /^Not enough storage space: the file needs \d+(\.\d)? KB, \d+ B of \d+(\.\d)? KB is left$/,
      );

      // The quota shrinks after the grant: the check refuses and deletes the file.
      const row = await uploadRow(key);
      await t.db
        .updateTable('users')
        .set({ storage_quota_bytes: start.used + 10 })
        .where('id', '=', agentMerchant.id)
        .execute();
      expect(await refusalOf(checkUpload(t.app.ctx, agentMerchant.id, key))).toMatch(
        /^Not enough storage space/,
      );
      expect(await t.app.ctx.storage.exists(row.storage_key)).toBe(false);
      expect((await quota()).used).toBe(start.used);

      // Shrunk while the bytes arrive: the last PATCH is refused and nothing is kept.
      await t.db
        .updateTable('users')
        .set({ storage_quota_bytes: start.used + bytes.length })
        .where('id', '=', agentMerchant.id)
        .execute();
      const granted = (
        await grant(t, token, { type: 'image', name: 'late.jpg', size: bytes.length })
      ).body.data;
      const created = await tusCall(t, 'POST', granted.tus!.endpoint, {
        ...granted.tus!.headers,
        'upload-length': String(bytes.length),
      });
      await t.db
        .updateTable('users')
        .set({ storage_quota_bytes: start.used + 10 })
        .where('id', '=', agentMerchant.id)
        .execute();
      const last = await tusCall(
        t,
        'PATCH',
        String(created.headers.location),
        {
          ...granted.tus!.headers,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        bytes,
      );
      expect(last.status).toBe(403);
      expect(last.body?.code).toBe(0);
      expect(last.body?.msg).toMatch(/^Not enough storage space/);
      const lateRow = await uploadRow(granted.upload_key);
      expect(lateRow.state).toBe('refused');
      expect(await t.app.ctx.storage.exists(lateRow.storage_key)).toBe(false);
      expect((await filesUnder(tusDir())).filter((f) => f.startsWith(granted.upload_key))).toEqual(
        [],
      );

      // The platform default applies without an override; a partner's quota leaves out its merchants'.
      await t.db
        .updateTable('users')
        .set({ storage_quota_bytes: null })
        .where('id', '=', agentMerchant.id)
        .execute();
      await t.db
        .updateTable('platform_config')
        .set({ value: String(5 * MB) })
        .where('name', '=', 'storage_quota_bytes')
        .execute();
      expect((await quota()).quota).toBe(5 * MB);
      const partnerUse = (await t.get<{ used: number }>('/upload/quota', undefined, partner)).body
        .data.used;
      await uploadBytes(t, token, 'image', 'three.jpg', bytes);
      expect(
        (await t.get<{ used: number }>('/upload/quota', undefined, partner)).body.data.used,
      ).toBe(partnerUse);
      await t.db
        .updateTable('platform_config')
        .set({ value: String(DEFAULT_STORAGE_QUOTA_BYTES) })
        .where('name', '=', 'storage_quota_bytes')
        .execute();
    });

    it('refuses another owner’s upload exactly like an unknown one', async () => {
      const key = await uploadBytes(
        t,
        partner,
        'image',
        'mine.png',
        await fixtureBytes('photo.png'),
      );
      const merchantId = (await t.user('merchant')).id;
      expect(await refusalOf(checkUpload(t.app.ctx, merchantId, key))).toBe('Unknown upload');
      expect(await refusalOf(checkUpload(t.app.ctx, merchantId, 'x'.repeat(32)))).toBe(
        'Unknown upload',
      );
      expect((await uploadRow(key)).state).toBe('uploaded');
    });
  });

  describe('the tus grant', () => {
    it('is refused when missing, tampered, expired or for another upload (never a 5xx)', async () => {
      const bytes = await fixtureBytes('photo.webp');
      const a = (await grant(t, partner, { type: 'image', name: 'a.webp', size: bytes.length }))
        .body.data;
      const b = (await grant(t, partner, { type: 'image', name: 'b.webp', size: bytes.length }))
        .body.data;
      const endpoint = a.tus!.endpoint;
      expect(endpoint).toBe('/api/v1/upload/tus');
      const length = { 'upload-length': String(bytes.length) };
      const token = grantHeader(a);
      expect(token).not.toBe(partner);

      const missing = await tusCall(t, 'POST', endpoint, length);
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({
        code: 0,
        msg: 'The upload permission is invalid or has expired: start the upload again',
        data: null,
      });
      const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      expect(
        (await tusCall(t, 'POST', endpoint, { ...length, 'upload-grant': flipped })).status,
      ).toBe(401);
      const [payload, sig] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, s: bytes.length * 2 })).toString(
        'base64url',
      );
      expect(
        (await tusCall(t, 'POST', endpoint, { ...length, 'upload-grant': `${forged}.${sig}` }))
          .status,
      ).toBe(401);
      expect(
        (await tusCall(t, 'POST', endpoint, { ...length, 'upload-grant': partner })).status,
      ).toBe(401);

      const created = await tusCall(t, 'POST', endpoint, { ...length, 'upload-grant': token });
      expect(created.status).toBe(201);
      const location = String(created.headers.location);
      expect(location).toBe(`/api/v1/upload/tus/${a.upload_key}`);
      // B's grant on A's upload, and A's grant on B's: as if missing.
      const patch = { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' };
      const crossed = await tusCall(
        t,
        'PATCH',
        location,
        { ...patch, 'upload-grant': grantHeader(b) },
        bytes,
      );
      expect(crossed.status).toBe(404);
      expect(crossed.body?.msg).toBe('Unknown upload');
      expect(
        (await tusCall(t, 'HEAD', `${endpoint}/${b.upload_key}`, { 'upload-grant': token })).status,
      ).toBe(404);
      // A second creation would truncate what arrived: refused.
      expect(
        (await tusCall(t, 'POST', endpoint, { ...length, 'upload-grant': token })).status,
      ).toBe(409);

      // Half now, the rest after a HEAD.
      const half = Math.floor(bytes.length / 2);
      const first = await tusCall(
        t,
        'PATCH',
        location,
        { ...patch, 'upload-grant': token },
        bytes.subarray(0, half),
      );
      expect(first.status).toBe(204);
      const head = await tusCall(t, 'HEAD', location, { 'upload-grant': token });
      expect(head.headers['upload-offset']).toBe(String(half));

      // An hour later the grant is expired.
      t.clock.advance(3600 * 1000);
      const late = await tusCall(
        t,
        'PATCH',
        location,
        { ...patch, 'upload-offset': String(half), 'upload-grant': token },
        bytes.subarray(half),
      );
      expect(late.status).toBe(401);
      t.clock.advance(-3600 * 1000);
      const rest = await tusCall(
        t,
        'PATCH',
        location,
        { ...patch, 'upload-offset': String(half), 'upload-grant': token },
        bytes.subarray(half),
      );
      expect(rest.status).toBe(204);
      expect((await uploadRow(a.upload_key)).state).toBe('uploaded');
      // Finished: HEAD still tells the whole length (a reloaded page resumes to "done").
      const done = await tusCall(t, 'HEAD', location, { 'upload-grant': token });
      expect(done.status).toBe(200);
      expect(done.headers['upload-offset']).toBe(String(bytes.length));
      expect(await filesUnder(path.join(t.dataDir, 'tus'))).not.toContain(a.upload_key);
    });
  });

  describe('POST /upload/oss_upload (one small file, multipart form)', () => {
    const form = (parts: { name: string; value: Buffer | string; filename?: string }[]) => {
      const boundary = '----vc-test-boundary';
      const chunks: Buffer[] = [];
      for (const part of parts) {
        const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
        const type = part.filename ? 'Content-Type: application/octet-stream\r\n' : '';
        chunks.push(
          Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`),
        );
        chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
        chunks.push(Buffer.from('\r\n'));
      }
      chunks.push(Buffer.from(`--${boundary}--\r\n`));
      return {
        payload: Buffer.concat(chunks),
        contentType: `multipart/form-data; boundary=${boundary}`,
      };
    };
    const send = async (parts: Parameters<typeof form>[0], token = partner) => {
      const { payload, contentType } = form(parts);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/upload/oss_upload',
        headers: { token, 'content-type': contentType, ...EN },
        payload,
      });
      return {
        status: response.statusCode,
        body: response.json() as {
          code: number;
          msg: string;
          data: { upload_key: string; size: number };
        },
      };
    };

    it('stores the file and answers its key and size; the check passes', async () => {
      const bytes = await fixtureBytes('photo.png');
      const reply = await send([
        { name: 'type', value: 'image' },
        { name: 'file', value: bytes, filename: '截图.png' },
      ]);
      expect(reply.body.code).toBe(1);
      expect(reply.body.data.size).toBe(bytes.length);
      expect((await uploadRow(reply.body.data.upload_key)).state).toBe('uploaded');
      const checked = await checkUpload(t.app.ctx, partnerId, reply.body.data.upload_key);
      expect(checked.name).toBe('截图.png');
    });

    it('refuses a file over 10 MB (and keeps nothing), a missing type, a bad name', async () => {
      const filesBefore = await filesUnder(filesDir());
      const big = await send([
        { name: 'type', value: 'video' },
        { name: 'file', value: Buffer.alloc(10 * MB + 1, 1), filename: 'big.mp4' },
      ]);
      expect(big.status).toBe(200);
      expect(big.body).toMatchObject({
        code: 0,
        msg: 'The file is too large: at most 10 MB for this type',
      });
      const bigImage = await send([
        { name: 'type', value: 'image' },
        { name: 'file', value: Buffer.alloc(10 * MB + 1, 1), filename: 'big.png' },
      ]);
      expect(bigImage.body.msg).toBe('The file is too large: at most 10 MB for this type');
      const noType = await send([
        { name: 'file', value: Buffer.from('x'), filename: 'a.png' },
        { name: 'type', value: 'image' },
      ]);
      expect(noType.body).toMatchObject({ code: 0, msg: 'Choose a resource type' });
      const noFile = await send([{ name: 'type', value: 'image' }]);
      expect(noFile.body).toMatchObject({ code: 0, msg: 'Choose a file to upload' });
      const path = await send([
        { name: 'type', value: 'image' },
        { name: 'file', value: Buffer.from('x'), filename: '../a.png' },
      ]);
      expect(path.body.msg).toBe(
        'The file name must not contain a path (/ or \\) or invisible control characters',
      );
      expect(await filesUnder(filesDir())).toEqual(filesBefore);
    });
  });

  it('sweeps uploads unfinished 24 hours after they began: bytes deleted, state expired', async () => {
    const bytes = await fixtureBytes('photo.png');
    const granted = (
      await grant(t, partner, { type: 'image', name: 'left.png', size: bytes.length })
    ).body.data;
    const created = await tusCall(t, 'POST', granted.tus!.endpoint, {
      ...granted.tus!.headers,
      'upload-length': String(bytes.length),
    });
    await tusCall(
      t,
      'PATCH',
      String(created.headers.location),
      {
        ...granted.tus!.headers,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      bytes.subarray(0, 100),
    );
    expect(await filesUnder(path.join(t.dataDir, 'tus'))).toContain(granted.upload_key);
    const done = await uploadBytes(t, partner, 'image', 'done.png', bytes);
    const doneRow = await uploadRow(done);
    const { expireUploads } = await import('../../server/modules/uploads/sweep');
    t.clock.advance(23 * 3600 * 1000);
    await expireUploads(t.app.ctx);
    expect((await uploadRow(granted.upload_key)).state).toBe('pending');
    t.clock.advance(3600 * 1000 + 1);
    expect(await expireUploads(t.app.ctx)).toBeGreaterThanOrEqual(2);
    expect((await uploadRow(granted.upload_key)).state).toBe('expired');
    expect((await uploadRow(done)).state).toBe('expired');
    expect(
      (await filesUnder(path.join(t.dataDir, 'tus'))).filter((f) =>
        f.startsWith(granted.upload_key),
      ),
    ).toEqual([]);
    expect(await t.app.ctx.storage.exists(doneRow.storage_key)).toBe(false);
    t.clock.advance(-(24 * 3600 * 1000 + 1));
  });
});
