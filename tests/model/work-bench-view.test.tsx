/**
 * /dashboard/workBench as a partner and as a merchant see it: their balances (digital-human time
 * in minutes and seconds), the way to create a video (/dashboard/to-create-video, linked from no
 * other page), the counts of "my customers" for the partner only (a merchant has none), and the
 * domain's latest notices, each opened to read.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { dashboardArea } from '../../src/app/actors/dashboard';
import { readingArea, type ReadingEndpoints } from '../../src/app/actors/reading';
import type { Article } from '../../src/api/contract/content';
import enUS from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import WorkBenchPage from '../../src/views/dashboard/work-bench-page';
import { userFixture } from './fixtures';
import { person, settle, viewPathHooks } from './ui-paths';
import { appActors, renderAt } from './view-harness';

viewPathHooks();

const notice = (id: number, title: string, content: string): Article => ({
  id,
  owner_id: null,
  category: 'notice',
  title,
  cover: '',
  content,
  sort: 0,
  status: 'published',
  created_at: Date.UTC(2026, 10, id),
  updated_at: Date.UTC(2026, 10, id),
});
/** The notices the fake server answers, and what it was asked. */
let notices: Article[] = [];
const asked: Parameters<ReadingEndpoints['getPublishedArticles']>[0][] = [];

function signedIn(userType: 1 | 2) {
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () => userFixture({ accountId: 9, user_type: userType })),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  provideArea(actors, dashboardArea, {
    getDashboardSeries: () => new Promise(() => {}),
    getAccount: async () => ({
      money: '120.5',
      digital_man_seconds: 133,
      voice_clone_count: 2,
      image_clone_count: 3,
    }),
    getDashboardData: async () => ({
      partners: 0,
      agents: 1,
      merchants: 4,
      users_today: 0,
      money: '0',
      digital_man_seconds: 0,
      voice_clone_count: 0,
      image_clone_count: 0,
    }),
  });
  provideArea(actors, readingArea, {
    getPublishedArticles: async (query) => {
      asked.push(query);
      return { list: notices, total: notices.length };
    },
  });
  return actors;
}

async function show(userType: 1 | 2) {
  const actors = signedIn(userType);
  renderAt(actors, <WorkBenchPage />, '/dashboard/workBench');
  await vi.waitFor(() => screen.getByRole('heading', { name: enUS['workBench.balances'] }), {
    timeout: 5000,
  });
  for (let i = 0; i < 4; i++) await settle();
  return actors;
}

describe('/dashboard/workBench', () => {
  test('a partner: balances, "Create a video", and its customers', async () => {
    const actors = await show(1);
    expect(screen.getByTestId('balance-minutes').textContent).toBe('2 min 13 s');
    expect(
      screen.getByRole('link', { name: enUS['route.toCreateVideo'] }).getAttribute('href'),
    ).toBe('/dashboard/to-create-video');
    screen.getByRole('heading', { name: enUS['workBench.counts'] });
    expect(screen.getByTestId('count-merchants').textContent).toBe('4');
    areasOf(actors).reset();
    actors.dispose();
  }, 30_000);

  test('a merchant: balances and "Create a video", no customers', async () => {
    const actors = await show(2);
    screen.getByRole('link', { name: enUS['route.toCreateVideo'] });
    expect(screen.queryByRole('heading', { name: enUS['workBench.counts'] })).toBeNull();
    expect(screen.queryByTestId('count-merchants')).toBeNull();
    areasOf(actors).reset();
    actors.dispose();
  }, 30_000);

  test('the notices: the latest first, each opened to read in a dialog', async () => {
    notices = [
      notice(2, 'Maintenance tonight', '<p>From <strong>22:00</strong> to 23:00.</p>'),
      notice(1, 'New templates', '<p>Ten new templates.</p>'),
    ];
    asked.length = 0;
    const actors = await show(2);
    expect(asked).toEqual([{ category: 'notice', page: 1, limit: 5 }]);
    const board = screen.getByRole('region', { name: enUS['noticeBoard.title'] });
    const titles = within(board)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(titles).toEqual(['Maintenance tonight', 'New templates']);
    await person().click(within(board).getByRole('button', { name: 'Maintenance tonight' }));
    const dialog = await screen.findByRole('dialog', { name: 'Maintenance tonight' });
    // The stored body, as HTML.
    expect(within(dialog).getByText('22:00').tagName).toBe('STRONG');
    await person().click(within(dialog).getByRole('button', { name: enUS['form.close'] }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    areasOf(actors).reset();
    actors.dispose();
  }, 30_000);

  test('no notices: the board says so', async () => {
    notices = [];
    const again = await show(1);
    within(screen.getByRole('region', { name: enUS['noticeBoard.title'] })).getByText(
      enUS['noticeBoard.empty'],
    );
    areasOf(again).reset();
    again.dispose();
  }, 30_000);
});
