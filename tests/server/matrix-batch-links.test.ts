import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountPage, BatchLink, BatchLinkInfo } from '../../src/api/contract/matrix';
import { engines, HOUR, type TestApp } from './helpers';
import { sandboxWorld, type SandboxWorld } from './matrix-fixtures';

/**
 * Batch authorisation (docs/domain.md §19): a link made by a merchant, opened logged out, binds
 * the authorised account to the merchant; a use counts only when an account is bound; expired,
 * revoked and used-up links say so; another's links look missing; the public calls are throttled.
 */
vi.setConfig({ testTimeout: 60_000 });

describe.each(engines)('batch authorisation links on %s', (engine) => {
  let w: SandboxWorld;
  let t: TestApp;
  let merchant: string;

  beforeEach(async () => {
    w = await sandboxWorld(engine);
    t = w.t;
    merchant = await t.login('merchant');
  });
  afterEach(async () => t.close());

  async function addLink(body: object = {}) {
    const reply = await t.post<{ id: number; url: string; expires_at: number }>(
      '/matrix/batch_link_add',
      { platform: 'douyin', expires_hours: 24, ...body },
      merchant,
    );
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  }
  const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
  const info = (token: string) => t.get<BatchLinkInfo>('/matrix/batch_link_info', { token });

  /** Opens the link logged out and authorises `openId`: the public page's answer. */
  async function useLink(url: string, openId: string) {
    const token = tokenOf(url);
    const start = await t.post<{ url: string }>('/matrix/batch_auth_url', { token });
    if (start.body.code !== 1) return { refused: start.body.msg };
    const response = await fetch(new URL(await w.authorise(start.body.data.url, openId), w.base), {
      redirect: 'manual',
    });
    const landing = new URL(response.headers.get('location')!, w.base);
    expect(landing.pathname).toBe('/batchAuthorization');
    expect(landing.searchParams.get('token')).toBe(token);
    return { bound: landing.searchParams.get('bound'), error: landing.searchParams.get('error') };
  }

  const accounts = async () =>
    (await t.get<AccountPage>('/matrix/account_list', {}, merchant)).body.data;

  it('binds accounts opened logged out to the link’s owner, counting uses up to the limit', async () => {
    const group = await t.post<{ id: number }>(
      '/matrix/account_group_add',
      { name: '达人号' },
      merchant,
    );
    const link = await addLink({ max_uses: 2, group_id: group.body.data.id });
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/batchAuthorization\?token=/);
    const shown = await info(tokenOf(link.url));
    expect(shown.body.data).toMatchObject({ platform: 'douyin', state: 'valid', uses_left: 2 });
    expect(shown.body.data.owner_name.length).toBeGreaterThan(0);

    const sandbox = await w.sandboxAccounts();
    // Opening the page and starting, without binding, uses nothing.
    await t.post('/matrix/batch_auth_url', { token: tokenOf(link.url) });
    expect((await info(tokenOf(link.url))).body.data.uses_left).toBe(2);

    expect((await useLink(link.url, sandbox[0].open_id)).bound).not.toBeNull();
    expect((await useLink(link.url, sandbox[1].open_id)).bound).not.toBeNull();
    const used = await useLink(link.url, sandbox[2].open_id);
    expect(used.refused).toBe('该授权链接的使用次数已用完');
    const page = await accounts();
    expect(page.total).toBe(2);
    expect(page.list.every((a) => a.group_id === group.body.data.id)).toBe(true);
    const list = await t.get<{ list: BatchLink[] }>('/matrix/batch_link_list', {}, merchant);
    expect(list.body.data.list[0]).toMatchObject({ uses: 2, state: 'used_up', url: link.url });
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('action', '=', 'matrix.account_bind')
      .execute();
    expect(audit.map((a) => Number(a.actor_id))).toEqual(
      Array(2).fill((await t.user('merchant')).id),
    );
  });

  it('an expired or revoked link says so; another’s links look missing; a bad token is refused', async () => {
    const link = await addLink({ expires_hours: 1 });
    const other = await addLink();
    t.clock.advance(HOUR + 1);
    merchant = await t.login('merchant');
    expect((await info(tokenOf(link.url))).body.data.state).toBe('expired');
    expect((await t.post('/matrix/batch_auth_url', { token: tokenOf(link.url) })).body.msg).toMatch(
      /过期/,
    );

    const partner = await t.login('partner');
    expect((await t.post('/matrix/batch_link_revoke', { id: other.id }, partner)).body.code).toBe(
      0,
    );
    expect((await t.post('/matrix/batch_link_revoke', { id: other.id }, merchant)).body.code).toBe(
      1,
    );
    expect((await info(tokenOf(other.url))).body.data.state).toBe('revoked');
    const refused = await useLink(other.url, (await w.sandboxAccounts())[0].open_id);
    expect(refused.refused).toMatch(/撤销/);
    expect((await info('x'.repeat(32))).body).toMatchObject({ code: 0, msg: '该授权链接无效' });
    expect((await t.get('/matrix/batch_link_list', {}, partner)).body.data).toEqual({
      list: [],
      total: 0,
    });
  });

  it('a link revoked between opening and authorising binds nothing', async () => {
    const link = await addLink();
    const start = await t.post<{ url: string }>('/matrix/batch_auth_url', {
      token: tokenOf(link.url),
    });
    await t.post('/matrix/batch_link_revoke', { id: link.id }, merchant);
    const location = await w.authorise(start.body.data.url, (await w.sandboxAccounts())[0].open_id);
    const response = await fetch(new URL(location, w.base), { redirect: 'manual' });
    const landing = new URL(response.headers.get('location')!, w.base);
    expect(landing.searchParams.get('error')).toBe('matrix.batchLinkRevoked');
    expect((await accounts()).total).toBe(0);
  });

  it('throttles the public calls of one address', async () => {
    const link = await addLink();
    const token = tokenOf(link.url);
    let refused: string | undefined;
    for (let i = 0; i < 70 && !refused; i += 1) {
      const reply = await t.call('GET', '/api/v1/matrix/batch_link_info', {
        query: { token },
        remoteAddress: '203.0.113.9',
      });
      if ((reply.body as { code: number }).code === 0)
        refused = (reply.body as { msg: string }).msg;
    }
    expect(refused).toMatch(/尝试次数过多/);
    // Another address is not held back.
    const elsewhere = await t.call('GET', '/api/v1/matrix/batch_link_info', {
      query: { token },
      remoteAddress: '203.0.113.10',
    });
    expect((elsewhere.body as { code: number }).code).toBe(1);
  });
});
