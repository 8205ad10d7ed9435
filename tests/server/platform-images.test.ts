import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Article } from '../../src/api/contract/content';
import type { Domain } from '../../src/api/contract/domains';
import type { PlatformImage } from '../../src/api/contract/platform-images';
import type { SystemInfo } from '../../src/api/contract/system';
import {
  sweepUnusedImages,
  UNUSED_IMAGE_GRACE_MS,
} from '../../server/modules/uploads/sweep-images';
import { createS3Storage } from '../../server/platform/storage/s3';
import { api, createTestApp, engines, snapshot, type Reply, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { startS3TestServer, type S3TestServer } from './s3-test-server';
import { filesUnder, uploadPlatformImage, zipOf } from './upload-helpers';

/**
 * Platform images (docs/domain.md §8 "Platform images"): the admin uploads a domain's logo and
 * favicon, the admin and partners their content images; the bytes are checked (not the name), the
 * purpose's size is a cap, a partner's images count against its quota, and an image serves anyone
 * at its address — the login page (`get_system_info`) shows it. A refused upload or use changes
 * nothing and leaves no file.
 */
vi.setConfig({ testTimeout: 60_000 });

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script></svg>',
);
const TEXT = Buffer.from('just some text, not an image\n');
const IMAGE_URL = /^\/api\/v1\/images\/[0-9a-f]{32}\.(png|jpg|webp|ico)$/;

describe.each(engines)('platform images on %s', (engine) => {
  let t: TestApp;
  let tokens: Record<'admin' | 'partner' | 'partner2' | 'merchant' | 'agent', string>;
  let media: Record<'png' | 'jpg' | 'webp' | 'ico' | 'noise', Buffer>;

  beforeAll(async () => {
    media = {
      png: await fixtureBytes('photo.png'),
      jpg: await fixtureBytes('photo.jpg'),
      webp: await fixtureBytes('photo.webp'),
      ico: await fixtureBytes('icon.ico'),
      noise: await fixtureBytes('noise.png'),
    };
  });
  beforeEach(async () => {
    t = await createTestApp(engine);
    const names = ['admin', 'partner', 'partner2', 'merchant', 'agent'] as const;
    const logged = await Promise.all(names.map((name) => t.login(name)));
    tokens = Object.fromEntries(names.map((name, i) => [name, logged[i]])) as typeof tokens;
  });
  afterEach(() => t.close());

  const upload = (who: keyof typeof tokens | null, purpose: string, name: string, bytes: Buffer) =>
    uploadPlatformImage(t, who ? tokens[who] : undefined, purpose, name, bytes);

  async function uploaded(who: keyof typeof tokens, purpose: string, name: string, bytes: Buffer) {
    const reply = await upload(who, purpose, name, bytes);
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  }

  const post = <T>(who: keyof typeof tokens, url: string, body: unknown, host = 'platform.test') =>
    t.call<T>('POST', api(url), {
      token: tokens[who],
      body,
      headers: { lang: 'en-US', host },
    });

  const files = () => filesUnder(path.join(t.dataDir, 'files'));
  const imageRows = () => t.db.selectFrom('platform_images').selectAll().execute();

  /** A refused call: its message, and nothing changed (rows, audit, stored files). */
  async function refusedWithoutChange(
    call: () => Promise<Reply<unknown>>,
    status: number,
    msg: string,
  ) {
    const before = await snapshot(t.db);
    const stored = await files();
    const reply = await call();
    expect(reply.status, reply.raw).toBe(status);
    expect(reply.body).toMatchObject({ code: 0, msg });
    expect(await snapshot(t.db)).toEqual(before);
    expect(await files()).toEqual(stored);
  }

  it('the admin uploads a logo and a favicon; a domain uses them; the login page’s call and anyone read them', async () => {
    const logo = await uploaded('admin', 'logo', 'Brand Logo.png', media.png);
    expect(logo).toMatchObject({
      purpose: 'logo',
      content_type: 'image/png',
      size: media.png.length,
      width: 640,
      height: 360,
    });
    expect(logo.url).toMatch(IMAGE_URL);
    expect(logo.url.endsWith('.png')).toBe(true);
    const favicon = await uploaded('admin', 'favicon', 'favicon.ico', media.ico);
    expect(favicon).toMatchObject({ content_type: 'image/x-icon', width: 32, height: 32 });
    expect(favicon.url.endsWith('.ico')).toBe(true);
    // A JPEG logo is served as .jpg whatever its extension's spelling.
    expect((await uploaded('admin', 'logo', 'a.JPEG', media.jpg)).url.endsWith('.jpg')).toBe(true);

    const rows = await imageRows();
    expect(rows.map((r) => [Number(r.owner_id), r.purpose])).toEqual([
      [0, 'logo'],
      [0, 'favicon'],
      [0, 'logo'],
    ]);
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'upload.platform_image')
      .where('result', '=', 'ok')
      .execute();
    expect(audit).toHaveLength(3);
    expect(JSON.parse(audit[0]!.diff)).toMatchObject({ purpose: { after: 'logo' } });

    // Served to anyone (no session), with its checked type; any cache may keep it.
    const read = await t.app.inject({ method: 'GET', url: logo.url });
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(media.png)).toBe(true);
    expect(read.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    const icon = await t.app.inject({ method: 'GET', url: favicon.url });
    expect(icon.headers['content-type']).toBe('image/x-icon');

    const added = await post<Domain>('admin', '/domain/add', {
      hostname: 'brand.example.com',
      name: 'Brand',
      logo: logo.url,
      favicon: favicon.url,
    });
    expect(added.body.code, added.raw).toBe(1);
    const info = await t.call<SystemInfo>('GET', api('/platform/get_system_info'), {
      query: { domain: 'brand.example.com' },
    });
    expect(info.body.data).toMatchObject({ logo: logo.url, favicon: favicon.url });
  });

  it('refuses a file whose bytes are not its name’s type, and leaves nothing behind', async () => {
    const cases: [string, string, Buffer, string][] = [
      // A JPEG named .png: the content decides.
      ['logo', 'logo.png', media.jpg, 'The file’s content does not match its extension .png'],
      // An SVG (it may carry scripts) and text, each disguised as a PNG.
      [
        'logo',
        'logo.png',
        SVG,
        'The file is not a .png .jpg .jpeg .webp file (its content was checked)',
      ],
      [
        'content',
        'photo.webp',
        TEXT,
        'The file is not a .png .jpg .jpeg .webp file (its content was checked)',
      ],
      // A PNG favicon named .ico, a WebP favicon.
      ['favicon', 'favicon.ico', media.png, 'The file’s content does not match its extension .ico'],
      [
        'favicon',
        'favicon.png',
        media.webp,
        'The file is not a .png .ico file (its content was checked)',
      ],
      // A PNG with an archive hidden at its end.
      [
        'logo',
        'logo.png',
        Buffer.concat([media.png, zipOf('payload.js', Buffer.from('alert(1)'))]),
        'The file has another file (an archive) hidden inside it',
      ],
      // Refused by its name before any byte is stored.
      ['logo', 'logo.svg', SVG, 'This type accepts only .png .jpg .jpeg .webp files'],
      ['favicon', 'favicon.jpg', media.jpg, 'This type accepts only .png .ico files'],
      [
        'logo',
        '../logo.png',
        media.png,
        'The file name must not contain a path (/ or \\) or invisible control characters',
      ],
      ['banner', 'logo.png', media.png, 'Say what the image is for: logo, favicon or content'],
    ];
    for (const [purpose, name, bytes, msg] of cases) {
      await refusedWithoutChange(() => upload('admin', purpose, name, bytes), 200, msg);
    }
    expect(await imageRows()).toEqual([]);
    // In the caller's language.
    const zh = await uploadPlatformImage(t, tokens.admin, 'logo', 'logo.png', SVG, 'zh-CN');
    expect(zh.body.msg).toBe('文件不是 .png .jpg .jpeg .webp 格式（已检查文件内容）');
  });

  it('refuses an image over its purpose’s size', async () => {
    // ≈ 3 MB: over a logo's 1 MB and a favicon's 256 KB, within a content image's 5 MB.
    expect(media.noise.length).toBeGreaterThan(1024 * 1024);
    await refusedWithoutChange(
      () => upload('admin', 'logo', 'big.png', media.noise),
      200,
      'The file is too large: at most 1 MB for this type',
    );
    await refusedWithoutChange(
      () => upload('admin', 'favicon', 'big.png', media.noise),
      200,
      'The file is too large: at most 256 KB for this type',
    );
    expect((await uploaded('admin', 'content', 'big.png', media.noise)).size).toBe(
      media.noise.length,
    );
  });

  it('admits the admin and partners only; a partner uploads content images only', async () => {
    await refusedWithoutChange(
      () => upload(null, 'content', 'a.png', media.png),
      401,
      'Login expired, please log in again',
    );
    for (const who of ['merchant', 'agent'] as const) {
      await refusedWithoutChange(
        () => upload(who, 'content', 'a.png', media.png),
        403,
        'You do not have permission for this action',
      );
    }
    for (const purpose of ['logo', 'favicon']) {
      await refusedWithoutChange(
        () => upload('partner', purpose, 'a.png', media.png),
        403,
        'Only the administrator uploads logos and favicons',
      );
    }
    const own = await uploaded('partner', 'content', 'a.png', media.png);
    const [row] = await imageRows();
    expect(Number(row!.owner_id)).toBe((await t.user('partner')).id);
    expect(own.url).toMatch(IMAGE_URL);
  });

  it('counts a partner’s images against its quota, not the admin’s', async () => {
    const partner = await t.user('partner');
    const quota = async () =>
      (await t.call<{ used: number }>('GET', api('/upload/quota'), { token: tokens.partner })).body
        .data.used;
    const used = await quota();
    await uploaded('partner', 'content', 'a.png', media.png);
    expect(await quota()).toBe(used + media.png.length);
    await uploaded('admin', 'content', 'b.png', media.png);
    expect(await quota()).toBe(used + media.png.length);
    // No room left for another: refused, nothing kept.
    await t.db
      .updateTable('users')
      .set({ storage_quota_bytes: used + media.png.length + 10 })
      .where('id', '=', partner.id)
      .execute();
    const before = await imageRows();
    const over = await upload('partner', 'content', 'c.png', media.png);
    expect(over.body.code).toBe(0);
    expect(over.body.msg).toMatch(/^Not enough storage space/);
    expect(await imageRows()).toEqual(before);
  });

  it('lets a domain use only the platform’s images of the right purpose, and only the admin', async () => {
    const logo = await uploaded('admin', 'logo', 'logo.png', media.png);
    const content = await uploaded('admin', 'content', 'photo.png', media.png);
    const partners = await uploaded('partner', 'content', 'p.png', media.png);
    const favicon = await uploaded('admin', 'favicon', 'f.png', media.png);
    const unknown = `/api/v1/images/${'0'.repeat(32)}.png`;
    const base = { hostname: 'brand.example.com', name: 'Brand' };
    const cases: [Record<string, unknown>, string][] = [
      [{ logo: content.url }, 'Logo: upload a PNG, JPEG or WebP image (at most 1 MB)'],
      [{ logo: partners.url }, 'Logo: upload a PNG, JPEG or WebP image (at most 1 MB)'],
      [{ logo: unknown }, 'Logo: upload a PNG, JPEG or WebP image (at most 1 MB)'],
      [{ logo: favicon.url }, 'Logo: upload a PNG, JPEG or WebP image (at most 1 MB)'],
      // A typed address is no longer taken.
      [{ logo: '/brand/acme.png' }, 'Logo: upload a PNG, JPEG or WebP image (at most 1 MB)'],
      [
        { logo: 'https://cdn.example.com/a.png' },
        'Logo: upload a PNG, JPEG or WebP image (at most 1 MB)',
      ],
      [{ favicon: logo.url }, 'Favicon: upload a PNG or ICO image (at most 256 KB)'],
      [{ favicon: `${favicon.url}?v=1` }, 'Favicon: upload a PNG or ICO image (at most 256 KB)'],
    ];
    for (const [fields, msg] of cases) {
      await refusedWithoutChange(
        () => post('admin', '/domain/add', { ...base, ...fields }),
        200,
        msg,
      );
    }
    const added = await post<Domain>('admin', '/domain/add', { ...base, logo: logo.url });
    expect(added.body.code, added.raw).toBe(1);
    // A partner cannot set a logo, not even on its own domain (`localhost` is the demo partner's).
    const own = await t.db
      .selectFrom('domains')
      .select('id')
      .where('hostname', '=', 'localhost')
      .executeTakeFirstOrThrow();
    for (const id of [Number(own.id), added.body.data.id]) {
      await refusedWithoutChange(
        () => post('partner', '/domain/edit', { id, logo: logo.url }),
        403,
        'You do not have permission for this action',
      );
    }
    const cleared = await post<Domain>('admin', '/domain/edit', {
      id: added.body.data.id,
      logo: '',
    });
    expect(cleared.body.data.logo).toBe('');
  });

  it('lets an article use its writer’s and the platform’s content images only; data: images are stripped', async () => {
    const mine = await uploaded('partner', 'content', 'mine.png', media.png);
    const theirs = await uploaded('partner2', 'content', 'theirs.png', media.png);
    const platform = await uploaded('admin', 'content', 'platform.webp', media.webp);
    const logo = await uploaded('admin', 'logo', 'logo.png', media.png);
    const article = (over: Record<string, unknown>) => ({
      category: 'help',
      title: 'Pictures',
      content: '<p>Text</p>',
      sort: 0,
      status: 'published',
      ...over,
    });
    const saved = await post<Article>(
      'partner',
      '/article/add',
      article({
        cover: mine.url,
        content: `<p>Text</p><img src="${mine.url}" alt="mine"><img src="${platform.url}"><img src="data:image/png;base64,iVBORw0KGgo=">`,
      }),
    );
    expect(saved.body.code, saved.raw).toBe(1);
    expect(saved.body.data.cover).toBe(mine.url);
    expect(saved.body.data.content).toBe(
      `<p>Text</p><img src="${mine.url}" alt="mine" /><img src="${platform.url}" />`,
    );
    expect(saved.body.data.content).not.toContain('data:');

    const notYours =
      'An image of the article is not one uploaded by you or the platform for content: upload it again';
    const cases: [Record<string, unknown>, string][] = [
      [{ cover: theirs.url }, notYours],
      [{ content: `<p>x</p><img src="${theirs.url}">` }, notYours],
      [{ cover: logo.url }, notYours],
      [{ content: `<p>x</p><img src="/api/v1/images/${'f'.repeat(32)}.png">` }, notYours],
      [
        { cover: 'data:image/png;base64,iVBORw0KGgo=' },
        'Cover: upload a PNG, JPEG or WebP image (at most 5 MB)',
      ],
      [
        { cover: 'https://evil.example/x.png' },
        'Cover: upload a PNG, JPEG or WebP image (at most 5 MB)',
      ],
    ];
    for (const [over, msg] of cases) {
      await refusedWithoutChange(() => post('partner', '/article/add', article(over)), 200, msg);
      await refusedWithoutChange(
        () => post('partner', '/article/edit', article({ ...over, id: saved.body.data.id })),
        200,
        msg,
      );
    }
    // The admin writes the platform's: a partner's image is not its own.
    await refusedWithoutChange(
      () => post('admin', '/article/add', article({ cover: mine.url })),
      200,
      notYours,
    );
    // Agreements' bodies follow the same rule.
    await refusedWithoutChange(
      () =>
        post('partner', '/agreement/save', {
          kind: 'privacy',
          content: `<p>x</p><img src="${theirs.url}">`,
          effective_at: 0,
        }),
      200,
      notYours,
    );
  });

  it('serves recorded images only: another stored file or a made-up name is not found', async () => {
    const logo = await uploaded('admin', 'logo', 'logo.png', media.png);
    const [row] = await imageRows();
    for (const url of [
      `/api/v1/images/${'0'.repeat(32)}.png`,
      logo.url.replace('.png', '.jpg'),
      `/api/v1/images/${row!.storage_key.replaceAll('/', '%2F')}`,
      '/api/v1/images/..%2F..%2Fapp.db',
      '/api/v1/images/',
    ]) {
      const reply = await t.app.inject({ method: 'GET', url });
      expect(reply.statusCode, url).toBe(404);
    }
  });

  it('an image nothing names is removed a day after its upload; named ones and newer ones stay', async () => {
    const logo = await uploaded('admin', 'logo', 'logo.png', media.png);
    const inArticle = await uploaded('partner', 'content', 'in-article.png', media.png);
    const inAgreement = await uploaded('admin', 'content', 'in-agreement.jpg', media.jpg);
    const inTemplate = await uploaded('admin', 'content', 'template-cover.webp', media.webp);
    const unused = await uploaded('partner', 'content', 'unused.png', media.noise);
    const domain = await post<Domain>('admin', '/domain/add', {
      hostname: 'sweep.example.com',
      name: 'Sweep',
      logo: logo.url,
    });
    expect(domain.body.code, domain.raw).toBe(1);
    const article = await post('partner', '/article/add', {
      category: 'help',
      title: 'Pictures',
      content: `<p>Text</p><img src="${inArticle.url}">`,
      sort: 0,
      status: 'draft',
    });
    expect(article.body.code, article.raw).toBe(1);
    const agreement = await post('admin', '/agreement/save', {
      kind: 'privacy',
      content: `<p>Terms</p><img src="${inAgreement.url}">`,
      effective_at: t.clock(),
    });
    expect(agreement.body.code, agreement.raw).toBe(1);
    const template = await post('admin', '/digital_human/template_add', {
      name: 'Covered',
      ratio: '9:16',
      layout: {
        avatar: { x: 0, y: 0, width: 1, height: 1 },
        subtitle: { y: 0.85, size: 0.05, color: '#FFFFFF' },
        background: '#000000',
      },
      cover_url: inTemplate.url,
    });
    expect(template.body.code, template.raw).toBe(1);
    const serves = async (url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;

    // Within the day nothing goes, named or not (the form it was uploaded for is still open).
    expect(await sweepUnusedImages(t.app.ctx)).toBe(0);
    t.clock.advance(UNUSED_IMAGE_GRACE_MS + 1000);
    tokens.partner = await t.login('partner'); // a day later: a new session
    const fresh = await uploaded('partner', 'content', 'fresh.png', media.png);
    const keyOf = new Map((await imageRows()).map((r) => [r.name, r.storage_key]));
    const stored = (image: PlatformImage) =>
      t.app.ctx.storage.exists(keyOf.get(image.url.split('/').pop()!)!);
    expect(await stored(unused)).toBe(true);
    expect(await sweepUnusedImages(t.app.ctx)).toBe(1);
    expect((await imageRows()).map((r) => r.name).sort()).toEqual(
      [logo, inArticle, inAgreement, inTemplate, fresh].map((i) => i.url.split('/').pop()).sort(),
    );
    expect(await serves(unused.url)).toBe(404);
    expect(await stored(unused)).toBe(false);
    for (const kept of [logo, inArticle, inAgreement, inTemplate, fresh]) {
      expect(await serves(kept.url), kept.url).toBe(200);
      expect(await stored(kept), kept.url).toBe(true);
    }
    // A second sweep finds nothing more.
    expect(await sweepUnusedImages(t.app.ctx)).toBe(0);
  });
});

describe.each(engines)('platform images on S3 (%s)', (engine) => {
  let t: TestApp;
  let s3: S3TestServer;
  let now = () => Date.now();

  beforeAll(async () => {
    s3 = await startS3TestServer(() => now());
    t = await createTestApp(engine, { storage: createS3Storage(s3.config, () => now()) });
    t.clock.advance(Date.now() - t.clock());
    now = t.clock;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('stores a checked logo in the bucket and serves it from there; a disguised file is refused', async () => {
    const token = await t.login('admin');
    const png = await fixtureBytes('photo.png');
    const reply = await uploadPlatformImage(t, token, 'logo', 'logo.png', png);
    expect(reply.body.code, reply.raw).toBe(1);
    const image: PlatformImage = reply.body.data;
    const read = await t.app.inject({ method: 'GET', url: image.url });
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(png)).toBe(true);
    const [row] = await t.db.selectFrom('platform_images').selectAll().execute();
    expect(await t.app.ctx.storage.exists(row!.storage_key)).toBe(true);

    const jpeg = await fixtureBytes('photo.jpg');
    const refused = await uploadPlatformImage(t, token, 'logo', 'logo.png', jpeg);
    expect(refused.body.msg).toBe('The file’s content does not match its extension .png');
    expect(await t.db.selectFrom('platform_images').selectAll().execute()).toHaveLength(1);
  });
});
