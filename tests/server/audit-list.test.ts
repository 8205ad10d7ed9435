import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../src/api/contract/audit';
import * as auditTrail from '../../server/platform/db/migrations/0012-audit-trail';
import { api, createTestApp, engines, MINUTE, type TestApp } from './helpers';

const EN = { lang: 'en-US' };

/** GET /audit/list: admin reads every row, a partner its subtree's (docs/architecture.md §Audit). */
describe.each(engines)('the audit log list on %s', (engine) => {
  let t: TestApp;
  let tokens: Record<string, string>;
  let ids: Record<string, number>;
  let cardIds: number[];
  let t1: number;

  beforeEach(async () => {
    t = await createTestApp(engine);
    tokens = {};
    ids = {};
    for (const name of ['admin', 'partner', 'partner2', 'merchant', 'merchant2']) {
      tokens[name] = await t.login(name);
      ids[name] = (await t.user(name)).id;
    }
    const post = async (who: string, url: string, body: unknown) => {
      const reply = await t.call('POST', api(url), { token: tokens[who], body, headers: EN });
      expect(reply.body.code, `${url}: ${reply.body.msg}`).toBeDefined();
      return reply;
    };
    // At T0: the admin edits a merchant of each partner, mints cards; a refused call.
    await post('admin', '/provider_service/edit', { id: ids.merchant, remark: 'checked' });
    await post('admin', '/provider_service/edit', { id: ids.merchant2, remark: 'checked' });
    await post('admin', '/recharge_card/add', { asset: 'money', face_value: '1', quantity: 3 });
    cardIds = (await t.db.selectFrom('recharge_cards').select('id').orderBy('id').execute()).map(
      (c) => Number(c.id),
    );
    await post('merchant', '/resource/group_add', { name: '' });
    // A minute later: each partner gives money to its merchant; the merchant makes a group.
    t.clock.advance(MINUTE);
    t1 = t.clock();
    const give = { asset: 'money', amount: '1', direction: 'give' };
    await post('partner', '/platform/transfer', { ...give, to_user_id: ids.merchant });
    await post('partner2', '/platform/transfer', { ...give, to_user_id: ids.merchant2 });
    await post('merchant', '/resource/group_add', { name: 'Openers' });
  });
  afterEach(async () => {
    await t.close();
  });

  const list = async (who: string, query: Record<string, string> = {}) => {
    const reply = await t.call<AuditPage>('GET', api('/audit/list'), {
      token: tokens[who],
      query: { page: '1', limit: '50', ...query },
      headers: EN,
    });
    expect(reply.body.code, reply.body.msg).toBe(1);
    return reply.body.data;
  };
  const summary = (page: AuditPage) =>
    page.list.map((r) => `${r.actor_id === null ? '-' : r.actor_id} ${r.action} ${r.result}`);

  it('the admin reads every row, newest first, with the actor’s name and the diff', async () => {
    const all = await list('admin');
    expect(all.total).toBe(7);
    expect(summary(all)).toEqual([
      `${ids.merchant} resource_group.add ok`,
      `${ids.partner2} money.transfer ok`,
      `${ids.partner} money.transfer ok`,
      `${ids.merchant} resource_group.add refused`,
      `${ids.admin} card.add ok`,
      `${ids.admin} customer.edit ok`,
      `${ids.admin} customer.edit ok`,
    ]);
    expect(all.list[2]).toMatchObject({
      actor_username: 'partner',
      actor_role: 'partner',
      original_actor_id: null,
      original_actor_username: null,
      resource_type: 'user',
      resource_id: ids.merchant,
      resource_ids: [ids.merchant],
      diff: { money: { before: '1200.50', after: '1201.50' } },
      detail: {},
      result: 'ok',
      error_code: null,
      created_at: t1,
    });
    expect(all.list[3]).toMatchObject({ result: 'refused', error_code: 'validation.groupName' });
  });

  it('filters by actor, action, resource, batch member and time; pages', async () => {
    expect(summary(await list('admin', { actor: String(ids.partner) }))).toEqual([
      `${ids.partner} money.transfer ok`,
    ]);
    expect((await list('admin', { action: 'customer.edit' })).total).toBe(2);
    const merchant = await list('admin', {
      resource_type: 'user',
      resource_id: String(ids.merchant),
    });
    expect(summary(merchant)).toEqual([
      `${ids.partner} money.transfer ok`,
      `${ids.admin} customer.edit ok`,
    ]);
    // A card of the batch finds the batch's row.
    const card = await list('admin', { resource_id: String(cardIds[1]) });
    expect(summary(card)).toEqual([`${ids.admin} card.add ok`]);
    expect(card.list[0]).toMatchObject({ resource_id: null, resource_ids: cardIds });
    expect((await list('admin', { from: String(t1) })).total).toBe(3);
    expect((await list('admin', { to: String(t1 - 1) })).total).toBe(4);
    expect((await list('admin', { from: String(t1), to: String(t1) })).total).toBe(3);
    const second = await list('admin', { page: '2', limit: '3' });
    expect(second.total).toBe(7);
    expect(summary(second)).toEqual([
      `${ids.merchant} resource_group.add refused`,
      `${ids.admin} card.add ok`,
      `${ids.admin} customer.edit ok`,
    ]);
  });

  it('a partner reads the rows whose actor or user resource is in its subtree', async () => {
    expect(summary(await list('partner'))).toEqual([
      `${ids.merchant} resource_group.add ok`,
      `${ids.partner} money.transfer ok`,
      `${ids.merchant} resource_group.add refused`,
      `${ids.admin} customer.edit ok`,
    ]);
    const other = await list('partner2');
    expect(summary(other)).toEqual([
      `${ids.partner2} money.transfer ok`,
      `${ids.admin} customer.edit ok`,
    ]);
    expect(other.list[1].resource_id).toBe(ids.merchant2);
    // Filters narrow the subtree, never widen it.
    expect((await list('partner', { actor: String(ids.admin) })).total).toBe(1);
    expect((await list('partner', { actor: String(ids.partner2) })).total).toBe(0);
  });

  it('refuses a range that ends before it starts, in the caller’s language', async () => {
    for (const [lang, msg] of [
      ['en-US', 'The start of the time range is after its end'],
      ['zh-CN', '开始时间晚于结束时间'],
    ]) {
      const reply = await t.call('GET', api('/audit/list'), {
        token: tokens.admin,
        query: { page: '1', limit: '20', from: '2000', to: '1000' },
        headers: { lang },
      });
      expect(reply.body).toEqual({ code: 0, msg, data: null });
    }
    const bad = await t.call('GET', api('/audit/list'), {
      token: tokens.admin,
      query: { page: '1', limit: '20', action: 'DROP TABLE' },
      headers: EN,
    });
    expect(bad.body.code).toBe(0);
  });

  it('rows written before the trail existed stay readable', async () => {
    // Back to the table as it was, a row as the hand-written audits wrote it, then forward.
    await auditTrail.down(t.db, engine);
    await t.db
      .insertInto('audit_log')
      .values({
        actor_id: ids.admin,
        action: 'overstep_login',
        target_type: 'user',
        target_id: ids.merchant,
        ip: '127.0.0.1',
        detail: JSON.stringify({ actor: 'admin', merchant: 'merchant' }),
        created_at: t1 + MINUTE,
      } as never)
      .execute();
    await auditTrail.up(t.db, engine);
    const page = await list('partner', { action: 'overstep_login' });
    expect(page.list).toEqual([
      {
        id: expect.any(Number),
        created_at: t1 + MINUTE,
        actor_id: ids.admin,
        actor_username: 'admin',
        actor_role: null,
        original_actor_id: null,
        original_actor_username: null,
        action: 'overstep_login',
        resource_type: 'user',
        resource_id: ids.merchant,
        resource_ids: [ids.merchant],
        diff: {},
        detail: { actor: 'admin', merchant: 'merchant' },
        ip: '127.0.0.1',
        user_agent: null,
        request_id: null,
        result: 'ok',
        error_code: null,
      },
    ]);
    expect((await list('admin')).total).toBe(8);
  });
});
