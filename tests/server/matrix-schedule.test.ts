// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import {
  dateIn,
  datesBetween,
  schedule,
  scheduleSize,
  zonedInstant,
  type ScheduleInput,
} from '../../server/modules/matrix/schedule';

/**
 * A plan's schedule (docs/domain.md §20) is the same UTC instants whatever the server's `TZ`;
 * slots near midnight land on the plan's own dates; media are spread evenly and never the same
 * at one moment; daily_max caps each account's day.
 */
const ORIGINAL_TZ = process.env.TZ;
afterEach(() => {
  process.env.TZ = ORIGINAL_TZ;
});

const input = (over: Partial<ScheduleInput> = {}): ScheduleInput => ({
  accounts: 3,
  media: 4,
  titles: 2,
  dates: datesBetween('2026-12-01', '2026-12-03'),
  slots: ['00:15', '09:00', '23:45'],
  dailyMax: 2,
  timezone: 'Asia/Shanghai',
  notBefore: 0,
  ...over,
});

describe('release plan schedule', () => {
  it('gives the same UTC instants under TZ=UTC, Asia/Shanghai and America/New_York', () => {
    const runs = ['UTC', 'Asia/Shanghai', 'America/New_York'].map((tz) => {
      process.env.TZ = tz;
      // The process really runs in that zone (Node reads TZ when it changes).
      const offset = new Date(Date.UTC(2026, 11, 1)).getTimezoneOffset();
      return { offset, posts: [...schedule(input({ timezone: 'America/New_York' }))] };
    });
    expect(new Set(runs.map((r) => r.offset)).size).toBe(3);
    expect(runs[1].posts).toEqual(runs[0].posts);
    expect(runs[2].posts).toEqual(runs[0].posts);
  });

  it('slots across midnight are on the plan’s dates in its zone', () => {
    expect(new Date(zonedInstant('2026-12-01', '00:15', 'Asia/Shanghai')).toISOString()).toBe(
      '2026-11-30T16:15:00.000Z',
    );
    expect(new Date(zonedInstant('2026-12-01', '23:45', 'Asia/Shanghai')).toISOString()).toBe(
      '2026-12-01T15:45:00.000Z',
    );
    expect(dateIn(Date.parse('2026-11-30T16:15:00Z'), 'Asia/Shanghai')).toBe('2026-12-01');
    // New York's summer-time change: the skipped hour moves forward, the repeated one is the first.
    expect(new Date(zonedInstant('2026-03-08', '02:30', 'America/New_York')).toISOString()).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    expect(new Date(zonedInstant('2026-11-01', '01:30', 'America/New_York')).toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    const posts = [...schedule(input())];
    for (const post of posts) {
      expect(['2026-12-01', '2026-12-02', '2026-12-03']).toContain(
        dateIn(post.at, 'Asia/Shanghai'),
      );
    }
    expect(posts.map((p) => p.at)).toEqual([...posts.map((p) => p.at)].sort((a, b) => a - b));
  });

  it('caps each account’s day at daily_max, spreads accounts over the slots', () => {
    const posts = [...schedule(input())];
    expect(posts).toHaveLength(3 * 3 * 2);
    expect(scheduleSize(input())).toBe(posts.length);
    const perAccountDay = new Map<string, number>();
    for (const p of posts) {
      const key = `${p.account}:${dateIn(p.at, 'Asia/Shanghai')}`;
      perAccountDay.set(key, (perAccountDay.get(key) ?? 0) + 1);
    }
    expect([...perAccountDay.values()].every((n) => n === 2)).toBe(true);
    // Each slot is used (accounts start at different slots).
    const slotsUsed = new Set(posts.map((p) => new Date(p.at).toISOString().slice(11, 16)));
    expect(slotsUsed.size).toBe(3);
  });

  it('spreads media evenly and never gives two accounts the same video at one moment', () => {
    const big = input({
      accounts: 7,
      media: 5,
      dailyMax: 3,
      dates: datesBetween('2026-12-01', '2026-12-10'),
    });
    const posts = [...schedule(big)];
    const perMedia = [0, 0, 0, 0, 0];
    for (const p of posts) perMedia[p.media] += 1;
    expect(Math.max(...perMedia) - Math.min(...perMedia)).toBeLessThanOrEqual(1);
    const atMoment = new Map<number, number[]>();
    for (const p of posts) atMoment.set(p.at, [...(atMoment.get(p.at) ?? []), p.media]);
    for (const media of atMoment.values()) expect(new Set(media).size).toBe(media.length);
  });

  it('leaves out moments already past', () => {
    const all = [...schedule(input())];
    const later = [...schedule(input({ notBefore: all[5].at }))];
    expect(later.length).toBe(all.filter((p) => p.at >= all[5].at).length);
  });
});
