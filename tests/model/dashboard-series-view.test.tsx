/**
 * The dashboard-series machine (src/machines/dashboard-series.ts) through the admin home's real
 * charts, against a hand-written oracle: the machine's shortest paths only propose event
 * sequences; each step is a click on the range switch or the retry button, balance news (paid
 * work settled elsewhere: the charts ask again), or the fake `getDashboardSeries` endpoint
 * settling; the state after it comes from the table below, asserted on screen with the range
 * asked for.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { DashboardSeries, SeriesDays } from '../../src/api/contract/dashboard';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { balanceNewsArea } from '../../src/app/actors/balance-news';
import { dashboardArea } from '../../src/app/actors/dashboard';
import { readingArea } from '../../src/app/actors/reading';
import enUS from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import { dashboardSeriesMachine } from '../../src/machines/dashboard-series';
import HomePage from '../../src/views/home/home-page';
import { replyError, userFixture } from './fixtures';
import { fakeEndpoints, person, settle, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, renderAt } from './view-harness';

// ---------------------------------------------------------------------------------------------
// The oracle, written from docs/domain.md §21: the charts of the chosen range; another range is
// asked for at once (the last answer stays until it comes); a failure offers a retry; news that
// paid work moved the balances asks again for the same range.

const TRANSITIONS: Record<string, string> = {
  'loading7 done': 'ready7',
  'loading7 error': 'failed7',
  'loading7 RANGE 30': 'loading30',
  'ready7 RANGE 30': 'loading30',
  'ready7 RELOAD': 'loading7',
  'failed7 RELOAD': 'loading7',
  'failed7 RANGE 30': 'loading30',
  'loading30 done': 'ready30',
  'loading30 error': 'failed30',
  'loading30 RANGE 7': 'loading7',
  'ready30 RANGE 7': 'loading7',
  'ready30 RELOAD': 'loading30',
  'failed30 RELOAD': 'loading30',
  'failed30 RANGE 7': 'loading7',
};

type PathEvent = { type: string; days?: SeriesDays };

const label = (event: PathEvent) =>
  event.type === 'RANGE'
    ? `RANGE ${event.days}`
    : event.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\.load$/, '$1');

/** A range's answer: today's videos tell the ranges apart (3 in the 7-day one, 9 in the 30). */
function seriesOf(days: SeriesDays): DashboardSeries {
  return {
    days,
    points: Array.from({ length: days }, (_, i) => ({
      date: new Date(Date.UTC(2026, 5, 10 - (days - 1) + i)).toISOString().slice(0, 10),
      new_users: 1,
      recharge: '10.00',
      spend_video: '2.50',
      spend_digital_human: 60,
      spend_clones: 1,
      videos: i === days - 1 ? (days === 7 ? 3 : 9) : 0,
      posts: 0,
    })),
  };
}

const t = (id: keyof typeof enUS) => enUS[id];
const videosTable = () =>
  screen.queryByRole('table', { name: `Daily figures: ${t('charts.videos')}` });

function setup() {
  const auth = createActor(
    authMachine.provide({
      actors: { getUserInfo: fromPromise(async () => userFixture({ user_type: 0 })) },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  const endpoints = fakeEndpoints();
  provideArea(actors, dashboardArea, {
    getDashboardData: async () => ({
      partners: 1,
      agents: 0,
      merchants: 2,
      users_today: 0,
      money: '0',
      digital_man_seconds: 0,
      voice_clone_count: 0,
      image_clone_count: 0,
    }),
    getAccount: () => new Promise(() => {}),
    getDashboardSeries: endpoints.endpoint<[SeriesDays], DashboardSeries>('getDashboardSeries'),
  });
  // The home's notices (their own area, docs/domain.md §24): none here.
  provideArea(actors, readingArea, {
    getPublishedArticles: async () => ({ list: [], total: 0 }),
  });
  renderAt(actors, <HomePage />, '/home/index');
  const user = person();
  /** The range the person chose last (the test's own record, from its clicks). */
  let days: SeriesDays = 7;
  const range = () => within(screen.getByRole('group', { name: t('charts.range') }));
  const asked = () => endpoints.calls.filter((c) => c.name === 'getDashboardSeries').length;

  const exec = async (event: PathEvent) => {
    switch (event.type) {
      case 'RANGE': {
        const before = asked();
        days = event.days!;
        await user.click(range().getByRole('button', { name: t(`charts.days${days}`) }));
        await settle();
        expect(endpoints.calls.slice(before).map((c) => (c.input as unknown[])[0])).toEqual([days]);
        return;
      }
      case 'RELOAD': {
        const before = asked();
        const retry = screen.queryByRole('button', { name: t('load.retry') });
        if (retry) await user.click(retry);
        else areasOf(actors).get(balanceNewsArea).moved();
        await settle();
        expect(endpoints.calls.slice(before).map((c) => (c.input as unknown[])[0])).toEqual([days]);
        return;
      }
      case 'xstate.done.actor.load':
        return endpoints.settle('getDashboardSeries', 'done', seriesOf(days));
      case 'xstate.error.actor.load':
        return endpoints.settle('getDashboardSeries', 'error', replyError('Failure'));
      default:
        throw new Error(`a person cannot cause ${event.type}`);
    }
  };

  /** What was last shown: the charts keep it while another range loads. */
  let shown: SeriesDays | null = null;
  const sees = (state: string) => () => {
    const [, phase, n] = /^(\w+?)(7|30)$/.exec(state)!;
    const chosen = Number(n) as SeriesDays;
    for (const d of [7, 30] as const) {
      const button = range().getByRole('button', { name: t(`charts.days${d}`) });
      expect(button.getAttribute('aria-pressed'), `${d} pressed`).toBe(String(d === chosen));
    }
    const retry = screen.queryByRole('button', { name: t('load.retry') });
    expect(retry !== null, 'retry offered').toBe(phase === 'failed');
    if (phase === 'ready') shown = chosen;
    const table = videosTable();
    if (shown === null) {
      expect(table).toBeNull();
      return;
    }
    // The shown range's days, today last with its videos; busy while another answer is awaited.
    expect(within(table!).getAllByRole('row')).toHaveLength(shown + 1);
    expect(screen.getByTestId('chart-videos-summary').textContent).toBe(
      `Today ${shown === 7 ? 3 : 9}; ${shown} days in all ${shown === 7 ? 3 : 9}.`,
    );
    expect(
      screen
        .getByTestId('dashboard-charts')
        .querySelector('[aria-busy]')
        ?.getAttribute('aria-busy'),
    ).toBe(String(phase === 'loading'));
  };

  const actual = () => {
    const s = areasOf(actors).get(dashboardArea).series.getSnapshot();
    return `${String(s.value)}${s.context.days}`;
  };
  const ready = async () => {
    await vi.waitFor(() => screen.getByRole('group', { name: t('charts.range') }), {
      timeout: 10_000,
    });
    await settle();
  };
  return { actors, exec, sees, actual, ready };
}

viewPathHooks();

describe('the dashboard charts (admin home)', () => {
  uiPaths({
    oracle: { initial: 'loading7', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(dashboardSeriesMachine, {
      events: (s) =>
        (
          [
            { type: 'RANGE', days: 7 },
            { type: 'RANGE', days: 30 },
            // Asked again by news or the retry button; not while an answer is awaited.
            ...(s.matches('loading') ? [] : [{ type: 'RELOAD' }]),
            { type: 'xstate.done.actor.load', output: seriesOf(s.context.days) },
            { type: 'xstate.error.actor.load', error: replyError('Failure') },
          ] as never[]
        ).filter((e) => s.can(e)),
      serializeState: (s, e) =>
        JSON.stringify([s.value, s.context.days, e ? label(e as PathEvent) : null]),
    }),
    run: async (_, walk) => {
      const { actors, exec, sees, actual, ready } = setup();
      await ready();
      await walk({
        exec,
        sees: Object.fromEntries(
          ['loading7', ...Object.values(TRANSITIONS)].map((s) => [s, sees(s)]),
        ),
        actual,
      });
      areasOf(actors).reset();
      actors.dispose();
    },
    timeout: 60_000,
  });
});
