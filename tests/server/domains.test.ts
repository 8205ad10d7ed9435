import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Domain, DomainPage } from '../../src/api/contract/domains';
import type { SystemInfo } from '../../src/api/contract/system';
import { setConfigValue } from '../../server/modules/system/repo';
import * as domainBranding from '../../server/platform/db/migrations/0019-domain-branding';
import { api, createTestApp, engines, snapshot, underMigrationLock, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { uploadPlatformImage } from './upload-helpers';

type Lang = 'en-US' | 'zh-CN';

const BRAND = {
  hostname: 'Video.Example.COM.',
  name: 'Acme Video',
  copyright: '© 2026 Acme',
  icp_record_number: '京ICP备12345678号',
  police_record: 1,
  police_record_number: '京公网安备11010502000001号',
  money_name: 'Acme coins',
  theme_color: '#AA3300',
  dy_auth_publish_show: 0,
  expirence_money_show: 1,
  saler_show: 0,
};

describe.each(engines)('domains on %s', (engine) => {
  let t: TestApp;
  let ids: Record<'partner' | 'partner2' | 'merchant' | 'agent', number>;
  const tokens = new Map<string, string>();

  beforeEach(async () => {
    t = await createTestApp(engine);
    tokens.clear();
    ids = {
      partner: (await t.user('partner')).id,
      partner2: (await t.user('partner2')).id,
      merchant: (await t.user('merchant')).id,
      agent: (await t.user('agent')).id,
    };
    // Logged in up front, so that the snapshots around refused calls see no new sessions.
    for (const who of ['admin', 'partner', 'merchant']) await as(who);
  });
  afterEach(async () => {
    await t.close();
  });

  async function as(username: string): Promise<string> {
    let token = tokens.get(username);
    if (!token) {
      token = await t.login(username);
      tokens.set(username, token);
    }
    return token;
  }

  async function post<T = Domain>(who: string, url: string, body: unknown, lang: Lang = 'en-US') {
    return t.call<T>('POST', api(url), { token: await as(who), body, headers: { lang } });
  }

  async function list(who: string, query: Record<string, string | number> = {}) {
    const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
    return t.call<DomainPage>('GET', api('/domain/list'), {
      token: await as(who),
      query: q,
      headers: { lang: 'en-US' },
    });
  }

  const systemInfo = async (domain: string) =>
    (
      await t.call<SystemInfo>('GET', api('/platform/get_system_info'), {
        query: { domain },
        headers: { lang: 'en-US' },
      })
    ).body.data;

  async function add(body: Record<string, unknown>): Promise<Domain> {
    const reply = await post('admin', '/domain/add', body);
    expect(reply.body.msg).toBe('Domain added');
    expect(reply.body.code).toBe(1);
    return reply.body.data;
  }

  /** A logo and a favicon the admin uploaded (docs/domain.md §8 "Platform images"). */
  async function brandImages(): Promise<{ logo: string; favicon: string }> {
    const [logo, favicon] = await Promise.all(
      (
        [
          ['logo', 'photo.png'],
          ['favicon', 'icon.ico'],
        ] as const
      ).map(async ([purpose, fixture]) => {
        const reply = await uploadPlatformImage(
          t,
          await as('admin'),
          purpose,
          fixture,
          await fixtureBytes(fixture),
        );
        expect(reply.body.code, reply.raw).toBe(1);
        return reply.body.data.url;
      }),
    );
    return { logo: logo!, favicon: favicon! };
  }

  const auditRows = (action: string) =>
    t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', action)
      .where('result', '=', 'ok')
      .orderBy('id')
      .execute();

  it('adds a domain with its hostname normalised, lists, edits, disables and deletes it, each audited', async () => {
    const created = await add({ ...BRAND, owner_id: ids.partner });
    expect(created).toMatchObject({
      hostname: 'video.example.com',
      owner_id: ids.partner,
      owner_name: expect.any(String) as string,
      name: 'Acme Video',
      police_record: 1,
      theme_color: '#aa3300',
      dy_auth_publish_show: 0,
      expirence_money_show: 1,
      saler_show: 0,
      status: 1,
    });
    const [addRow] = await auditRows('domain.add');
    expect(addRow).toMatchObject({ target_type: 'domain', target_id: created.id });
    expect(JSON.parse(addRow.diff)).toMatchObject({
      hostname: { after: 'video.example.com' },
      owner_id: { after: ids.partner },
    });

    const platform = await add({ hostname: 'platform.example.org', name: 'Platform' });
    expect(platform).toMatchObject({ owner_id: null, owner_name: null, police_record: 0 });
    expect((await add({ hostname: 'zero.example.org', name: 'Zero', owner_id: 0 })).owner_id).toBe(
      null,
    );

    // Seed: localhost and 127.0.0.1 (the demo partner's).
    const all = await list('admin');
    expect(all.body.data.total).toBe(5);
    expect(all.body.data.list[0].hostname).toBe('zero.example.org');
    const mine = await list('admin', { owner_id: 0 });
    expect(mine.body.data.list.map((d) => d.hostname).sort()).toEqual([
      'platform.example.org',
      'zero.example.org',
    ]);
    const partners = await list('admin', { owner_id: ids.partner, keyword: 'ACME' });
    expect(partners.body.data).toMatchObject({ total: 1, list: [{ id: created.id }] });
    const paged = await list('admin', { page: 2, limit: 2 });
    expect(paged.body.data.total).toBe(5);
    expect(paged.body.data.list).toHaveLength(2);
    expect((await list('admin', { keyword: '100%_' })).body.data.total).toBe(0);

    const edited = await post('admin', '/domain/edit', {
      id: created.id,
      name: 'Acme Two',
      owner_id: ids.partner2,
    });
    expect(edited.body).toMatchObject({ code: 1, msg: 'Domain saved' });
    expect(edited.body.data).toMatchObject({ name: 'Acme Two', owner_id: ids.partner2 });
    const [editRow] = await auditRows('domain.edit');
    expect(JSON.parse(editRow.diff)).toEqual({
      name: { before: 'Acme Video', after: 'Acme Two' },
      owner_id: { before: ids.partner, after: ids.partner2 },
    });

    const disabled = await post('admin', '/domain/edit', { id: created.id, status: 0 });
    expect(disabled.body.data.status).toBe(0);

    const deleted = await post<{ ids: number[] }>('admin', '/domain/delete', {
      ids: [created.id, platform.id],
    });
    expect(deleted.body).toEqual({
      code: 1,
      msg: 'Domains deleted',
      data: { ids: [created.id, platform.id] },
    });
    expect((await list('admin')).body.data.total).toBe(3);
    const [deleteRow] = await auditRows('domain.delete');
    expect(JSON.parse(deleteRow.target_ids)).toEqual([created.id, platform.id]);
  });

  it('refuses bad input with a localised message and changes nothing', async () => {
    const taken = await add({ hostname: 'taken.example.com', name: 'Taken' });
    const before = await snapshot(t.db);
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { hostname: 'https://a.example.com', name: 'A' },
        'Enter the hostname only: no http://, path or port',
        '只填写域名：不要带 http://、路径或端口',
      ],
      [
        { hostname: 'a.example.com/path', name: 'A' },
        'Enter the hostname only: no http://, path or port',
        '',
      ],
      [
        { hostname: 'a.example.com:8080', name: 'A' },
        'Enter the hostname only: no http://, path or port',
        '',
      ],
      [
        { hostname: 'bad_host.example.com', name: 'A' },
        'Hostname: letters, digits, hyphens and dots, such as video.example.com (punycode for other scripts)',
        '',
      ],
      [
        { hostname: '-a.example.com', name: 'A' },
        'Hostname: letters, digits, hyphens and dots, such as video.example.com (punycode for other scripts)',
        '',
      ],
      [
        { hostname: '', name: 'A' },
        'Hostname: letters, digits, hyphens and dots, such as video.example.com (punycode for other scripts)',
        '',
      ],
      [
        { hostname: 'TAKEN.example.com', name: 'A' },
        'The hostname taken.example.com is already in use',
        '域名 taken.example.com 已被使用',
      ],
      [
        { hostname: 'a.example.com', name: '' },
        'Brand name: 1 to 30 characters',
        '品牌名称为 1–30 个字符',
      ],
      [
        { hostname: 'a.example.com', name: 'A', logo: '/logo.exe' },
        'Logo: upload a PNG, JPEG or WebP image (at most 1 MB)',
        'Logo：请上传 PNG、JPEG 或 WebP 图片（最大 1 MB）',
      ],
      [
        { hostname: 'a.example.com', name: 'A', favicon: 'javascript:alert(1)//.png' },
        'Favicon: upload a PNG or ICO image (at most 256 KB)',
        '',
      ],
      [
        { hostname: 'a.example.com', name: 'A', logo: 'https://x.example.com/a.png' },
        'Logo: upload a PNG, JPEG or WebP image (at most 1 MB)',
        '',
      ],
      [
        { hostname: 'a.example.com', name: 'A', theme_color: 'red' },
        'Theme colour: #rrggbb, such as #165dff',
        '',
      ],
      [{ hostname: 'a.example.com', name: 'A', saler_show: 2 }, 'saler_show: Invalid value', ''],
      [
        { hostname: 'a.example.com', name: 'A', owner_id: ids.merchant },
        'A domain belongs to the platform or to a partner (not to a merchant or an agent)',
        '域名只能归属平台或合伙人（不能归属商户或代理）',
      ],
      [
        { hostname: 'a.example.com', name: 'A', owner_id: ids.agent },
        'A domain belongs to the platform or to a partner (not to a merchant or an agent)',
        '',
      ],
      [
        { hostname: 'a.example.com', name: 'A', owner_id: 999_999 },
        'A domain belongs to the platform or to a partner (not to a merchant or an agent)',
        '',
      ],
      [
        { hostname: 'a.example.com', name: 'A', owner_id: -1 },
        'Choose the platform or a partner as owner',
        '',
      ],
      [{ hostname: 'a.example.com', name: 'A', extra: 1 }, 'Unknown field: extra', ''],
    ];
    for (const [body, en, zh] of cases) {
      const reply = await post('admin', '/domain/add', body);
      expect(reply.status, JSON.stringify(body)).toBeLessThan(500);
      expect(reply.body.code, JSON.stringify(body)).not.toBe(1);
      expect(reply.body.msg, JSON.stringify(body)).toBe(en);
      if (zh) {
        const zhReply = await post('admin', '/domain/add', body, 'zh-CN');
        expect(zhReply.body.msg, JSON.stringify(body)).toBe(zh);
      }
    }
    const editCases: [Record<string, unknown>, string][] = [
      [{ id: taken.id }, 'Nothing to change'],
      [{ id: 999_999, name: 'X' }, 'Domain not found'],
      [{ id: taken.id, hostname: 'localhost' }, 'The hostname localhost is already in use'],
      [
        { id: taken.id, owner_id: ids.merchant },
        'A domain belongs to the platform or to a partner (not to a merchant or an agent)',
      ],
      [{ id: taken.id, status: 'off' }, 'status: Invalid value'],
    ];
    for (const [body, en] of editCases) {
      const reply = await post('admin', '/domain/edit', body);
      expect(reply.body.code, JSON.stringify(body)).not.toBe(1);
      expect(reply.body.msg, JSON.stringify(body)).toContain(en);
    }
    for (const [body, en] of [
      [{ ids: [] }, 'Choose 1 to 100 domains, each once'],
      [{ ids: [taken.id, taken.id] }, 'Choose 1 to 100 domains, each once'],
      [{ ids: [taken.id, 999_999] }, 'Domain not found'],
    ] as const) {
      const reply = await post('admin', '/domain/delete', body);
      expect(reply.body.msg, JSON.stringify(body)).toBe(en);
    }
    const badList = await list('admin', { owner_id: 'x' });
    expect(badList.body.code).not.toBe(1);
    expect(await snapshot(t.db)).toEqual(before);
    // Editing a hostname to its own value is no conflict.
    const same = await post('admin', '/domain/edit', {
      id: taken.id,
      hostname: 'taken.example.com',
    });
    expect(same.body.code).toBe(1);
  });

  it('refuses partners, merchants and anonymous callers on every call, changing nothing', async () => {
    const own = await add({ hostname: 'p.example.com', name: 'P', owner_id: ids.partner });
    const before = await snapshot(t.db);
    for (const who of ['partner', 'merchant']) {
      expect((await list(who)).status, who).toBe(403);
      expect(
        (await post(who, '/domain/add', { hostname: 'x.example.com', name: 'X' })).status,
      ).toBe(403);
      // Not even its own domain.
      expect((await post(who, '/domain/edit', { id: own.id, name: 'Mine' })).status).toBe(403);
      expect((await post(who, '/domain/delete', { ids: [own.id] })).status).toBe(403);
    }
    const anonymous = await t.call('GET', api('/domain/list'), { headers: { lang: 'en-US' } });
    expect(anonymous.status).toBe(401);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('serves each enabled domain its brand, the platform brand otherwise, and sees every change at once', async () => {
    const platform = await systemInfo('nowhere.example.com');
    expect(platform.name).toBe('智能短视频平台');
    expect(platform.theme_color).toBe('');

    const { logo, favicon } = await brandImages();
    const created = await add({ ...BRAND, logo, favicon, owner_id: ids.partner });
    // The answer before the add was cached for an unknown host: the add outdates it.
    expect(await systemInfo('nowhere.example.com')).toEqual(platform);
    const branded = await systemInfo('https://VIDEO.example.com:8443/login');
    expect(branded).toMatchObject({
      name: 'Acme Video',
      logo,
      favicon,
      copyright: '© 2026 Acme',
      icp_record_number: '京ICP备12345678号',
      police_record: '1',
      police_record_number: '京公网安备11010502000001号',
      money_name: 'Acme coins',
      theme_color: '#aa3300',
      dy_auth_publish_show: '0',
      expirence_money_show: '1',
      saler_show: '0',
    });

    await post('admin', '/domain/edit', { id: created.id, name: 'Acme Renamed', saler_show: 1 });
    expect(await systemInfo('video.example.com')).toMatchObject({
      name: 'Acme Renamed',
      saler_show: '1',
    });

    await post('admin', '/domain/edit', { id: created.id, status: 0 });
    expect(await systemInfo('video.example.com')).toEqual(platform);
    await post('admin', '/domain/edit', { id: created.id, status: 1 });
    expect((await systemInfo('video.example.com')).name).toBe('Acme Renamed');

    // A platform setting changed elsewhere (the settings page) outdates the cache too.
    await setConfigValue(t.db, 'name', 'New Platform', t.clock());
    expect((await systemInfo('nowhere.example.com')).name).toBe('New Platform');

    await post('admin', '/domain/delete', { ids: [created.id] });
    expect((await systemInfo('video.example.com')).name).toBe('New Platform');
  });

  it('migration 0019 keeps the rows of the domains table down and up again', async () => {
    const rows = async () =>
      (await t.db.selectFrom('domains').selectAll().orderBy('id').execute()).map((r) => ({
        id: Number(r.id),
        hostname: r.hostname,
        owner_id: r.owner_id === null ? null : Number(r.owner_id),
        name: r.name,
        police_record: r.police_record,
      }));
    const before = await rows();
    expect(before).toHaveLength(2);
    await underMigrationLock(engine, async () => {
      await domainBranding.down(t.db, engine);
      await domainBranding.up(t.db, engine);
    });
    expect(await rows()).toEqual(before);
    // The platform's own domain (no owner) can be stored after it.
    expect((await add({ hostname: 'after.example.com', name: 'After' })).owner_id).toBeNull();
  });
});
