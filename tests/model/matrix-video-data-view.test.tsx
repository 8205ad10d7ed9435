/**
 * The video data page (/matrix-distribution/video-data) driven as a merchant would, against a
 * hand-written oracle: the page machine (src/machines/matrix-video-data.ts) only proposes event
 * sequences (its shortest paths, plus one for each row of the table they miss); each step is a
 * person's choice (period, account, plan, retry, Export CSV) or the fake `GET /matrix/video_data`
 * settling, and what the person sees after it comes from the table below (STATES, `sees`), never
 * from the machine. Each change of a filter calls the endpoint with the query the test computes
 * itself (the period ending now); an export saves the rows as a CSV file (effects).
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { MatrixAccount } from '../../src/api/contract/matrix';
import type { PlanPost, ReleasePlan, VideoData } from '../../src/api/contract/matrix-plans';
import { provideArea } from '../../src/app/actors/areas';
import {
  matrixVideoDataArea,
  type MatrixVideoDataEndpoints,
} from '../../src/app/actors/matrix-video-data';
import type { MessageId } from '../../src/i18n/en-US';
import { fill, text } from './messages';
import {
  matrixVideoDataMachine,
  type MatrixVideoDataEvent,
} from '../../src/machines/matrix-video-data';
import VideoDataPage from '../../src/views/matrix/video-data-page';
import { replyError } from './fixtures';
import { shopAuth } from './video-task-fixtures';
import {
  coverRows,
  fakeEndpoints,
  pathName,
  person,
  rowsUsed,
  runUiPath,
  viewPathHooks,
  withoutPrefixes,
  type EventPath,
} from './ui-paths';
import { appActors, renderAt } from './view-harness';

const NOW = Date.UTC(2026, 10, 29, 4, 0);
const DAY = 24 * 3600_000;
const REFUSAL = 'Refused by the server';

const account = (id: number, nickname: string): MatrixAccount => ({
  id,
  platform: 'douyin',
  open_id: `o${id}`,
  nickname,
  avatar: '',
  fans: 1,
  group_id: null,
  status: 'normal',
  sandbox: false,
  assisted: false,
  expires_at: 0,
  refresh_expires_at: 0,
  renewals_left: 5,
  last_refresh_at: null,
  last_error: null,
  created_at: 0,
});
const plan = (id: number, name: string): ReleasePlan => ({
  id,
  name,
  status: 'running',
  timezone: 'Asia/Shanghai',
  start_date: '2026-11-01',
  end_date: '2026-11-30',
  slots: ['09:00'],
  daily_max: 1,
  titles: ['Hi'],
  topics: [],
  location: null,
  account_ids: [1],
  media: [],
  counts: {},
  total: 0,
  created_at: 0,
});

const post = (id: number, over: Partial<PlanPost>): PlanPost => ({
  id,
  plan_id: 2,
  account_id: 1,
  media: { type: 'resource', id: 31, name: 'Clip 1' },
  title: `Title ${id}`,
  scheduled_at: NOW - 2 * DAY,
  status: 'published',
  reason: null,
  share_url: `https://www.douyin.example/video/${id}`,
  published_at: NOW - 2 * DAY,
  assisted: null,
  metrics: { plays: 0, likes: 0, comments: 0, shares: 0 },
  ...over,
});
const HIT = post(7, {
  title: '=Spring, "sale"',
  metrics: { plays: 1234, likes: 56, comments: 7, shares: 8 },
});
const QUIET = post(8, {
  account_id: 2,
  share_url: null,
  metrics: { plays: 3, likes: 1, comments: 0, shares: 0 },
});

const DATA: VideoData = {
  totals: { posts: 2, plays: 1237, likes: 57, comments: 7, shares: 8 },
  daily: [
    { date: '2026-11-27', plays: 1000, likes: 50, comments: 5, shares: 6 },
    { date: '2026-11-28', plays: 237, likes: 7, comments: 2, shares: 2 },
  ],
  accounts: [
    { account_id: 1, nickname: 'Shop A', posts: 1, plays: 1234, likes: 56, comments: 7, shares: 8 },
    { account_id: 2, nickname: 'Shop B', posts: 1, plays: 3, likes: 1, comments: 0, shares: 0 },
  ],
  top: [HIT, QUIET],
  rows: [HIT, QUIET],
};
const EMPTY: VideoData = {
  totals: { posts: 0, plays: 0, likes: 0, comments: 0, shares: 0 },
  daily: [],
  accounts: [],
  top: [],
  rows: [],
};

viewPathHooks();

async function setup() {
  const endpoints = fakeEndpoints();
  const actors = appActors({ auth: shopAuth() });
  const effects: string[] = [];
  const queries: Record<string, unknown>[] = [];
  const files: { text: string; name: string }[] = [];
  const pendingLoad = endpoints.endpoint(
    'getVideoData',
  ) as MatrixVideoDataEndpoints['getVideoData'];
  provideArea(actors, matrixVideoDataArea, {
    getVideoData: (query, options) => {
      effects.push('load');
      queries.push({ ...query });
      expect(options?.quiet).toBe(true);
      return pendingLoad(query, options);
    },
    getAccounts: async () => ({ list: [account(1, 'Shop A'), account(2, 'Shop B')], total: 2 }),
    getPlans: async () => ({ list: [plan(2, 'Spring')], total: 1 }),
    now: () => NOW,
    download: (csv, name) => {
      effects.push('download');
      files.push({ text: csv, name });
    },
  });
  renderAt(actors, <VideoDataPage />, '/matrix-distribution/video-data');
  await vi.waitFor(() => screen.getByRole('heading', { name: text('route.videoData') }), {
    timeout: 5000,
  });
  await vi.waitFor(() => expect(queries.length).toBe(1), { timeout: 5000 });
  // The choices of the filters are there.
  await vi.waitFor(() => screen.getByRole('option', { name: 'Spring' }), { timeout: 5000 });
  return {
    endpoints,
    user: person(),
    queries,
    files,
    take: () => effects.splice(0),
    dispose: () => actors.dispose(),
  };
}

type State = ReturnType<typeof matrixVideoDataMachine.resolveState>;

const label = (e: { type: string; output?: VideoData }) => {
  const name = e.type.replace(/^xstate\./, '').replace('.actor', '');
  return name === 'done.load' && e.output?.totals.posts === 0 ? 'done.load(empty)' : name;
};

/** What the person is in, by the table's names. */
const STATES: Record<string, string> = {
  'loading done.load': 'ready',
  'loading done.load(empty)': 'empty',
  'loading error.load': 'failed',
  'loading SET_PERIOD': 'loading',
  'ready SET_PERIOD': 'loading',
  'ready SET_ACCOUNT': 'loading',
  'ready SET_PLAN': 'loading',
  'ready EXPORT': 'ready',
  'empty SET_PERIOD': 'loading',
  'empty SET_ACCOUNT': 'loading',
  'failed RELOAD': 'loading',
  'failed SET_PLAN': 'loading',
};

const EVENTS: MatrixVideoDataEvent[] = [
  { type: 'SET_PERIOD', period: 7 },
  { type: 'SET_ACCOUNT', accountId: 1 },
  { type: 'SET_PLAN', planId: 2 },
  { type: 'RELOAD' },
  { type: 'EXPORT', locale: 'en-US', headers: [] },
  { type: 'xstate.done.actor.load', output: DATA } as never,
  { type: 'xstate.done.actor.load', output: EMPTY } as never,
  { type: 'xstate.error.actor.load', error: replyError(REFUSAL) } as never,
];

const nameOf = (s: State) =>
  s.matches('loading')
    ? 'loading'
    : s.matches('failed')
      ? 'failed'
      : s.context.data?.totals.posts === 0
        ? 'empty'
        : 'ready';

/** The events a state's rows name (the table's selection of the machine's events). */
const offered = (s: State) =>
  EVENTS.filter((e) => STATES[`${nameOf(s)} ${label(e)}`] !== undefined && s.can(e));

const proposed = getShortestPaths(matrixVideoDataMachine, {
  events: offered as never,
  serializeState: (s, e) => JSON.stringify([nameOf(s as never), e ? label(e as never) : '']),
}) as unknown as EventPath<MatrixVideoDataEvent>[];
const byLabel = (name: string) => EVENTS.find((e) => label(e as never) === name)!;
/** By hand: the filters together (account and plan, then another period), then a retry. */
const LONG: EventPath<MatrixVideoDataEvent> = {
  steps: [
    'xstate.init',
    'done.load',
    'SET_ACCOUNT',
    'done.load',
    'SET_PLAN',
    'done.load',
    'SET_PERIOD',
    'done.load(empty)',
    'SET_ACCOUNT',
    'error.load',
    'RELOAD',
    'done.load',
    'EXPORT',
  ].map((name) => ({ event: name === 'xstate.init' ? { type: name } : byLabel(name) })) as never,
};
const PATHS = [
  ...withoutPrefixes(
    coverRows(proposed, { initial: 'loading', transitions: STATES, label: label as never }),
    (e) => label(e as never),
  ),
  LONG,
];

describe('video data (page machine)', () => {
  const rows = rowsUsed();
  test.each(PATHS.map((p) => [pathName(p, label as never), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      // The filters as the person set them (the oracle of each query).
      let period = 30;
      let accountId: number | null = null;
      let planId: number | null = null;
      const expectQuery = () =>
        expect(w.queries.at(-1)).toEqual({
          ...(accountId !== null ? { account_id: accountId } : {}),
          ...(planId !== null ? { plan_id: planId } : {}),
          from: NOW - period * DAY,
          to: NOW,
        });
      const exportButton = () =>
        screen.getByRole('button', { name: text('videoData.export') }) as HTMLButtonElement;
      const select = (id: MessageId) =>
        screen.getByRole('combobox', { name: text(id) }) as HTMLSelectElement;
      const sees: Record<string, () => void> = {
        loading: () => {
          screen.getByText(text('videoData.loading'));
          expect(exportButton().disabled).toBe(true);
          expect(screen.queryByTestId('video-data-report')).toBeNull();
        },
        ready: () => {
          const report = within(screen.getByTestId('video-data-report'));
          expect(screen.getByTestId('video-data-plays').textContent).toBe('1,237');
          expect(screen.getByTestId('video-data-posts').textContent).toBe('2');
          const perAccount = within(screen.getByTestId('video-data-accounts'));
          expect(perAccount.getAllByRole('row').map((r) => r.textContent)).toEqual([
            expect.any(String),
            'Shop A11,2345678',
            'Shop B13100',
          ]);
          const link = report.getByRole('link', {
            name: fill('videoData.openPost', { title: HIT.title }),
          });
          expect(link.getAttribute('href')).toBe(HIT.share_url);
          expect(link.getAttribute('target')).toBe('_blank');
          expect(link.getAttribute('rel')).toContain('noopener');
          report.getByRole('img', { name: fill('videoData.chartLabel', { days: 2 }) });
          const daily = within(screen.getByTestId('video-data-daily'));
          expect(daily.getAllByRole('row', { hidden: true }).at(1)?.textContent).toBe(
            '2026-11-271,0005056',
          );
          expect(exportButton().disabled).toBe(false);
        },
        empty: () => {
          screen.getByText(text('videoData.empty'));
          expect(screen.queryByTestId('video-data-report')).toBeNull();
          expect(exportButton().disabled).toBe(true);
        },
        failed: () => {
          expect(screen.getByRole('alert').textContent).toContain(REFUSAL);
          expect(exportButton().disabled).toBe(true);
        },
      };
      const loads = ['load'];
      const expected: Record<string, string[]> = {
        'ready EXPORT': ['download'],
      };
      for (const row of Object.keys(STATES)) if (STATES[row] === 'loading') expected[row] = loads;
      w.take();
      await runUiPath(
        path,
        {
          initial: 'loading',
          transitions: STATES,
          label: label as never,
          sees,
          actual: () => {
            if (screen.queryByText(text('videoData.loading'))) return 'loading';
            if (screen.queryByRole('alert')) return 'failed';
            if (screen.queryByText(text('videoData.empty'))) return 'empty';
            return 'ready';
          },
          effects: { take: w.take, expected },
          exec: async (event) => {
            switch (label(event as never)) {
              case 'SET_PERIOD':
                period = period === 7 ? 90 : 7;
                await w.user.selectOptions(select('videoData.period'), String(period));
                return expectQuery();
              case 'SET_ACCOUNT':
                accountId = accountId === null ? 1 : null;
                await w.user.selectOptions(select('videoData.account'), String(accountId ?? ''));
                return expectQuery();
              case 'SET_PLAN':
                planId = planId === null ? 2 : null;
                await w.user.selectOptions(select('videoData.plan'), String(planId ?? ''));
                return expectQuery();
              case 'RELOAD':
                await w.user.click(screen.getByRole('button', { name: text('load.retry') }));
                return expectQuery();
              case 'EXPORT': {
                await w.user.click(exportButton());
                const file = w.files.at(-1)!;
                expect(file.name).toBe('video-data-2026-11-29.csv');
                const lines = file.text.split('\r\n');
                expect(lines[0]).toBe(
                  '\uFEFFPublished at,Account,Plan,Title,Plays,Likes,Comments,Shares,Link',
                );
                const at = new Intl.DateTimeFormat('en-US', {
                  dateStyle: 'short',
                  timeStyle: 'short',
                }).format(HIT.published_at!);
                expect(lines[1]).toBe(
                  `"${at}",Shop A,Spring,"'=Spring, ""sale""",1234,56,7,8,${HIT.share_url}`,
                );
                expect(lines[2]).toBe(`"${at}",Shop B,Spring,Title 8,3,1,0,0,`);
                expect(lines).toHaveLength(4);
                return;
              }
              case 'done.load':
                return w.endpoints.settle('getVideoData', 'done', DATA);
              case 'done.load(empty)':
                return w.endpoints.settle('getVideoData', 'done', EMPTY);
              case 'error.load':
                return w.endpoints.settle('getVideoData', 'error', replyError(REFUSAL));
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
          },
        },
        rows.used,
      );
      w.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by a path', () => {
    expect(rows.unused(STATES)).toEqual([]);
  });
});
