import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditActions, AuditPage } from '../../src/api/contract/audit';
import type { ExportTicketReply } from '../../src/api/contract/cards';
import { EXPORT_PAGE } from '../../server/modules/audit/repo';
import { api, createTestApp, engines, MINUTE, T0, type TestApp } from './helpers';

const EN = { lang: 'en-US' };
const ZH = { lang: 'zh-CN' };

/** What an old or careless row may hold; none of it may reach a reader. */
const LEAKS = ['OLD-PASS-1', 'NEW-PASS-2', 'SK-LIVE-3', 'TOKEN-4', 'SEALED-5', 'SEALED-6'];

/**
 * The audit log viewer's calls (docs/domain.md "The audit log viewer"): the filters, the partner's
 * scope, masking on read, the CSV export and its single-use ticket.
 */
describe.each(engines)('the audit log viewer on %s', (engine) => {
  let t: TestApp;
  let tokens: Record<string, string>;
  let ids: Record<string, number>;

  const post = async <T = unknown>(who: string, url: string, body: unknown, headers = EN) =>
    t.call<T>('POST', api(url), { token: tokens[who], body, headers });
  const list = async (who: string, query: Record<string, string> = {}) => {
    const reply = await t.call<AuditPage>('GET', api('/audit/list'), {
      token: tokens[who],
      query: { page: '1', limit: '100', ...query },
      headers: EN,
    });
    expect(reply.body.code, reply.body.msg).toBe(1);
    return reply.body.data;
  };
  const ticketFor = async (who: string, body: Record<string, unknown> = {}, headers = EN) => {
    const reply = await post<ExportTicketReply>(who, '/audit/export_ticket', body, headers);
    expect(reply.body.code, reply.body.msg).toBe(1);
    return reply.body.data;
  };
  const download = (ticket: string, headers: Record<string, string> = {}) =>
    t.call('GET', api('/audit/export_data'), { query: { ticket }, headers });
  const csvRows = (raw: string) =>
    raw
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');

  beforeEach(async () => {
    t = await createTestApp(engine);
    tokens = {};
    ids = {};
    for (const name of ['admin', 'partner', 'partner2', 'merchant', 'merchant2', 'agent']) {
      tokens[name] = await t.login(name);
      ids[name] = (await t.user(name)).id;
    }
    // T0: the admin edits a merchant of each partner; a minute later the partner gives money.
    await post('admin', '/provider_service/edit', { id: ids.merchant, remark: 'checked, ok' });
    await post('admin', '/provider_service/edit', { id: ids.merchant2, remark: 'checked' });
    t.clock.advance(MINUTE);
    await post('partner', '/platform/transfer', {
      asset: 'money',
      amount: '1',
      direction: 'give',
      to_user_id: ids.merchant,
    });
  });
  afterEach(async () => {
    await t.close();
  });

  it('finds the actor by id or by username, within the caller’s scope', async () => {
    const byName = await list('admin', { actor: 'partner' });
    const byId = await list('admin', { actor: String(ids.partner) });
    expect(byName.list.map((r) => r.action)).toEqual(['money.transfer']);
    expect(byId).toEqual(byName);
    expect((await list('admin', { actor: 'admin' })).total).toBe(2);
    expect((await list('admin', { actor: 'nobody-here' })).total).toBe(0);
    // A partner's filter narrows its scope, never widens it.
    expect((await list('partner', { actor: 'partner2' })).total).toBe(0);
    expect((await list('partner', { actor: 'admin' })).list.map((r) => r.resource_id)).toEqual([
      ids.merchant,
    ]);
    // One record's timeline: its rows, whoever acted.
    const timeline = await list('admin', {
      resource_type: 'user',
      resource_id: String(ids.merchant),
    });
    expect(timeline.list.map((r) => r.action)).toEqual(['money.transfer', 'customer.edit']);
    expect(timeline.list[1].diff.remark).toMatchObject({ after: 'checked, ok' });
  });

  it('refuses merchants and agents, and bad filters, changing nothing', async () => {
    const before = await t.db.selectFrom('audit_log').select('id').execute();
    for (const who of ['merchant', 'agent']) {
      const reply = await t.call('GET', api('/audit/list'), {
        token: tokens[who],
        query: { page: '1', limit: '20' },
        headers: EN,
      });
      expect(reply.body.code).not.toBe(1);
      expect(reply.body.data).toBeNull();
      const ticket = await post(who, '/audit/export_ticket', {});
      expect(ticket.body.code).not.toBe(1);
      const actions = await t.call('GET', api('/audit/actions'), {
        token: tokens[who],
        headers: EN,
      });
      expect(actions.body.code).not.toBe(1);
    }
    const inverted = await post('admin', '/audit/export_ticket', { from: 2000, to: 1000 });
    expect(inverted.body).toEqual({
      code: 0,
      msg: 'The start of the time range is after its end',
      data: null,
    });
    const long = await list('admin', { actor: 'x'.repeat(64) });
    expect(long.total).toBe(0);
    const tooLong = await t.call('GET', api('/audit/list'), {
      token: tokens.admin,
      query: { page: '1', limit: '20', actor: 'x'.repeat(65) },
      headers: EN,
    });
    expect(tooLong.body.code).toBe(0);
    expect(await t.db.selectFrom('download_tickets').selectAll().execute()).toEqual([]);
    // The refusals wrote their own rows, the reads none.
    const after = await t.db.selectFrom('audit_log').select(['id', 'action', 'result']).execute();
    expect(after.length - before.length).toBe(3);
    expect(after.slice(before.length).every((r) => r.result === 'refused')).toBe(true);
  });

  it('offers the actions the routes declare', async () => {
    const reply = await t.call<AuditActions>('GET', api('/audit/actions'), {
      token: tokens.partner,
      headers: EN,
    });
    expect(reply.body.data.list).toEqual(
      expect.arrayContaining([
        'audit.export',
        'customer.edit',
        'money.transfer',
        'integration.set_secret',
      ]),
    );
    expect(reply.body.data.list).toEqual([...reply.body.data.list].sort());
  });

  it('shows a secret only as “changed”, even where an old row held its value', async () => {
    await t.db
      .insertInto('audit_log')
      .values([
        {
          actor_id: ids.admin,
          actor_role: 'admin',
          action: 'integration.set_secret',
          target_type: 'integration_setting',
          target_id: 7,
          target_ids: '[7]',
          // As a careless writer might have stored it.
          diff: JSON.stringify({
            value: { before: 'SEALED-5', after: 'SEALED-6' },
            password: { before: 'OLD-PASS-1', after: 'NEW-PASS-2' },
            config: { after: { api_key: 'SK-LIVE-3', model: 'gpt', mobile: '13812345678' } },
            mobile: { before: '13900001111', after: '13900002222' },
            name: { before: 'a', after: 'b' },
          }),
          detail: JSON.stringify({ token: 'TOKEN-4', note: 'rotated' }),
          ip: '10.0.0.1',
          result: 'ok',
          created_at: T0 + 2 * MINUTE,
        },
      ])
      .execute();
    const reply = await t.call<AuditPage>('GET', api('/audit/list'), {
      token: tokens.admin,
      query: { page: '1', limit: '20', action: 'integration.set_secret' },
      headers: EN,
    });
    for (const leak of [...LEAKS, '13812345678', '13900001111'])
      expect(reply.raw).not.toContain(leak);
    expect(reply.body.data.list[0]).toMatchObject({
      diff: {
        value: 'changed',
        password: 'changed',
        config: { after: { api_key: 'changed', model: 'gpt', mobile: '138****5678' } },
        mobile: { before: '139****1111', after: '139****2222' },
        name: { before: 'a', after: 'b' },
      },
      detail: { token: 'changed', note: 'rotated' },
    });
    const csv = await download(
      (await ticketFor('admin', { action: 'integration.set_secret' })).ticket,
    );
    for (const leak of [...LEAKS, '13812345678']) expect(csv.raw).not.toContain(leak);
    expect(csvRows(csv.raw)[1]).toContain('value: changed; password: changed;');
  });

  it('exports the filtered rows as a localised UTF-8 CSV with a BOM, all of them', async () => {
    const ticket = await ticketFor('admin', { action: 'customer.edit' });
    expect(ticket.url).toBe(`/api/v1/audit/export_data?ticket=${ticket.ticket}`);
    expect(ticket.expires_at).toBe(t.clock() + 60_000);
    const reply = await download(ticket.ticket);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toBe(
      'attachment; filename="audit-2026-03-02.csv"',
    );
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.raw.startsWith('\uFEFF')).toBe(true);
    const rows = csvRows(reply.raw);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toBe(
      'Time (UTC+8),Actor,Actor ID,Role,On behalf of,Action,Resource type,Resource IDs,Result,Error,IP,Changes',
    );
    const [, second, first] = rows;
    expect(second).toMatch(
      new RegExp(
        `^2026-03-02 10:00:00,admin,${ids.admin},Administrator,,customer\\.edit,user,${ids.merchant2},OK,,[^,]*,remark: .* → checked$`,
      ),
    );
    // A cell with a comma is quoted.
    expect(first).toMatch(/,"remark: .* → checked, ok"$/);
    // The export wrote its own row, with the filters asked for.
    const exported = await list('admin', { action: 'audit.export' });
    expect(exported.list[0]).toMatchObject({
      actor_id: ids.admin,
      resource_type: 'audit_log',
      diff: { action: { after: 'customer.edit' } },
    });

    // In Chinese, asked in Chinese; a download's own lang header wins.
    const zh = await download((await ticketFor('admin', {}, ZH)).ticket);
    expect(csvRows(zh.raw)[0]).toBe(
      '时间(UTC+8),操作人,操作人ID,角色,代操作人,操作,对象类型,对象ID,结果,错误,IP,变更',
    );
    expect(zh.raw).toContain(',管理员,');
    expect(zh.raw).toContain(',成功,');
    const en = await download((await ticketFor('admin', {}, ZH)).ticket, EN);
    expect(csvRows(en.raw)[0]).toMatch(/^Time \(UTC\+8\),Actor/);
  });

  it('streams every row, page after page; a partner’s export is its scope', async () => {
    const many = EXPORT_PAGE * 2 + 7;
    for (let start = 0; start < many; start += 200) {
      const rows = [];
      for (let i = start; i < Math.min(many, start + 200); i += 1) {
        rows.push({
          actor_id: ids.merchant,
          actor_role: 'merchant',
          action: 'resource_group.add',
          target_type: 'resource_group',
          target_id: 1000 + i,
          target_ids: `[${1000 + i}]`,
          diff: JSON.stringify({ name: { after: `g${i}` } }),
          result: 'ok' as const,
          created_at: T0 + 3 * MINUTE + i,
        });
      }
      await t.db.insertInto('audit_log').values(rows).execute();
    }
    const all = csvRows(
      (await download((await ticketFor('partner', { action: 'resource_group.add' })).ticket)).raw,
    );
    expect(all).toHaveLength(many + 1);
    const names = all.slice(1).map((r) => r.split(',').pop());
    expect(new Set(names).size).toBe(many);
    expect(names[0]).toBe(`name: → g${many - 1}`);
    expect(names[many - 1]).toBe('name: → g0');
    // partner2's subtree holds none of them: its export holds the admin's edit of its merchant
    // and its own export's row (written with the ticket, before the file is read).
    const other = csvRows((await download((await ticketFor('partner2')).ticket)).raw).slice(1);
    expect(other).toHaveLength(2);
    expect(other[0]).toContain(`,partner2,${ids.partner2},Partner,,audit.export,audit_log,,OK,`);
    expect(other[1]).toContain(`,customer.edit,user,${ids.merchant2},`);
  });

  it('refuses a ticket that is spent, expired, changed, or whose user is gone', async () => {
    const once = await ticketFor('partner');
    expect((await download(once.ticket)).status).toBe(200);
    expect((await download(once.ticket, EN)).status).toBe(410);

    const tampered = await ticketFor('partner');
    const last = tampered.ticket.slice(-1);
    const changed = `${tampered.ticket.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
    const refusal = await download(changed, EN);
    expect(refusal.status).toBe(410);
    expect(refusal.body).toEqual({
      code: 0,
      msg: 'This download link has expired or was already used. Please export again',
      data: null,
    });
    // The real one still works: the changed one spent nothing.
    expect((await download(tampered.ticket)).status).toBe(200);

    const late = await ticketFor('partner');
    t.clock.advance(60_000);
    expect((await download(late.ticket, EN)).status).toBe(410);

    const demoted = await ticketFor('partner');
    await t.db.updateTable('users').set({ status: 0 }).where('id', '=', ids.partner).execute();
    expect((await download(demoted.ticket, EN)).status).toBe(410);
    // A card ticket is no audit ticket.
    const card = await post<ExportTicketReply>('admin', '/recharge_card/export_ticket', {});
    expect((await download(card.body.data.ticket, EN)).status).toBe(410);
  });
});
