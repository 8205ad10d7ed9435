/**
 * The release plans page's test world (tests/model/matrix-plans-view.test.tsx and
 * matrix-plan-form-view.test.tsx): a merchant on /matrix-distribution/release-plan with fake
 * endpoints of the area, the plans, posts and accounts they answer, and the machines' paths.
 */
import { act, render, screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { getShortestPaths } from 'xstate/graph';
import type { MatrixAccount } from '../../src/api/contract/matrix';
import type { PlanPost, ReleasePlan } from '../../src/api/contract/matrix-plans';
import { provideArea } from '../../src/app/actors/areas';
import { matrixPlansArea, type MatrixPlansEndpoints } from '../../src/app/actors/matrix-plans';
import { Providers } from '../../src/app/boot/providers';
import { text } from './messages';
import ReleasePlanPage from '../../src/views/matrix/release-plan-page';
import { clipResource, shopAuth } from './video-task-fixtures';
import { coverRows, fakeEndpoints, person, withoutPrefixes, type EventPath } from './ui-paths';
import { appActors, isOpen } from './view-harness';

/** 2026-11-29 12:00 in Shanghai: a new plan runs from 2026-11-30 to 2026-12-06. */
export const NOW = Date.UTC(2026, 10, 29, 4, 0);
export const REFUSAL = 'Refused by the server';

export const plan = (
  over: Partial<ReleasePlan> & Pick<ReleasePlan, 'id' | 'name'>,
): ReleasePlan => ({
  status: 'running',
  timezone: 'Asia/Shanghai',
  start_date: '2026-11-20',
  end_date: '2026-12-10',
  slots: ['09:00'],
  daily_max: 1,
  titles: ['Hi'],
  topics: [],
  location: null,
  account_ids: [1],
  media: [{ type: 'resource', id: 31, name: 'Clip 1' }],
  counts: { published: 3, failed: 1, waiting: 5 },
  total: 9,
  created_at: 0,
  ...over,
});
export const RUNNING = plan({ id: 1, name: 'Spring', timezone: 'America/New_York' });
export const PAUSED = plan({
  id: 2,
  name: 'Autumn',
  status: 'paused',
  counts: { waiting: 4 },
  total: 4,
});

export const post = (over: Partial<PlanPost> & Pick<PlanPost, 'id' | 'status'>): PlanPost => ({
  plan_id: 1,
  account_id: 1,
  media: { type: 'resource', id: 31, name: 'Clip 1' },
  title: `Title ${over.id}`,
  // 14:00 UTC: 09:00 in New York (the plan's zone), 22:00 in Shanghai.
  scheduled_at: Date.UTC(2026, 11, 2, 14, 0),
  reason: null,
  share_url: null,
  published_at: null,
  assisted: null,
  metrics: { plays: 0, likes: 0, comments: 0, shares: 0 },
  ...over,
});
export const WAITING = post({ id: 11, status: 'waiting' });
export const FAILED = post({
  id: 12,
  status: 'failed',
  reason: {
    kind: 'rate_limited',
    text: 'The platform is busy',
    platform_code: 2190001,
    platform_text: 'frequency limit',
    retryable: true,
  },
});
export const REJECTED = post({
  id: 13,
  status: 'failed',
  reason: {
    kind: 'media_invalid',
    text: 'The platform cannot use this file',
    platform_code: 2190005,
    platform_text: 'bad media',
    retryable: false,
  },
});
export const PUBLISHED = post({
  id: 14,
  status: 'published',
  share_url: 'https://www.douyin.example/video/14',
  published_at: Date.UTC(2026, 11, 2, 14, 1),
  metrics: { plays: 1234, likes: 56, comments: 7, shares: 8 },
});
/** Posts of an assisted account (published by hand): a waiting one and a missed one. */
export const ASSISTED = post({
  id: 15,
  status: 'waiting',
  assisted: { download_url: 'https://files.example/15.mp4?sig=a', text: 'Title 15 #spring' },
});
export const MISSED = post({
  id: 16,
  status: 'missed',
  assisted: { download_url: 'https://files.example/16.mp4?sig=b', text: 'Title 16 #spring' },
});

export const account = (id: number, nickname: string): MatrixAccount => ({
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
  expires_at: Date.UTC(2026, 11, 20),
  refresh_expires_at: Date.UTC(2027, 0, 1),
  renewals_left: 5,
  last_refresh_at: null,
  last_error: null,
  created_at: 0,
});
export const SHOP = account(1, 'Shop A');
export const CLIP = clipResource(31, 'Clip 1', 12);

export interface Options {
  plans?: ReleasePlan[];
  total?: number;
}

/** A merchant on the page with fake endpoints of the release plans area. */
export async function setup(options: Options = {}) {
  const plans = options.plans ?? [RUNNING, PAUSED];
  const endpoints = fakeEndpoints();
  const actors = appActors({ auth: shopAuth() });
  const queries: Record<string, unknown>[] = [];
  const postQueries: Record<string, unknown>[] = [];
  const effects: string[] = [];
  const getPlans: MatrixPlansEndpoints['getPlans'] = async (query) => {
    queries.push({ ...query });
    effects.push('plans');
    const shown = plans.filter((p) => !query.status || p.status === query.status);
    return { list: shown, total: options.total ?? shown.length };
  };
  const getPosts: MatrixPlansEndpoints['getPosts'] = async (query) => {
    postQueries.push({ ...query });
    effects.push('posts');
    return { list: [WAITING, FAILED, REJECTED, PUBLISHED, ASSISTED, MISSED], total: 6 };
  };
  provideArea(actors, matrixPlansArea, {
    getPlans,
    previewPlan: endpoints.endpoint('previewPlan') as never,
    addPlan: endpoints.endpoint('addPlan') as never,
    editPlan: endpoints.endpoint('editPlan') as never,
    getPlanMedia: endpoints.endpoint('getPlanMedia') as never,
    pausePlan: endpoints.endpoint('pausePlan') as never,
    resumePlan: endpoints.endpoint('resumePlan') as never,
    cancelPlan: endpoints.endpoint('cancelPlan') as never,
    getPosts,
    publishNow: endpoints.endpoint('publishNow') as never,
    retryPost: endpoints.endpoint('retryPost') as never,
    markPublished: endpoints.endpoint('markPublished') as never,
    imitateTitle: endpoints.endpoint('imitateTitle') as never,
    getAccounts: async () => ({ list: [SHOP], total: 1 }),
    getResources: async () => ({ list: [CLIP], total: 1 }),
    now: () => NOW,
  });
  const router = createMemoryRouter([{ path: '*', element: <ReleasePlanPage /> }], {
    initialEntries: ['/matrix-distribution/release-plan'],
  });
  render(
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>,
  );
  const user = person();
  await vi.waitFor(() => screen.getByRole('heading', { name: text('route.releasePlan') }), {
    timeout: 15_000, // the en-US catalogue loads first: seconds on a busy machine
  });
  await vi.waitFor(() => expect(queries.length).toBeGreaterThan(0), { timeout: 5000 });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
  const dialogs = () => screen.queryAllByRole('dialog').filter(isOpen);
  /** The button of that name (not one of a closed resource picker still in the drawer). */
  const button = (name: string, root: HTMLElement = document.body) => {
    const found = within(root)
      .getAllByRole('button', { name })
      .filter((b) => !b.closest('[data-testid="resource-picker"]'));
    expect(found).toHaveLength(1);
    return found[0] as HTMLButtonElement;
  };
  const notice = () => screen.queryByTestId('plan-notice');
  // Chakra keeps a closing drawer in the DOM for its exit animation: only an open one counts.
  const openOne = (id: string) => {
    const el = screen.queryByTestId(id);
    return el && isOpen(el) ? el : null;
  };
  const formDrawer = () => openOne('plan-form');
  const detail = () => openOne('plan-detail');
  return {
    endpoints,
    user,
    dialogs,
    button,
    notice,
    formDrawer,
    detail,
    queries,
    postQueries,
    /** The effects since the last call: list loads. */
    take: () => effects.splice(0),
    dispose: () => actors.dispose(),
  };
}
export type World = Awaited<ReturnType<typeof setup>>;

/** Shortest paths of a machine, with a path for each row of the table they miss. */
export function paths<E extends { type: string }>(
  machine: Parameters<typeof getShortestPaths>[0],
  events: (s: never) => E[],
  serialize: (s: never) => string,
  table: Record<string, string>,
  initial: string,
  label: (e: E) => string,
) {
  const found = getShortestPaths(machine, {
    events: events as never,
    serializeState: (s, e) => JSON.stringify([serialize(s as never), e ? label(e as E) : '']),
  });
  return withoutPrefixes(
    coverRows(found as unknown as EventPath<E>[], { initial, transitions: table, label }),
    (e) => label(e as E),
  );
}

export const eventLabel = (e: { type: string }) =>
  e.type.replace(/^xstate\./, '').replace('.actor', '');
