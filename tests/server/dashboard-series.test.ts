/**
 * GET /platform/dashboard_series (docs/domain.md §21): each figure per Asia/Shanghai day, from the
 * rows themselves (users, the ledger's recharges, settled holds by kind, finished outputs, published
 * posts), scoped by visible(u), and the same days whatever the server's TZ.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DashboardSeries, SeriesPoint } from '../../src/api/contract/dashboard';
import { HOUR, MINUTE, createTestApp, engines, snapshot, type TestApp } from './helpers';

const DAY = 24 * HOUR;
const EN = { lang: 'en-US' };
const ORIGINAL_TZ = process.env.TZ;

/** Everything one merchant did at one instant, `k` of each (money in cents). */
async function seedAt(t: TestApp, ownerName: string, at: number, k: number, tag: string) {
  const owner = await t.user(ownerName);
  // A user signed up under the same partner (the merchant's sibling).
  const { id: _id, ...row } = owner;
  await t.db
    .insertInto('users')
    .values({
      ...row,
      username: `u-${tag}`,
      mobile: null,
      service_prefix_no: null,
      created_at: at,
    })
    .execute();
  await t.db
    .insertInto('ledger')
    .values({
      user_id: owner.id,
      asset: 'money',
      type: 'recharge',
      change: 100 * k,
      before: 0,
      after: 100 * k,
      related_type: 'recharge_order',
      related_id: 1,
      operator_id: null,
      created_at: at,
    })
    .execute();
  const spends: [string, 'money' | 'digital_man' | 'digital_voice' | 'image_clone', number][] = [
    ['video_task', 'money', 250 * k],
    ['dh_video', 'digital_man', 60 * k],
    ['dh_voice_clone', 'digital_voice', k],
    ['dh_image_clone', 'image_clone', k],
  ];
  for (const [related, asset, amount] of spends) {
    const hold = await t.db
      .insertInto('ledger_holds')
      .values({
        user_id: owner.id,
        asset,
        related_type: related,
        related_id: 1,
        amount,
        settled: amount,
        created_at: at,
        updated_at: at,
        closed_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const account of ['task_hold', 'revenue'] as const) {
      await t.db
        .insertInto('system_ledger')
        .values({
          account,
          asset,
          change: account === 'revenue' ? amount : -amount,
          before: 0,
          after: 0,
          type: 'task_settle',
          related_type: related,
          related_id: 1,
          hold_id: Number(hold.id),
          created_at: at,
        })
        .execute();
    }
  }
  const task = await t.db
    .insertInto('video_tasks')
    .values({
      owner_id: owner.id,
      kind: 'mixed',
      name: tag,
      status: 'done',
      params: '{}',
      total: k + 1,
      unit_price: 0,
      progress_at: at,
      created_at: at,
      updated_at: at,
      finished_at: at,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 1; i <= k + 1; i++) {
    await t.db
      .insertInto('video_outputs')
      .values({
        task_id: Number(task.id),
        idx: i,
        // One output failed: not a video made.
        status: i <= k ? 'done' : 'failed',
        combination: '{}',
        planned_ms: 1000,
        billing: 'settled',
        price: 0,
        job_id: null,
        storage_key: null,
        poster_key: null,
        duration_ms: null,
        size: null,
        width: null,
        height: null,
        reason_id: null,
        reason_params: null,
        reason_detail: null,
        started_at: at,
        finished_at: at,
        updated_at: at,
      })
      .execute();
  }
  const account = await t.db
    .insertInto('matrix_accounts')
    .values({
      owner_id: owner.id,
      platform: 'douyin',
      sandbox: 1,
      open_id: `open-${tag}`,
      nickname: tag,
      avatar: '',
      fans: 0,
      group_id: null,
      status: 'normal',
      access_token: 'x',
      refresh_token: 'x',
      expires_at: at + DAY,
      refresh_expires_at: at + DAY,
      renewals_left: 1,
      last_refresh_at: null,
      last_error: null,
      refresh_lease_until: null,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const plan = await t.db
    .insertInto('matrix_plans')
    .values({
      owner_id: owner.id,
      name: tag,
      status: 'running',
      timezone: 'Asia/Shanghai',
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      slots: '[]',
      daily_max: 10,
      titles: '[]',
      topics: '[]',
      location: null,
      account_ids: '[]',
      media: '[]',
      total: k + 1,
      started_at: at,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 1; i <= k + 1; i++) {
    const published = i <= k;
    await t.db
      .insertInto('matrix_posts')
      .values({
        plan_id: Number(plan.id),
        owner_id: owner.id,
        account_id: Number(account.id),
        media_type: 'video',
        media_id: 1,
        title: tag,
        scheduled_at: at,
        // One post still waiting: not published.
        status: published ? 'published' : 'waiting',
        lease_until: null,
        dispatched_at: null,
        claimed_at: null,
        platform_media_id: null,
        create_sent_at: null,
        platform_post_id: null,
        share_url: null,
        reason_kind: null,
        reason_id: null,
        reason_params: null,
        platform_code: null,
        platform_text: null,
        published_at: published ? at : null,
        metrics_at: null,
        updated_at: at,
        seq: i,
      })
      .execute();
  }
}

/** The figures `seedAt` adds for `k`. */
function figuresOf(k: number): Omit<SeriesPoint, 'date'> {
  const money = (cents: number) =>
    `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  return {
    new_users: k === 0 ? 0 : 1,
    recharge: money(100 * k),
    spend_video: money(250 * k),
    spend_digital_human: 60 * k,
    spend_clones: 2 * k,
    videos: k,
    posts: k,
  };
}

function sum(...figures: Omit<SeriesPoint, 'date'>[]): Omit<SeriesPoint, 'date'> {
  const cents = (s: string) => Math.round(Number(s) * 100);
  const money = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
  return figures.reduce((a, b) => ({
    new_users: a.new_users + b.new_users,
    recharge: money(cents(a.recharge) + cents(b.recharge)),
    spend_video: money(cents(a.spend_video) + cents(b.spend_video)),
    spend_digital_human: a.spend_digital_human + b.spend_digital_human,
    spend_clones: a.spend_clones + b.spend_clones,
    videos: a.videos + b.videos,
    posts: a.posts + b.posts,
  }));
}

describe.each(engines)('dashboard_series on %s', (engine) => {
  let t: TestApp;
  // 2026-06-10 10:00 in Shanghai (02:00 UTC): the demo's rows lie months before.
  let todayStart: number;
  beforeEach(async () => {
    t = await createTestApp(engine);
    t.clock.advance(100 * DAY);
    todayStart = Date.parse('2026-06-09T16:00:00Z');
    expect(t.clock()).toBe(Date.parse('2026-06-10T02:00:00Z'));
    // merchant (partner's subtree): today's first minute (the UTC date before), yesterday's
    // last, 6 days ago, 20 days ago (30-day range only), 30 days ago (out of both).
    await seedAt(t, 'merchant', todayStart + MINUTE, 1, 'm-today');
    await seedAt(t, 'merchant', todayStart - MINUTE, 2, 'm-yesterday');
    await seedAt(t, 'merchant', todayStart - 6 * DAY, 3, 'm-6');
    await seedAt(t, 'merchant', todayStart - 20 * DAY + HOUR, 4, 'm-20');
    await seedAt(t, 'merchant', todayStart - 29 * DAY - MINUTE, 5, 'm-30');
    // merchant2 (partner2's subtree): today, 5 of each.
    await seedAt(t, 'merchant2', todayStart + 2 * HOUR, 5, 'm2-today');
  });
  afterEach(async () => {
    process.env.TZ = ORIGINAL_TZ;
    await t.close();
  });

  const series = async (username: string, days: string) => {
    const reply = await t.get<DashboardSeries>(
      '/platform/dashboard_series',
      { days },
      await t.login(username),
    );
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(1);
    return reply.body.data;
  };

  it('answers every Shanghai day of the range, oldest first, today last, with its figures', async () => {
    const week = await series('merchant', '7');
    expect(week.days).toBe(7);
    expect(week.points.map((p) => p.date)).toEqual([
      '2026-06-04',
      '2026-06-05',
      '2026-06-06',
      '2026-06-07',
      '2026-06-08',
      '2026-06-09',
      '2026-06-10',
    ]);
    const { date: _d, ...today } = week.points[6];
    // The merchant itself signs nobody up: its own series counts no new users.
    expect(today).toEqual({ ...figuresOf(1), new_users: 0 });
    expect(week.points[5]).toEqual({ date: '2026-06-09', ...figuresOf(2), new_users: 0 });
    expect(week.points[0]).toEqual({ date: '2026-06-04', ...figuresOf(3), new_users: 0 });
    for (const i of [1, 2, 3, 4])
      expect(week.points[i]).toEqual({ date: week.points[i].date, ...figuresOf(0) });

    const month = await series('merchant', '30');
    expect(month.points).toHaveLength(30);
    expect(month.points[0].date).toBe('2026-05-12');
    expect(month.points.slice(-7)).toEqual(week.points);
    expect(month.points[29 - 20]).toEqual({ date: '2026-05-21', ...figuresOf(4), new_users: 0 });
    // The row of 30 days ago (the day before the range) is in neither.
    const totalPosts = month.points.reduce((n, p) => n + p.posts, 0);
    expect(totalPosts).toBe(1 + 2 + 3 + 4);
  });

  it('scopes by visible(u): admin the platform, a partner its subtree, a merchant itself', async () => {
    const today = async (username: string) => {
      const { date: _d, ...p } = (await series(username, '7')).points[6];
      return p;
    };
    // Today: merchant's k=1 and merchant2's k=5 rows; the new users are siblings of each merchant.
    expect(await today('admin')).toEqual(sum(figuresOf(1), figuresOf(5)));
    expect(await today('partner')).toEqual(figuresOf(1));
    expect(await today('partner2')).toEqual(figuresOf(5));
    expect(await today('merchant2')).toEqual({ ...figuresOf(5), new_users: 0 });
    // The agent referred `merchant`, not its sibling sign-ups (they copy its agent but the
    // merchant's own rows are the agent's to see): its scope is visible(u) like dashboard_data.
    const agent = await today('agent');
    expect(agent.videos).toBe(1);
    expect(agent.posts).toBe(1);
  });

  it('gives the same days and figures under TZ=UTC, Asia/Shanghai and America/New_York', async () => {
    const answers: DashboardSeries[] = [];
    for (const tz of ['UTC', 'Asia/Shanghai', 'America/New_York']) {
      process.env.TZ = tz;
      expect(new Date(0).getTimezoneOffset()).toBe(
        tz === 'UTC' ? 0 : tz === 'Asia/Shanghai' ? -480 : 300,
      );
      answers.push(await series('admin', '7'));
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0].points[6].date).toBe('2026-06-10');
    expect(answers[0].points[6].videos).toBe(1 + 5);
    expect(answers[0].points[5].videos).toBe(2);
  });

  it('refuses a range other than 7 or 30 days, and answers no one signed out', async () => {
    const token = await t.login('admin');
    const before = await snapshot(t.db);
    const queries: Record<string, string>[] = [
      { days: '14' },
      { days: 'x' },
      {},
      { days: '7', extra: '1' },
    ];
    for (const query of queries) {
      const reply = await t.call('GET', '/api/v1/platform/dashboard_series', {
        token,
        query,
        headers: EN,
      });
      expect(reply.status, JSON.stringify(query)).toBeLessThan(500);
      expect(reply.body, JSON.stringify(query)).toMatchObject({ code: 0, data: null });
    }
    const anonymous = await t.get('/platform/dashboard_series', { days: '7' });
    expect(anonymous.body).toMatchObject({ data: null });
    expect(anonymous.body).not.toMatchObject({ code: 1 });
    expect(await snapshot(t.db)).toEqual(before);
  });
});
