// @vitest-environment jsdom -- axe runs in jsdom (vitest.config.ts)
/**
 * The release plans page (/matrix-distribution/release-plan) as assistive tech meets it: the list
 * with a plan of each status and a notice; the create form with its messages, AI titles and a
 * preview; a plan's posts (each status, a reason, a link); axe finds no serious or critical
 * violation in any of them. (Its behaviour: matrix-plans-view.test.tsx.)
 */
import { screen, within } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import {
  PLAN_STATUSES,
  POST_STATUSES,
  type PlanPost,
  type ReleasePlan,
} from '../../src/api/contract/matrix-plans';
import { provideArea } from '../../src/app/actors/areas';
import { matrixPlansArea } from '../../src/app/actors/matrix-plans';
import enUS from '../../src/i18n/en-US';
import ReleasePlanPage from '../../src/views/matrix/release-plan-page';
import { clipResource, shopAuth } from './video-task-fixtures';
import { person, viewPathHooks } from './ui-paths';
import { appActors, flush, isOpen, renderAt } from './view-harness';
import { plan } from './matrix-plans-world';

viewPathHooks();

const plans: ReleasePlan[] = PLAN_STATUSES.map((status, i) =>
  plan({
    id: i + 1,
    name: `Plan ${i + 1}`,
    status,
    start_date: '2026-12-01',
    end_date: '2026-12-07',
    counts: { waiting: 2, published: 1, failed: 1 },
    total: 4,
  }),
);

const posts: PlanPost[] = POST_STATUSES.map((status, i) => ({
  id: 100 + i,
  plan_id: 1,
  account_id: 1,
  media: { type: 'resource', id: 31, name: 'Clip 1' },
  title: `Title ${i}`,
  scheduled_at: Date.UTC(2026, 11, 1, 1, i),
  status,
  reason:
    status === 'failed'
      ? {
          kind: 'rate_limited',
          text: 'The platform is busy',
          platform_code: 2190001,
          platform_text: 'frequency limit',
          retryable: true,
        }
      : null,
  share_url: status === 'published' ? 'https://www.douyin.example/video/1' : null,
  published_at: null,
  assisted: null,
  metrics: { plays: 10, likes: 2, comments: 1, shares: 0 },
}));

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

test('the list, the form (refused, AI titles, preview) and the detail: axe finds nothing serious', async () => {
  const actors = appActors({ auth: shopAuth() });
  const never = () => new Promise<never>(() => {});
  provideArea(actors, matrixPlansArea, {
    getPlans: async () => ({ list: plans, total: plans.length }),
    previewPlan: async () => ({
      total: 7,
      per_account_day: 1,
      per_media: [7],
      first: [
        {
          account_id: 1,
          media: { type: 'resource', id: 31, name: 'Clip 1' },
          title: 'Hello',
          scheduled_at: Date.UTC(2026, 10, 30, 1, 0),
        },
      ],
      starts_at: Date.UTC(2026, 10, 30, 1, 0),
      ends_at: Date.UTC(2026, 11, 6, 1, 0),
    }),
    addPlan: never,
    editPlan: never,
    getPlanMedia: async () => ({
      list: [{ type: 'video_output', id: 41, name: 'Spring #1', created_at: 0 }],
      total: 1,
    }),
    pausePlan: never,
    resumePlan: never,
    cancelPlan: never,
    getPosts: async () => ({ list: posts, total: posts.length }),
    publishNow: never,
    retryPost: never,
    markPublished: never,
    imitateTitle: async () => ({ titles: ['Hello there', 'Hello again'], demonstration: true }),
    getAccounts: async () => ({
      list: [
        {
          id: 1,
          platform: 'douyin',
          open_id: 'o1',
          nickname: 'Shop A',
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
        },
      ],
      total: 1,
    }),
    getResources: async () => ({ list: [clipResource(31, 'Clip 1', 12)], total: 1 }),
    now: () => Date.UTC(2026, 10, 29, 4, 0),
  });
  renderAt(actors, <ReleasePlanPage />, '/matrix-distribution/release-plan');
  await vi.waitFor(() => screen.getByText('Plan 5'), { timeout: 5000 });
  await flush();
  expect(await axeSerious()).toEqual([]);

  const user = person();
  await user.click(screen.getByRole('button', { name: enUS['matrixPlans.new'] }));
  const form = () => within(screen.getByTestId('plan-form'));
  await vi.waitFor(() => form().getByRole('checkbox', { name: 'Shop A' }));
  // Refused: every message shown.
  await user.click(form().getByRole('button', { name: enUS['matrixPlans.preview'] }));
  form().getByText(enUS['validation.planName']);
  expect(await axeSerious()).toEqual([]);
  // Filled, AI titles shown, previewed.
  await user.type(form().getByRole('textbox', { name: enUS['matrixPlans.name'] }), 'Launch');
  await user.click(form().getByRole('checkbox', { name: 'Shop A' }));
  await user.click(form().getByRole('button', { name: enUS['matrixPlans.pickVideos'] }));
  const picker = await screen.findByTestId('resource-picker');
  await user.click(await within(picker).findByRole('checkbox', { name: 'Select Clip 1' }));
  await user.click(within(picker).getByRole('button', { name: enUS['taskForm.pickConfirm'] }));
  await user.type(form().getByRole('textbox', { name: enUS['matrixPlans.titleInput'] }), 'Hello');
  await user.click(form().getByRole('button', { name: enUS['matrixPlans.addTitle'] }));
  await user.type(form().getByRole('textbox', { name: enUS['matrixPlans.titleInput'] }), 'Hello');
  await user.click(form().getByRole('button', { name: enUS['matrixPlans.aiTitles'] }));
  await vi.waitFor(() => form().getByText(enUS['matrixPlans.demonstration']));
  await user.click(form().getByRole('button', { name: enUS['matrixPlans.preview'] }));
  await vi.waitFor(() => form().getByTestId('plan-preview'));
  expect(await axeSerious()).toEqual([]);
  // The finished creations over the form.
  await user.click(form().getByRole('button', { name: enUS['matrixPlans.pickCreations'] }));
  const creations = await screen.findByTestId('plan-creations');
  await vi.waitFor(() => within(creations).getByRole('checkbox', { name: 'Spring #1' }));
  expect(await axeSerious()).toEqual([]);
  await user.click(
    within(creations).getByRole('button', { name: enUS['matrixPlans.creationsDone'] }),
  );
  await user.click(form().getAllByRole('button', { name: enUS['form.cancel'] }).at(-1)!);
  await vi.waitFor(() => expect(isOpen(screen.getByTestId('plan-form'))).toBe(false));

  // A plan's posts.
  await user.click(screen.getByRole('button', { name: 'Posts of Plan 1' }));
  const detail = screen.getAllByTestId('plan-detail').find(isOpen)!;
  await vi.waitFor(() => within(detail).getByText('The platform is busy', { exact: false }));
  expect(await axeSerious()).toEqual([]);
  actors.dispose();
}, 60_000); // axe over four states in jsdom: ≈ 15 s quiet, over 30 s on a busy 2-core machine
