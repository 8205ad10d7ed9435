import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserConfig } from '../../src/api/contract/user-config';
import { notifyAccountAttention } from '../../server/modules/notifications/events';
import { api, createTestApp, engines, snapshot, type TestApp } from './helpers';

/**
 * The caller's own settings (docs/domain.md §12 "The caller's own settings"): defaults, edits
 * (audited, only what changed), refusals that change nothing, the OEM mini-program appid only for
 * a partner with open_oem = 1, each user only its own, and the notification settings honoured.
 */
const NAMES = ['admin', 'partner', 'partner2', 'agent', 'merchant', 'merchant2'] as const;
type Name = (typeof NAMES)[number];
const APPID = 'wx0123456789abcdef';

describe.each(engines)('user settings on %s', (engine) => {
  let t: TestApp;
  let tokens: Record<Name, string>;
  let ids: Record<Name, number>;

  beforeEach(async () => {
    t = await createTestApp(engine);
    tokens = {} as Record<Name, string>;
    ids = {} as Record<Name, number>;
    for (const name of NAMES) {
      tokens[name] = await t.login(name);
      ids[name] = (await t.user(name)).id;
    }
  });
  afterEach(async () => {
    await t.close();
  });

  const info = async (who: Name) => {
    const reply = await t.call<UserConfig>('GET', api('/user_config/info'), {
      token: tokens[who],
    });
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  };
  const edit = (who: Name, body: unknown) =>
    t.call<UserConfig>('POST', api('/user_config/edit'), {
      token: tokens[who],
      body,
      headers: { lang: 'en-US' },
    });
  const audits = () =>
    t.db
      .selectFrom('audit_log')
      .select(['actor_id', 'target_id', 'diff'])
      .where('action', '=', 'user_config.edit')
      .where('result', '=', 'ok')
      .orderBy('id')
      .execute();

  it('answers the defaults, saves an edit (audited, only what changed) for the caller only', async () => {
    expect(await info('merchant')).toEqual({
      notify_task_done: '1',
      notify_clone_done: '1',
      notify_matrix: '1',
      default_ratio: '9:16',
      default_resolution: '720p',
      mini_appid: '',
      can_set_mini_appid: false,
    });
    const saved = await edit('merchant', {
      notify_matrix: '0',
      default_ratio: '16:9',
      default_resolution: '720p',
    });
    expect(saved.body).toMatchObject({
      code: 1,
      msg: 'Settings saved',
      data: { notify_matrix: '0', default_ratio: '16:9', default_resolution: '720p' },
    });
    expect(await info('merchant')).toMatchObject({ notify_matrix: '0', default_ratio: '16:9' });
    expect((await info('merchant2')).notify_matrix).toBe('1');
    const rows = await audits();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_id: ids.merchant, target_id: ids.merchant });
    expect(JSON.parse(String(rows[0].diff))).toEqual({
      notify_matrix: { before: '1', after: '0' },
      default_ratio: { before: '9:16', after: '16:9' },
    });
    // The same values again: nothing written, no row.
    expect((await edit('merchant', { notify_matrix: '0' })).body.code).toBe(1);
    expect(await audits()).toHaveLength(1);
  });

  it('refuses bad input and changes nothing', async () => {
    const before = await snapshot(t.db);
    for (const body of [
      { notify_task_done: '2' },
      { default_ratio: '2:1' },
      { default_resolution: '4k' },
      { mini_appid: 'abc' },
      { user_id: ids.merchant2, notify_matrix: '0' },
      { notify_matrix: 0 },
    ]) {
      const reply = await edit('merchant', body);
      expect(reply.status, reply.raw).toBe(200);
      expect(reply.body.code, JSON.stringify(body)).toBe(0);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('only a partner with open_oem = 1 sets its mini-program appid', async () => {
    const before = await snapshot(t.db);
    // partner2 is a partner without OEM (open_oem = 0); the demo's partner has it.
    for (const who of ['merchant', 'partner2', 'admin'] as const) {
      expect((await edit(who, { mini_appid: APPID })).body).toMatchObject({
        code: 0,
        msg: 'Only an OEM partner can set a mini-program appid',
      });
    }
    expect(await snapshot(t.db)).toEqual(before);
    expect((await info('partner2')).can_set_mini_appid).toBe(false);
    expect((await info('partner')).can_set_mini_appid).toBe(true);
    const saved = await edit('partner', { mini_appid: APPID });
    expect(saved.body.data).toMatchObject({ mini_appid: APPID, can_set_mini_appid: true });
    expect((await t.user('partner')).mini_appid).toBe(APPID);
    await edit('partner', { mini_appid: '' });
    expect((await t.user('partner')).mini_appid).toBe('');
  });

  it('a user who turned a kind of notification off gets none of it', async () => {
    const count = async (who: Name) =>
      Number(
        (
          await t.db
            .selectFrom('notifications')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', ids[who])
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = { merchant: await count('merchant'), merchant2: await count('merchant2') };
    expect((await edit('merchant', { notify_matrix: '0' })).body.code).toBe(1);
    for (const who of ['merchant', 'merchant2'] as const) {
      await notifyAccountAttention(
        t.db,
        { id: 900 + ids[who], owner_id: ids[who], nickname: 'shop' },
        'expired',
        1,
        t.clock(),
      );
    }
    expect(await count('merchant')).toBe(before.merchant);
    expect(await count('merchant2')).toBe(before.merchant2 + 1);
  });
});
