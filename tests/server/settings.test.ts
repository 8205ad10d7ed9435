import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlatformConfig, SettingView } from '../../src/api/contract/settings';
import type { ConfigPair } from '../../src/api/contract/system';
import type { VideoTaskEstimate } from '../../src/api/contract/video-tasks';
import { settleOutput } from '../../server/modules/video-tasks/billing';
import { api, createTestApp, engines, snapshot, type TestApp } from './helpers';
import { putResource } from './resource-fixtures';
import { mixedBody } from './video-task-fixtures';

/**
 * Settings and prices (docs/domain.md §12 "Settings and prices"): the admin's platform values
 * with units and ranges, a partner's overrides within the admin's limits, the reads of the
 * settings a caller may see, and the price a merchant pays: its partner's override, frozen at
 * submit.
 */
const NAMES = ['admin', 'partner', 'partner2', 'agent', 'merchant', 'merchant2'] as const;
type Name = (typeof NAMES)[number];

describe.each(engines)('settings and prices on %s', (engine) => {
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

  const call = <T>(
    who: Name,
    method: 'GET' | 'POST',
    url: string,
    input?: unknown,
    lang = 'en-US',
  ) =>
    t.call<T>(method, api(url), {
      token: tokens[who],
      headers: { lang },
      ...(method === 'GET' ? { query: input as Record<string, string> } : { body: input }),
    });
  const view = async (who: Name) => {
    const reply = await call<PlatformConfig>(who, 'GET', '/platform/get_platform_config');
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  };
  const setting = async (who: Name, key: string): Promise<SettingView> =>
    (await view(who)).settings.find((s) => s.key === key)!;
  const set = (who: Name, values: Record<string, unknown>, lang = 'en-US') =>
    call<PlatformConfig>(who, 'POST', '/platform/set_config', { values }, lang);
  const setOk = async (who: Name, values: Record<string, unknown>) => {
    const reply = await set(who, values);
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data;
  };
  const audits = () =>
    t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'target_type', 'target_ids', 'diff'])
      .where('action', '=', 'settings.set')
      .where('result', '=', 'ok')
      .orderBy('id')
      .execute();
  /** The admin lets partners override the output price between 0.05 and 0.50. */
  const allowOutputOverride = () =>
    setOk('admin', {
      partner_override_keys: 'video_output_cost',
      video_output_cost_floor: '0.05',
      video_output_cost_ceiling: '0.5',
    });

  it('shows the admin every setting with its group, unit and range', async () => {
    const config = await view('admin');
    expect(config.scope).toBe('platform');
    expect(config.settings.find((s) => s.key === 'video_output_cost')).toMatchObject({
      group: 'price',
      kind: 'money',
      unit: 'money_per_output',
      min: '0.00',
      max: '10000.00',
      value: '0.10',
      overridable: false,
    });
    expect(config.settings.find((s) => s.key === 'digital_man_cost')).toMatchObject({
      kind: 'int',
      unit: 'seconds_per_second',
      min: '0',
      max: '100',
      value: '1',
    });
    expect(config.settings.find((s) => s.key === 'money_recharge_exchange_config')).toMatchObject({
      group: 'exchange',
      kind: 'options',
      options: ['1', '2', '3', '4'],
      value: '1,2,3,4',
    });
    const groups = new Set(config.settings.map((s) => s.group));
    expect([...groups]).toEqual(['price', 'quota', 'exchange', 'limit', 'show', 'override']);
    for (const key of [
      'image_clone_money_exchange_num',
      'digital_voice_money_exchange_num',
      'storage_quota_bytes',
      'VITE_MERCHANT_COUNT_LIMITATION',
      'saler_show',
      'expirence_money_show',
      'dy_auth_publish_show',
    ]) {
      expect(
        config.settings.some((s) => s.key === key),
        key,
      ).toBe(true);
    }
  });

  it('the admin sets platform values (normalised, audited before → after, read back)', async () => {
    const data = await setOk('admin', {
      video_output_cost: '0.2',
      digital_man_cost: 2,
      money_recharge_exchange_config: '4, 1',
      saler_show: '0',
      VITE_MERCHANT_COUNT_LIMITATION: '-1',
    });
    const value = (key: string) => data.settings.find((s) => s.key === key)!.value;
    expect(value('video_output_cost')).toBe('0.20');
    expect(value('digital_man_cost')).toBe('2');
    expect(value('money_recharge_exchange_config')).toBe('1,4');
    expect(value('saler_show')).toBe('0');
    const rows = await audits();
    expect(rows).toHaveLength(1);
    const diff = JSON.parse(String(rows[0].diff)) as Record<string, unknown>;
    expect(diff).toEqual({
      video_output_cost: { before: '0.10', after: '0.20' },
      digital_man_cost: { before: '1', after: '2' },
      money_recharge_exchange_config: { before: '1,2,3,4', after: '1,4' },
      saler_show: { before: '1', after: '0' },
    });
    expect(rows[0].actor_id).toBe(ids.admin);
    const single = await call<ConfigPair>('merchant', 'GET', '/platform/get_single_config', {
      key: 'video_output_cost',
    });
    expect(single.body.data).toEqual({ name: 'video_output_cost', value: '0.20' });
    // The same values again change nothing and write no row.
    await setOk('admin', { video_output_cost: '0.20' });
    expect(await audits()).toHaveLength(1);
  });

  it('refuses bad values with a localised reason and changes nothing', async () => {
    const before = await snapshot(t.db);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ nope: '1' }, 'There is no setting named nope', '没有名为 nope 的设置'],
      [{ demo_data: '0' }, 'There is no setting named demo_data', '没有名为 demo_data 的设置'],
      [
        { video_output_cost: 'abc' },
        'The value of video_output_cost is not valid',
        'video_output_cost 的值无效',
      ],
      [
        { video_output_cost: '0.123' },
        'The value of video_output_cost is not valid',
        'video_output_cost 的值无效',
      ],
      [
        { video_output_cost: '-1' },
        'The value of video_output_cost is not valid',
        'video_output_cost 的值无效',
      ],
      [
        { video_output_cost: '10000.01' },
        'video_output_cost must be between 0.00 and 10000.00',
        'video_output_cost 必须在 0.00 到 10000.00 之间',
      ],
      [
        { digital_man_cost: '1.5' },
        'The value of digital_man_cost is not valid',
        'digital_man_cost 的值无效',
      ],
      [
        { VITE_MERCHANT_COUNT_LIMITATION: '-2' },
        'VITE_MERCHANT_COUNT_LIMITATION must be between -1 and 1000000',
        'VITE_MERCHANT_COUNT_LIMITATION 必须在 -1 到 1000000 之间',
      ],
      [{ saler_show: '2' }, 'The value of saler_show is not valid', 'saler_show 的值无效'],
      [
        { money_recharge_exchange_config: '1,5' },
        'The value of money_recharge_exchange_config is not valid',
        'money_recharge_exchange_config 的值无效',
      ],
      [
        { money_recharge_exchange_config: '1,1' },
        'The value of money_recharge_exchange_config is not valid',
        'money_recharge_exchange_config 的值无效',
      ],
      [
        { partner_override_keys: 'saler_show' },
        'The value of partner_override_keys is not valid',
        'partner_override_keys 的值无效',
      ],
      [
        { video_output_cost_floor: '1', video_output_cost_ceiling: '0.5' },
        'The floor of video_output_cost is above its ceiling',
        'video_output_cost 的下限高于上限',
      ],
      // One bad value refuses the whole call: the good one is not written either.
      [
        { video_output_cost: '0.30', saler_show: 'yes' },
        'The value of saler_show is not valid',
        'saler_show 的值无效',
      ],
    ];
    for (const [values, en, zh] of cases) {
      const reply = await set('admin', values);
      expect(reply.status, reply.raw).toBe(200);
      expect(reply.body, JSON.stringify(values)).toMatchObject({ code: 0, msg: en });
      const zhReply = await set('admin', values, 'zh-CN');
      expect(zhReply.body, JSON.stringify(values)).toMatchObject({ code: 0, msg: zh });
    }
    for (const body of [{}, { values: {} }, { values: [] }, { values: { a: true } }, { x: 1 }]) {
      const reply = await call('admin', 'POST', '/platform/set_config', body);
      expect(reply.status, reply.raw).toBeLessThan(500);
      expect(reply.body.code, JSON.stringify(body)).toBe(0);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('closes the calls to merchants and agents', async () => {
    const before = await snapshot(t.db);
    for (const who of ['merchant', 'agent'] as const) {
      expect((await call(who, 'GET', '/platform/get_platform_config')).status).toBe(403);
      const reply = await set(who, { video_output_cost: '0.01' });
      expect(reply.status).toBe(403);
    }
    expect(
      (await t.call('GET', api('/platform/get_config'), { query: { keys: 'x' } })).status,
    ).toBe(401);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('a partner overrides only the keys the admin allows, within its floor and ceiling', async () => {
    // Nothing is overridable until the admin says so.
    const closed = await set('partner', { video_output_cost: '0.20' });
    expect(closed.body).toMatchObject({
      code: 0,
      msg: 'video_output_cost cannot be overridden by a partner',
    });
    await allowOutputOverride();
    const mine = await setting('partner', 'video_output_cost');
    expect(mine).toMatchObject({
      value: '',
      platform_value: '0.10',
      effective: '0.10',
      min: '0.05',
      max: '0.50',
      overridable: true,
    });

    const before = await snapshot(t.db);
    for (const [values, msg] of [
      [{ video_output_cost: '0.51' }, 'video_output_cost must be between 0.05 and 0.50'],
      [{ video_output_cost: '0.04' }, 'video_output_cost must be between 0.05 and 0.50'],
      [{ digital_man_cost: '2' }, 'digital_man_cost cannot be overridden by a partner'],
      [{ saler_show: '0' }, 'saler_show cannot be overridden by a partner'],
      [
        { video_output_cost_ceiling: '9' },
        'video_output_cost_ceiling cannot be overridden by a partner',
      ],
      [{ partner_override_keys: '' }, 'partner_override_keys cannot be overridden by a partner'],
    ] as const) {
      expect((await set('partner', values)).body, JSON.stringify(values)).toMatchObject({
        code: 0,
        msg,
      });
    }
    // There is no way to name another partner: the body is only the values.
    const other = await call('partner', 'POST', '/platform/set_config', {
      values: { video_output_cost: '0.30' },
      partner_id: ids.partner2,
    });
    expect(other.body.code).toBe(0);
    expect(await snapshot(t.db)).toEqual(before);

    const saved = await setOk('partner', { video_output_cost: '0.3' });
    expect(saved.scope).toBe('partner');
    expect(saved.settings.find((s) => s.key === 'video_output_cost')).toMatchObject({
      value: '0.30',
      effective: '0.30',
      platform_value: '0.10',
    });
    // partner2 and its merchants still see and pay the platform's price.
    expect(await setting('partner2', 'video_output_cost')).toMatchObject({
      value: '',
      effective: '0.10',
    });
    const price = async (who: Name) =>
      (
        await call<ConfigPair[]>(who, 'GET', '/platform/get_config', {
          keys: 'video_output_cost,saler_show',
        })
      ).body.data;
    expect(await price('merchant')).toEqual([
      { name: 'video_output_cost', value: '0.30' },
      { name: 'saler_show', value: '1' },
    ]);
    expect((await price('merchant2'))[0].value).toBe('0.10');
    expect((await price('admin'))[0].value).toBe('0.10');

    const rows = await audits();
    expect(rows.at(-1)).toMatchObject({ actor_id: ids.partner, target_type: 'platform_config' });
    expect(JSON.parse(String(rows.at(-1)!.diff))).toEqual({
      video_output_cost: { before: null, after: '0.30' },
    });

    // The admin narrows the ceiling: the override is held to it at once.
    await setOk('admin', { video_output_cost_ceiling: '0.25' });
    expect((await price('merchant'))[0].value).toBe('0.25');
    // The admin withdraws the key: the platform's price applies again.
    await setOk('admin', { partner_override_keys: '' });
    expect((await price('merchant'))[0].value).toBe('0.10');
    await setOk('admin', { partner_override_keys: 'video_output_cost' });
    // '' removes the override.
    await setOk('partner', { video_output_cost: '' });
    expect((await price('merchant'))[0].value).toBe('0.10');
    expect(await t.db.selectFrom('partner_config').selectAll().execute()).toEqual([]);
  });

  it('exchange prices: the override is shown in the user info and charged; a user price wins', async () => {
    await setOk('admin', {
      partner_override_keys: 'digital_man_money_exchange_num',
      digital_man_money_exchange_num_floor: '0.5',
      digital_man_money_exchange_num_ceiling: '5',
    });
    await setOk('partner', { digital_man_money_exchange_num: '2' });
    const info = async (who: Name) =>
      (
        await call<{ digital_man_money_exchange_num: string }>(
          who,
          'POST',
          '/platform/get_user_info',
        )
      ).body.data.digital_man_money_exchange_num;
    expect(await info('merchant')).toBe('2.00');
    expect(await info('merchant2')).toBe('1');
    const exchange = async (who: Name) => {
      const reply = await call<{ cost: string }>(who, 'POST', '/platform/exchange', {
        asset: 'digital_man',
        quantity: 1,
      });
      expect(reply.body.code, reply.raw).toBe(1);
      return reply.body.data.cost;
    };
    expect(await exchange('merchant')).toBe('2.00');
    expect(await exchange('merchant2')).toBe('1.00');
    // A price of the user's own wins over its partner's.
    await t.db
      .updateTable('users')
      .set({ digital_man_money_exchange_num: '0.8' })
      .where('id', '=', ids.merchant)
      .execute();
    expect(await info('merchant')).toBe('0.8');
    expect(await exchange('merchant')).toBe('0.80');
  });

  it('get_config answers only the keys the caller may read', async () => {
    for (const [who, keys] of [
      ['merchant', 'partner_override_keys'],
      ['merchant', 'sms_access_key_secret'],
      ['agent', 'demo_data'],
      ['partner', 'name,nope'],
    ] as const) {
      const reply = await call(who, 'GET', '/platform/get_config', { keys });
      expect(reply.body.code, `${who} ${keys}`).toBe(0);
    }
    const partner = await call<ConfigPair[]>('partner', 'GET', '/platform/get_config', {
      keys: 'partner_override_keys,storage_quota_bytes',
    });
    expect(partner.body.data.map((p) => p.name)).toEqual([
      'partner_override_keys',
      'storage_quota_bytes',
    ]);
    const missing = await call('merchant', 'GET', '/platform/get_single_config', {});
    expect(missing.body).toMatchObject({ code: 0 });
  });

  it('a merchant of an overriding partner is charged the override; work already held keeps its price', async () => {
    await allowOutputOverride();
    await setOk('partner', { video_output_cost: '0.30' });
    const shots = async (who: 'merchant' | 'merchant2') => {
      const groups: number[][] = [];
      for (let g = 0; g < 3; g += 1) {
        const row: number[] = [];
        for (let i = 0; i < 3; i += 1) {
          row.push((await putResource(t, ids[who], { name: `g${g} s${i}`, durationMs: 2000 })).id);
        }
        groups.push(row);
      }
      return groups;
    };
    const mine = await shots('merchant');
    const theirs = await shots('merchant2');
    const add = async (who: 'merchant' | 'merchant2', groups: number[][]) => {
      const reply = await call<{ id: number }>(who, 'POST', '/video_task/add', mixedBody(groups));
      expect(reply.body.code, reply.raw).toBe(1);
      return reply.body.data.id;
    };
    const freezeOf = async (taskId: number) => {
      const rows = await t.db
        .selectFrom('ledger')
        .select(['type', 'change'])
        .where('related_type', '=', 'video_task')
        .where('related_id', '=', taskId)
        .execute();
      return rows.map((r) => [r.type, Number(r.change)]);
    };

    const estimate = await call<VideoTaskEstimate>(
      'merchant',
      'POST',
      '/video_task/estimate',
      mixedBody(mine),
    );
    expect(estimate.body.data).toMatchObject({ unit_cost: '0.30', cost: '1.50' });
    const first = await add('merchant', mine);
    expect(await freezeOf(first)).toEqual([['task_freeze', -150]]);
    const other = await add('merchant2', theirs);
    expect(await freezeOf(other)).toEqual([['task_freeze', -50]]);

    // The partner raises its price: new work pays it, the held task keeps 0.30 an output.
    await setOk('partner', { video_output_cost: '0.45' });
    const second = await add('merchant', mine);
    expect(await freezeOf(second)).toEqual([['task_freeze', -225]]);

    const output = await t.db
      .selectFrom('video_outputs')
      .select(['id', 'price'])
      .where('task_id', '=', first)
      .orderBy('idx')
      .executeTakeFirstOrThrow();
    expect(Number(output.price)).toBe(30);
    await t.db
      .updateTable('video_outputs')
      .set({ status: 'rendering' })
      .where('id', '=', output.id)
      .execute();
    expect(
      await settleOutput(t.app.ctx, Number(output.id), {
        storageKey: 'video/done.mp4',
        posterKey: null,
        durationMs: 2400,
        size: 1000,
        width: 720,
        height: 1280,
      }),
    ).toBe(true);
    const hold = await t.db
      .selectFrom('ledger_holds')
      .select(['amount', 'settled'])
      .where('related_type', '=', 'video_task')
      .where('related_id', '=', first)
      .executeTakeFirstOrThrow();
    expect([Number(hold.amount), Number(hold.settled)]).toEqual([150, 30]);
    const task = await t.db
      .selectFrom('video_tasks')
      .select(['frozen', 'settled'])
      .where('id', '=', first)
      .executeTakeFirstOrThrow();
    expect([Number(task.frozen), Number(task.settled)]).toEqual([150, 30]);
  });
});
