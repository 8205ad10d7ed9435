// @vitest-environment jsdom -- axe runs in jsdom (vitest.config.ts)
/**
 * The video data page (/matrix-distribution/video-data) as assistive tech meets it: the report
 * (filters, totals, the chart and its table opened, per account, the top posts with their links),
 * the empty period and a refused load; axe finds no serious or critical violation in any of them,
 * and every control has a name. (Its behaviour: matrix-video-data-view.test.tsx.)
 */
import { screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { PlanPost, VideoData } from '../../src/api/contract/matrix-plans';
import { provideArea } from '../../src/app/actors/areas';
import { matrixVideoDataArea } from '../../src/app/actors/matrix-video-data';
import enUS from '../../src/i18n/en-US';
import VideoDataPage from '../../src/views/matrix/video-data-page';
import { replyError } from './fixtures';
import { shopAuth } from './video-task-fixtures';
import { person, viewPathHooks } from './ui-paths';
import { appActors, flush, renderAt } from './view-harness';

viewPathHooks();

const NOW = Date.UTC(2026, 10, 29, 4, 0);

const post = (id: number, share: boolean): PlanPost => ({
  id,
  plan_id: 1,
  account_id: 1,
  media: { type: 'resource', id: 31, name: 'Clip 1' },
  title: `Title ${id}`,
  scheduled_at: NOW,
  status: 'published',
  reason: null,
  share_url: share ? `https://www.douyin.example/video/${id}` : null,
  published_at: NOW,
  assisted: null,
  metrics: { plays: 100 * id, likes: id, comments: 1, shares: 0 },
});

const DATA: VideoData = {
  totals: { posts: 2, plays: 300, likes: 3, comments: 2, shares: 0 },
  daily: [
    { date: '2026-11-27', plays: 100, likes: 1, comments: 1, shares: 0 },
    { date: '2026-11-28', plays: 200, likes: 2, comments: 1, shares: 0 },
  ],
  accounts: [
    { account_id: 1, nickname: 'Shop A', posts: 2, plays: 300, likes: 3, comments: 2, shares: 0 },
  ],
  top: [post(2, true), post(1, false)],
  rows: [post(2, true), post(1, false)],
};
const EMPTY: VideoData = {
  totals: { posts: 0, plays: 0, likes: 0, comments: 0, shares: 0 },
  daily: [],
  accounts: [],
  top: [],
  rows: [],
};

const axeSerious = async () => {
  vi.useRealTimers();
  try {
    const axe = (await import('axe-core')).default;
    const result = await axe.run(document.body);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes[0]?.html}`);
  } finally {
    vi.useFakeTimers();
  }
};

/** Every button, link, select and image has a name. */
const everyControlNamed = () => {
  for (const role of ['button', 'link', 'combobox', 'img'] as const)
    for (const el of screen.queryAllByRole(role)) {
      const name =
        el.getAttribute('aria-label') ??
        (el.getAttribute('aria-labelledby')
          ? document.getElementById(el.getAttribute('aria-labelledby')!)?.textContent
          : null) ??
        (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
        el.textContent;
      expect(name?.trim(), el.outerHTML.slice(0, 80)).toBeTruthy();
    }
};

test('the report, an empty period and a refused load: axe finds nothing serious', async () => {
  const actors = appActors({ auth: shopAuth() });
  const replies: (() => Promise<VideoData>)[] = [
    async () => DATA,
    async () => EMPTY,
    async () => {
      throw replyError('Refused by the server');
    },
  ];
  provideArea(actors, matrixVideoDataArea, {
    getVideoData: () => replies.shift()!(),
    getAccounts: async () => ({ list: [], total: 0 }),
    getPlans: async () => ({ list: [], total: 0 }),
    now: () => NOW,
    download: () => {},
  });
  renderAt(actors, <VideoDataPage />, '/matrix-distribution/video-data');
  await vi.waitFor(() => screen.getByTestId('video-data-report'), { timeout: 5000 });
  await flush();
  const user = person();
  await user.click(screen.getByText(enUS['videoData.showTable']));
  expect(screen.getByTestId('video-data-daily').hasAttribute('open')).toBe(true);
  everyControlNamed();
  expect(await axeSerious()).toEqual([]);

  const period = screen.getByRole('combobox', { name: enUS['videoData.period'] });
  await user.selectOptions(period, '7');
  await vi.waitFor(() => screen.getByText(enUS['videoData.empty']));
  everyControlNamed();
  expect(await axeSerious()).toEqual([]);

  await user.selectOptions(period, '90');
  await vi.waitFor(() => screen.getByRole('alert'));
  everyControlNamed();
  expect(await axeSerious()).toEqual([]);
  actors.dispose();
}, 30_000);
