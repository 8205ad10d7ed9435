import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  Agreement,
  AgreementPage,
  Article,
  ArticlePage,
} from '../../src/api/contract/content';
import { api, createTestApp, engines, snapshot, type Reply, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { uploadPlatformImage } from './upload-helpers';

/**
 * Articles and agreements (docs/domain.md "Articles and agreements"): the admin writes the platform's, a partner its own
 * (overriding the platform's on its domains), merchants and agents read the published ones; bodies
 * are stored sanitised; a new user-agreement version asks signed-in users to accept it again.
 * The demo's `localhost` and `127.0.0.1` belong to `partner`; any other host is the platform's.
 */
vi.setConfig({ testTimeout: 60_000 });
const PLATFORM_HOST = 'platform.example';
const PARTNER_HOST = 'localhost';

describe.each(engines)('articles and agreements on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let partner: string;
  let partner2: string;
  let merchant: string;
  let merchant2: string;

  beforeEach(async () => {
    t = await createTestApp(engine);
    [admin, partner, partner2, merchant, merchant2] = await Promise.all(
      ['admin', 'partner', 'partner2', 'merchant', 'merchant2'].map((name) => t.login(name)),
    );
  });
  afterEach(() => t.close());

  const call = <T>(
    method: 'GET' | 'POST',
    path: string,
    token: string | undefined,
    input: Record<string, unknown> = {},
    host = PLATFORM_HOST,
    lang = 'en-US',
  ): Promise<Reply<T>> =>
    t.call<T>(method, api(path), {
      ...(token === undefined ? {} : { token }),
      headers: { host, 'accept-language': lang, lang },
      ...(method === 'GET'
        ? { query: Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)])) }
        : { body: input }),
    });

  const article = (over: Record<string, unknown> = {}) => ({
    category: 'help',
    title: 'How to start',
    content: '<h2>Start</h2><ul><li>one</li></ul><p><a href="https://example.org">link</a></p>',
    sort: 1,
    status: 'published',
    ...over,
  });

  it('stores an article sanitised and shows it to readers once published', async () => {
    const image = await uploadPlatformImage(
      t,
      admin,
      'content',
      'photo.png',
      await fixtureBytes('photo.png'),
    );
    expect(image.body.code, image.raw).toBe(1);
    const { url } = image.body.data;
    const added = await call<Article>(
      'POST',
      '/article/add',
      admin,
      article({
        status: 'draft',
        cover: url,
        content: `<h2 onclick="x()">Start</h2><script>alert(1)</script><img src="${url}"><img src="/api/v1/files/a/b.png?exp=1&sig=x"><img src="data:image/png;base64,AA">`,
      }),
    );
    expect(added.body.code, added.raw).toBe(1);
    const { id, content } = added.body.data;
    // Our image kept; a signed file's address and a base64 image dropped.
    expect(content).toBe(`<h2>Start</h2><img src="${url}" />`);
    expect(added.body.data.cover).toBe(url);
    // A draft: the merchant does not see it.
    const hidden = await call<Article>('GET', '/article/detail', merchant, { id });
    expect(hidden.body.code).toBe(0);
    expect(hidden.body.msg).toBe('Article not found');
    expect((await call<ArticlePage>('GET', '/article/list', merchant)).body.data.total).toBe(0);

    const edited = await call<Article>('POST', '/article/edit', admin, article({ id }));
    expect(edited.body.code, edited.raw).toBe(1);
    const read = await call<Article>('GET', '/article/detail', merchant, { id });
    expect(read.body.data.content).toBe(
      '<h2>Start</h2><ul><li>one</li></ul><p><a href="https://example.org" rel="noopener noreferrer">link</a></p>',
    );
    const list = await call<ArticlePage>('GET', '/article/list', merchant, { category: 'help' });
    expect(list.body.data.list.map((a) => a.id)).toEqual([id]);
    expect(
      (await call<ArticlePage>('GET', '/article/list', merchant, { category: 'notice' })).body.data
        .total,
    ).toBe(0);

    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', 'in', ['article.add', 'article.edit'])
      .where('result', '=', 'ok')
      .execute();
    expect(audit.map((row) => row.action).sort()).toEqual(['article.add', 'article.edit']);

    expect((await call('POST', '/article/delete', admin, { id })).body.code).toBe(1);
    expect((await call<Article>('GET', '/article/detail', merchant, { id })).body.code).toBe(0);
  });

  it('refuses bad input with a localised message and changes nothing', async () => {
    const before = await snapshot(t.db);
    const cases: [Record<string, unknown>, string, string][] = [
      [article({ title: '' }), 'Title: 1 to 60 characters', '标题：1 到 60 个字符'],
      [article({ title: 'x'.repeat(61) }), 'Title: 1 to 60 characters', '标题：1 到 60 个字符'],
      [
        article({ category: 'news' }),
        'Choose a category: notice, help or tutorial',
        '请选择分类：公告、帮助或教程',
      ],
      [article({ status: 'live' }), 'Choose draft or published', '请选择草稿或发布'],
      [article({ sort: -1 }), 'Sort: a whole number from 0 to 9999', '排序：0 到 9999 的整数'],
      [
        article({ cover: 'https://evil.example/x.png' }),
        'Cover: upload a PNG, JPEG or WebP image (at most 5 MB)',
        '封面：请上传 PNG、JPEG 或 WebP 图片（最大 5 MB）',
      ],
      [
        article({ content: '<script>alert(1)</script>' }),
        'The body is empty once unsafe content is removed',
        '去除不安全内容后正文为空',
      ],
      [article({ extra: 1 }), 'Invalid value', ''],
    ];
    for (const [body, en, zh] of cases) {
      const reply = await call('POST', '/article/add', admin, body);
      expect(reply.status, reply.raw).toBe(200);
      expect(reply.body.code, JSON.stringify(body)).toBe(0);
      if (en !== 'Invalid value') expect(reply.body.msg).toBe(en);
      if (zh) {
        const zhReply = await call('POST', '/article/add', admin, body, PLATFORM_HOST, 'zh-CN');
        expect(zhReply.body.msg).toBe(zh);
      }
    }
    const badSave = await call('POST', '/agreement/save', admin, {
      kind: 'eula',
      content: '<p>x</p>',
      effective_at: 0,
    });
    expect(badSave.body.msg).toBe('Choose an agreement');
    expect(await snapshot(t.db)).toEqual(before);
    expect(await t.db.selectFrom('articles').selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('agreements').selectAll().execute()).toEqual([]);
  });

  it('lets only admin and partners write, each its own rows', async () => {
    for (const token of [merchant, merchant2]) {
      const reply = await call('POST', '/article/add', token, article());
      expect(reply.status).toBe(403);
      expect(
        (
          await call('POST', '/agreement/save', token, {
            kind: 'user',
            content: '<p>x</p>',
            effective_at: 0,
          })
        ).status,
      ).toBe(403);
      expect((await call('GET', '/agreement/list', token)).status).toBe(403);
    }
    const own = (await call<Article>('POST', '/article/add', partner, article({ title: 'P' }))).body
      .data;
    expect(own.owner_id).toBe((await t.user('partner')).id);
    // Another partner's and the admin's rows answer like missing ones.
    for (const token of [partner2, admin]) {
      const edit = await call('POST', '/article/edit', token, article({ id: own.id, title: 'X' }));
      expect(edit.body.msg).toBe('Article not found');
      expect((await call('POST', '/article/delete', token, { id: own.id })).body.msg).toBe(
        'Article not found',
      );
    }
    expect(
      (await call<Article>('GET', '/article/detail', partner, { id: own.id })).body.data.title,
    ).toBe('P');
    expect((await call<ArticlePage>('GET', '/article/list', partner2)).body.data.total).toBe(0);
  });

  it('shows a partner’s articles beside the platform’s on its domains only', async () => {
    const platformId = (
      await call<Article>('POST', '/article/add', admin, article({ title: 'Platform' }))
    ).body.data.id;
    const partnerId = (
      await call<Article>('POST', '/article/add', partner, article({ title: 'Partner' }))
    ).body.data.id;
    const onPartner = await call<ArticlePage>('GET', '/article/list', merchant, {}, PARTNER_HOST);
    expect(onPartner.body.data.list.map((a) => a.id).sort()).toEqual(
      [platformId, partnerId].sort(),
    );
    const onPlatform = await call<ArticlePage>('GET', '/article/list', merchant2, {});
    expect(onPlatform.body.data.list.map((a) => a.id)).toEqual([platformId]);
    expect((await call('GET', '/article/detail', merchant2, { id: partnerId })).body.code).toBe(0);
  });

  it('lets every role read the published articles of its domain, and nothing else', async () => {
    const agent = await t.login('agent');
    const add = async (token: string, over: Record<string, unknown>) => {
      const reply = await call<Article>('POST', '/article/add', token, article(over));
      expect(reply.body.code, reply.raw).toBe(1);
      return reply.body.data.id;
    };
    const help = await add(admin, { title: 'Platform help', sort: 0 });
    const tutorial = await add(admin, {
      category: 'tutorial',
      title: 'Platform tutorial',
      sort: 0,
    });
    const older = await add(admin, { category: 'notice', title: 'Older notice', sort: 0 });
    const newer = await add(admin, { category: 'notice', title: 'Newer notice', sort: 0 });
    // A higher sort goes first (pinned), then the newest.
    const pinned = await add(admin, { category: 'notice', title: 'Pinned notice', sort: 9 });
    await add(admin, { category: 'notice', title: 'Draft notice', status: 'draft' });
    const gone = await add(admin, { category: 'notice', title: 'Deleted notice' });
    expect((await call('POST', '/article/delete', admin, { id: gone })).body.code).toBe(1);
    const partnerHelp = await add(partner, { title: 'Partner help', sort: 0 });
    await add(partner, { title: 'Partner draft', status: 'draft' });
    await add(partner2, { title: 'Other partner help' });

    const read = (token: string, input: Record<string, unknown>, host: string) =>
      call<ArticlePage>('GET', '/article/published', token, input, host);
    const ids = (reply: Reply<ArticlePage>) => reply.body.data.list.map((a) => a.id);
    // Every role, the writers included, reads as a reader: published rows of the platform and
    // of the domain's partner (localhost is `partner`'s), never drafts, deleted or another's.
    for (const token of [admin, partner, partner2, merchant, agent]) {
      const onPartner = await read(token, {}, PARTNER_HOST);
      expect(onPartner.body.code, onPartner.raw).toBe(1);
      expect(ids(onPartner)).toEqual([pinned, partnerHelp, newer, older, tutorial, help]);
      expect(onPartner.body.data.list.every((a) => a.status === 'published')).toBe(true);
      const onPlatform = await read(token, {}, PLATFORM_HOST);
      expect(ids(onPlatform)).toEqual([pinned, newer, older, tutorial, help]);
      const notices = await read(token, { category: 'notice', limit: 2 }, PLATFORM_HOST);
      expect(ids(notices)).toEqual([pinned, newer]);
      expect(notices.body.data.total).toBe(3);
    }
    const found = await read(merchant, { category: 'help', keyword: 'PARTNER' }, PARTNER_HOST);
    expect(ids(found)).toEqual([partnerHelp]);
    expect(found.body.data.list[0].content).toContain('<h2>Start</h2>');
    // The writers' own list is still the writer's: their own rows, drafts included.
    const own = await call<ArticlePage>('GET', '/article/list', partner, {}, PLATFORM_HOST);
    expect(own.body.data.list.map((a) => a.title).sort()).toEqual([
      'Partner draft',
      'Partner help',
    ]);
  });

  it('refuses a reader’s bad query with a localised message, and an anonymous one', async () => {
    const anonymous = await call('GET', '/article/published', undefined, {});
    expect(anonymous.status).toBe(401);
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { category: 'news' },
        'Choose a category: notice, help or tutorial',
        '请选择分类：公告、帮助或教程',
      ],
      // A reader reads published rows only: there is no status to ask for.
      [{ status: 'draft' }, '', ''],
      [{ limit: 0 }, '', ''],
      [{ limit: 101 }, '', ''],
      [{ keyword: 'x'.repeat(61) }, '', ''],
    ];
    for (const [input, en, zh] of cases) {
      const reply = await call('GET', '/article/published', merchant, input);
      expect(reply.status, reply.raw).toBe(200);
      expect(reply.body.code, JSON.stringify(input)).toBe(0);
      expect(reply.body.msg).toBeTruthy();
      if (en) expect(reply.body.msg).toBe(en);
      if (zh) {
        const zhReply = await call(
          'GET',
          '/article/published',
          merchant,
          input,
          PLATFORM_HOST,
          'zh-CN',
        );
        expect(zhReply.body.msg).toBe(zh);
      }
    }
  });

  it('serves the agreement version in force, the partner’s overriding on its domains', async () => {
    const detail = (host: string, token?: string) =>
      call<Agreement | null>('GET', '/agreement/detail', token, { kind: 'privacy' }, host);
    expect((await detail(PLATFORM_HOST)).body.data).toBeNull();
    const now = t.clock();
    const v1 = await call<Agreement>('POST', '/agreement/save', admin, {
      kind: 'privacy',
      content: '<p>Platform v1</p><iframe src="https://evil"></iframe>',
      effective_at: now,
    });
    expect(v1.body.data).toMatchObject({
      version: 1,
      owner_id: null,
      content: '<p>Platform v1</p>',
    });
    // A version effective later is not in force yet.
    await call('POST', '/agreement/save', admin, {
      kind: 'privacy',
      content: '<p>Platform v2</p>',
      effective_at: now + 60_000,
    });
    expect((await detail(PLATFORM_HOST)).body.data?.content).toBe('<p>Platform v1</p>');
    expect((await detail(PARTNER_HOST)).body.data?.content).toBe('<p>Platform v1</p>');
    const p1 = await call<Agreement>('POST', '/agreement/save', partner, {
      kind: 'privacy',
      content: '<p>Partner v1</p>',
      effective_at: now,
    });
    expect(p1.body.data.version).toBe(1);
    expect((await detail(PARTNER_HOST)).body.data?.content).toBe('<p>Partner v1</p>');
    expect((await detail(PLATFORM_HOST)).body.data?.content).toBe('<p>Platform v1</p>');
    // `domain` names the host to read on (the login page of another domain).
    const named = await call<Agreement>('GET', '/agreement/detail', undefined, {
      kind: 'privacy',
      domain: 'LOCALHOST',
    });
    expect(named.body.data?.content).toBe('<p>Partner v1</p>');
    t.clock.advance(60_000);
    expect((await detail(PLATFORM_HOST)).body.data?.content).toBe('<p>Platform v2</p>');

    const adminList = await call<AgreementPage>('GET', '/agreement/list', admin, {
      kind: 'privacy',
    });
    expect(adminList.body.data.list.map((a) => a.version)).toEqual([2, 1]);
    const partnerList = await call<AgreementPage>('GET', '/agreement/list', partner, {
      kind: 'privacy',
    });
    expect(partnerList.body.data.total).toBe(3);
    const other = await call<AgreementPage>('GET', '/agreement/list', partner2, {
      kind: 'privacy',
    });
    expect(other.body.data.list.every((a) => a.owner_id === null)).toBe(true);
  });

  it('asks for the acceptance of a new user-agreement version, per user', async () => {
    const pending = (token: string, host = PLATFORM_HOST) =>
      call<Agreement | null>('GET', '/agreement/pending', token, {}, host);
    expect((await pending(merchant2)).body.data).toBeNull();
    // The demo accounts were made at T0: versions take effect after.
    t.clock.advance(1000);
    const save = (content: string) =>
      call<Agreement>('POST', '/agreement/save', admin, {
        kind: 'user',
        content,
        effective_at: t.clock(),
      });
    await save('<p>v1</p>');
    expect((await pending(merchant2)).body.data?.version).toBe(1);
    expect((await pending(admin)).body.data).toBeNull();
    // Only the version in force is accepted.
    const stale = await call('POST', '/agreement/accept', merchant2, { kind: 'user', version: 2 });
    expect(stale.body.msg).toBe(
      'This is not the agreement’s current version: reload it and accept again',
    );
    const ok = await call('POST', '/agreement/accept', merchant2, { kind: 'user', version: 1 });
    expect(ok.body.code, ok.raw).toBe(1);
    expect((await pending(merchant2)).body.data).toBeNull();
    expect((await pending(merchant)).body.data?.version).toBe(1);
    await save('<p>v2</p>');
    expect((await pending(merchant2)).body.data?.version).toBe(2);
    // An account made after the version took effect took it when it was made.
    await t.db
      .updateTable('users')
      .set({ created_at: t.clock() + 1 })
      .where('username', '=', 'merchant')
      .execute();
    expect((await pending(merchant)).body.data).toBeNull();
    // Accepting twice records once.
    await call('POST', '/agreement/accept', merchant2, { kind: 'user', version: 2 });
    await call('POST', '/agreement/accept', merchant2, { kind: 'user', version: 2 });
    const rows = await t.db.selectFrom('agreement_acceptances').selectAll().execute();
    expect(rows).toHaveLength(2);
    const audited = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'in', ['agreement.save', 'agreement.accept'])
      .where('result', '=', 'ok')
      .execute();
    // Every call is audited (the repeated one too: it changed nothing, and says so by its diff).
    expect(audited.map((r) => r.action).sort()).toEqual([
      'agreement.accept',
      'agreement.accept',
      'agreement.accept',
      'agreement.save',
      'agreement.save',
    ]);
  });
});
