import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountPage, MatrixAccount } from '../../src/api/contract/matrix';
import type { GroupListReply, ResourceGroup } from '../../src/api/contract/resources';
import { keepAccountsAlive } from '../../server/modules/matrix/tokens';
import { engines, HOUR, type TestApp } from './helpers';
import { sandboxWorld, type SandboxWorld } from './matrix-fixtures';

/**
 * Matrix accounts (docs/domain.md §19) bound through the Douyin adapter against the embedded
 * sandbox platform, served by the same app on a real port: OAuth with a single-use signed state,
 * one owner per platform account, sealed tokens, the keep-alive (refresh, renewals, expiring,
 * expired, revoked, transient failures), groups, and another's accounts answering like missing.
 */
vi.setConfig({ testTimeout: 60_000 });
const DAY = 24 * HOUR;

describe.each(engines)('matrix accounts on %s', (engine) => {
  let t: TestApp;
  let w: SandboxWorld;
  let merchant: string;

  beforeEach(async () => {
    w = await sandboxWorld(engine);
    t = w.t;
    merchant = await t.login('merchant');
  });
  afterEach(async () => t.close());

  const control = (path: string, body?: unknown) => w.control(path, body);
  const authorise = (url: string, openId: string) => w.authorise(url, openId);
  const callback = (location: string) => w.callback(location);
  const authUrl = (token = merchant, body?: object) => w.authUrl(token, body);
  const bind = (openId: string, token = merchant, body?: object) => w.bind(openId, token, body);
  const sandboxAccounts = () => w.sandboxAccounts();

  async function list(token = merchant, query: Record<string, string> = {}) {
    const reply = await t.get<AccountPage>('/matrix/account_list', query, token);
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  }

  /** Moves the clock and logs in again (a session idles out after 2 hours). */
  async function advance(ms: number) {
    t.clock.advance(ms);
    merchant = await t.login('merchant');
  }

  const row = (id: number) =>
    t.db.selectFrom('matrix_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('binds a sandbox account: its profile shown, its tokens sealed and never in a reply', async () => {
    const [first] = await sandboxAccounts();
    const id = await bind(first.open_id);
    const page = await list();
    expect(page.total).toBe(1);
    const account = page.list[0];
    expect(account).toMatchObject({
      id,
      platform: 'douyin',
      open_id: first.open_id,
      nickname: first.nickname,
      status: 'normal',
      sandbox: true,
      renewals_left: 5,
      group_id: null,
    });
    expect(account.expires_at - t.clock()).toBe(15 * DAY);
    expect(account.refresh_expires_at - t.clock()).toBe(30 * DAY);
    const stored = await row(id);
    expect(stored.access_token).toMatch(/^v1:/);
    expect(stored.refresh_token).toMatch(/^v1:/);
    const plain = t.app.ctx.sealer.open(stored.access_token, {
      table: 'matrix_accounts',
      field: 'access_token',
      row: id,
    });
    expect(plain.length).toBeGreaterThan(8);
    expect(JSON.stringify(page)).not.toContain(plain);
    expect(JSON.stringify(page)).not.toContain('v1:');
    // The bind is audited with the merchant as actor.
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'matrix.account_bind')
      .execute();
    expect(audit).toHaveLength(1);
    expect(Number(audit[0].actor_id)).toBe((await t.user('merchant')).id);
  });

  it('a state works once and for 10 minutes; a forged one never; a declined authorisation says so', async () => {
    const [first, second] = await sandboxAccounts();
    const location = await authorise(await authUrl(), first.open_id);
    expect((await callback(location)).get('bound')).not.toBeNull();
    expect((await callback(location)).get('error')).toBe('matrix.authStateInvalid');

    const late = await authorise(await authUrl(), second.open_id);
    t.clock.advance(11 * 60_000);
    expect((await callback(late)).get('error')).toBe('matrix.authStateInvalid');

    const forged = new URL(await authorise(await authUrl(), second.open_id), w.base);
    const state = forged.searchParams.get('state')!;
    forged.searchParams.set('state', `${state.split('.')[0]}.${'A'.repeat(43)}`);
    expect((await callback(forged.toString())).get('error')).toBe('matrix.authStateInvalid');

    const declined = new URL(await authorise(await authUrl(), second.open_id), w.base);
    declined.searchParams.delete('code');
    declined.searchParams.set('error', 'access_denied');
    expect((await callback(declined.toString())).get('error')).toBe('matrix.authDeclined');
    expect((await list()).total).toBe(1);
  });

  it('one owner per platform account; binding again renews it; another’s accounts look missing', async () => {
    const [first] = await sandboxAccounts();
    const id = await bind(first.open_id);
    let partner = await t.login('partner');
    const elsewhere = await callback(await authorise(await authUrl(partner), first.open_id));
    expect(elsewhere.get('error')).toBe('matrix.accountBoundElsewhere');
    expect((await list(partner)).total).toBe(0);

    await advance(2 * DAY);
    expect(await bind(first.open_id)).toBe(id);
    expect((await list()).list[0].expires_at - t.clock()).toBe(15 * DAY);

    partner = await t.login('partner');
    const refresh = await t.post('/matrix/account_refresh', { id }, partner);
    expect(refresh.body).toMatchObject({ code: 0 });
    expect(refresh.body.msg).toBe('账号不存在');
    const deleted = await t.post<{ deleted: number }>(
      '/matrix/account_delete',
      { ids: [id] },
      partner,
    );
    expect(deleted.body.data.deleted).toBe(0);
    expect((await list()).total).toBe(1);

    // Deleted by its owner, it may be bound by another.
    await t.post('/matrix/account_delete', { ids: [id] }, merchant);
    expect((await list()).total).toBe(0);
    const other = await bind(first.open_id, partner);
    expect(other).not.toBe(id);
  });

  it('admin and agent have no accounts; bad input is refused in the caller’s language', async () => {
    for (const role of ['admin', 'agent']) {
      const token = await t.login(role);
      expect((await t.post('/matrix/auth_url', { platform: 'douyin' }, token)).status).toBe(403);
    }
    const assisted = await t.post('/matrix/auth_url', { platform: 'kuaishou' }, merchant);
    expect(assisted.body.code).toBe(0);
    const bad = await t.call('POST', '/api/v1/matrix/auth_url', {
      token: merchant,
      body: { platform: 'myspace' },
      headers: { lang: 'en-US' },
    });
    expect(bad.status).toBe(200);
    expect((bad.body as { msg: string }).msg).toMatch(/Douyin/);
  });

  it('keeps tokens alive: refresh within 3 days of expiry, renewals, then expiring and notified once', async () => {
    const [first] = await sandboxAccounts();
    const id = await bind(first.open_id);
    // Nothing due yet.
    expect(await keepAccountsAlive(t.app.ctx)).toBe(0);
    await advance(13 * DAY);
    expect(await keepAccountsAlive(t.app.ctx)).toBe(1);
    let account = (await list()).list[0];
    expect(account.expires_at - t.clock()).toBe(15 * DAY);
    expect(account.last_refresh_at).toBe(t.clock());
    expect(account.renewals_left).toBe(5);

    // The refresh token's end comes near: renewed (5 times), then no renewal is left.
    for (let renewal = 1; renewal <= 5; renewal += 1) {
      const ends = (await list()).list[0].refresh_expires_at;
      await advance(ends - t.clock() - 4 * DAY);
      await keepAccountsAlive(t.app.ctx);
      account = (await list()).list[0];
      expect(account.renewals_left).toBe(5 - renewal);
      expect(account.refresh_expires_at - t.clock()).toBe(30 * DAY);
    }
    const ends = account.refresh_expires_at;
    await advance(ends - t.clock() - 4 * DAY);
    await keepAccountsAlive(t.app.ctx);
    await keepAccountsAlive(t.app.ctx);
    account = (await list()).list[0];
    expect(account.status).toBe('expiring');
    const notices = await t.db
      .selectFrom('notifications')
      .selectAll()
      .where('subject_type', '=', 'matrix_account')
      .execute();
    expect(notices.map((n) => n.kind)).toEqual(['matrix_account.expiring']);
    expect(Number(notices[0].subject_id)).toBe(id);

    // Past its end it is expired, whatever is tried.
    await advance(5 * DAY);
    expect((await list()).list[0].status).toBe('expired');
    const refresh = await t.post('/matrix/account_refresh', { id }, merchant);
    expect(refresh.body.code).toBe(0);
    expect((await row(id)).status).toBe('expired');
  });

  it('definite platform answers expire or revoke (notified); a transient one changes no status', async () => {
    const [first, second] = await sandboxAccounts();
    const a = await bind(first.open_id);
    const b = await bind(second.open_id);
    await control('fail', { open_id: first.open_id, code: 2100004, times: 1 });
    const busy = await t.post<MatrixAccount>('/matrix/account_refresh', { id: a }, merchant);
    expect(busy.body.code).toBe(0);
    expect((await row(a)).status).toBe('normal');
    expect((await row(a)).last_error).toBe('social.error.transient');
    const ok = await t.post<MatrixAccount>('/matrix/account_refresh', { id: a }, merchant);
    expect(ok.body.code, ok.raw).toBe(1);
    expect(ok.body.data.last_error).toBeNull();

    await control('fail', { open_id: first.open_id, code: 10020, times: 1 });
    await t.post('/matrix/account_refresh', { id: a }, merchant);
    expect((await row(a)).status).toBe('expired');

    await control('revoke', { open_id: second.open_id });
    await t.post('/matrix/account_refresh', { id: b }, merchant);
    expect((await row(b)).status).toBe('revoked');
    const kinds = await t.db
      .selectFrom('notifications')
      .select(['kind', 'subject_id'])
      .where('subject_type', '=', 'matrix_account')
      .orderBy('id')
      .execute();
    expect(kinds.map((k) => [k.kind, Number(k.subject_id)])).toEqual([
      ['matrix_account.expired', a],
      ['matrix_account.revoked', b],
    ]);
    // Neither is refreshed again.
    t.clock.advance(14 * DAY);
    expect(await keepAccountsAlive(t.app.ctx)).toBe(0);
  });

  it('groups: add, unique names, rename, move accounts, filter, delete ungroups', async () => {
    const [first, second] = await sandboxAccounts();
    const added = await t.post<ResourceGroup>(
      '/matrix/account_group_add',
      { name: '美妆号' },
      merchant,
    );
    expect(added.body.code).toBe(1);
    const groupId = added.body.data.id;
    const twice = await t.post('/matrix/account_group_add', { name: '美妆号' }, merchant);
    expect(twice.body.code).toBe(0);
    const a = await bind(first.open_id, merchant, { platform: 'douyin', group_id: groupId });
    const b = await bind(second.open_id);
    expect((await list(merchant, { group_id: String(groupId) })).list.map((x) => x.id)).toEqual([
      a,
    ]);
    const moved = await t.post<{ moved: number }>(
      '/matrix/account_move',
      { ids: [b], group_id: groupId },
      merchant,
    );
    expect(moved.body.data.moved).toBe(1);
    const groups = await t.get<GroupListReply>('/matrix/account_group_list', {}, merchant);
    expect(groups.body.data).toEqual({
      list: [{ id: groupId, name: '美妆号', count: 2 }],
      ungrouped: 0,
    });
    const renamed = await t.post<ResourceGroup>(
      '/matrix/account_group_edit',
      { id: groupId, name: '母婴号' },
      merchant,
    );
    expect(renamed.body.data).toEqual({ id: groupId, name: '母婴号', count: 2 });
    const partner = await t.login('partner');
    expect((await t.post('/matrix/account_group_delete', { id: groupId }, partner)).body.code).toBe(
      0,
    );
    expect(
      (await t.post('/matrix/account_group_delete', { id: groupId }, merchant)).body.code,
    ).toBe(1);
    expect((await list(merchant, { group_id: '0' })).total).toBe(2);
    expect(
      (await list(merchant, { keyword: second.nickname.slice(0, 2) })).list.map((x) => x.id),
    ).toContain(b);
  });
});
