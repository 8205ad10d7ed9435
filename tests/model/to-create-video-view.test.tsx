/**
 * /dashboard/to-create-video and /creation/clip as a merchant sees them: a card for
 * each way of making a video (smart clip hidden when show_clip_menu is 0) with links to where
 * each starts, the caller's balances with the branding's money name, and the clip list asking
 * for clip tasks with its "New clip" link to the editor.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { dashboardArea } from '../../src/app/actors/dashboard';
import { videoTasksArea } from '../../src/app/actors/video-tasks';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import ClipPage from '../../src/views/creation/clip-page';
import ToCreateVideoPage from '../../src/views/dashboard/to-create-video-page';
import { userFixture } from './fixtures';
import { settle, viewPathHooks } from './ui-paths';
import { appActors, renderAt } from './view-harness';

const text = (id: MessageId) => enUS[id];

viewPathHooks();

function merchant(showClipMenu: number) {
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () =>
          userFixture({ accountId: 9, user_type: 2, show_clip_menu: showClipMenu }),
        ),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  provideArea(actors, dashboardArea, {
    getDashboardSeries: () => new Promise(() => {}),
    getAccount: async () => ({
      money: '120.5',
      digital_man_seconds: 5400,
      voice_clone_count: 2,
      image_clone_count: 3,
    }),
    getDashboardData: async () => ({
      partners: 0,
      agents: 0,
      merchants: 0,
      users_today: 0,
      money: '0',
      digital_man_seconds: 0,
      voice_clone_count: 0,
      image_clone_count: 0,
    }),
  });
  return actors;
}

const cardLink = (title: MessageId, action: MessageId) =>
  within(screen.getByRole('article', { name: text(title) }))
    .getByRole('link', { name: text(action) })
    .getAttribute('href');

describe('/dashboard/to-create-video', () => {
  test('the three ways to start and the balances', async () => {
    const actors = merchant(1);
    renderAt(actors, <ToCreateVideoPage />, '/dashboard/to-create-video');
    await vi.waitFor(() => screen.getByRole('heading', { name: text('route.toCreateVideo') }), {
      timeout: 5000,
    });
    for (let i = 0; i < 4; i++) await settle();
    expect(cardLink('toCreate.mixedTitle', 'toCreate.mixedAction')).toBe(
      '/creation/mixed-task?new=1',
    );
    expect(cardLink('toCreate.clipTitle', 'toCreate.clipAction')).toBe('/creation/mixedshear');
    expect(cardLink('toCreate.digitalTitle', 'toCreate.digitalAction')).toBe(
      '/digital-human/create-video',
    );
    expect(screen.getByTestId('balance-money').textContent).toBe('120.50');
    screen.getByText('Coins');
    expect(screen.getByTestId('balance-minutes').textContent).toBe('90 min');
    expect(screen.getByTestId('balance-voices').textContent).toBe('2');
    expect(screen.getByTestId('balance-images').textContent).toBe('3');
    areasOf(actors).reset();
    actors.dispose();
  }, 30_000);

  test('no smart clip card for a user whose show_clip_menu is 0', async () => {
    const actors = merchant(0);
    renderAt(actors, <ToCreateVideoPage />, '/dashboard/to-create-video');
    await vi.waitFor(() => screen.getByRole('heading', { name: text('route.toCreateVideo') }), {
      timeout: 5000,
    });
    for (let i = 0; i < 4; i++) await settle();
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-labelledby'))).toEqual([
      'to-create-mixed',
      'to-create-digital',
    ]);
    areasOf(actors).reset();
    actors.dispose();
  }, 30_000);
});

describe('/creation/clip', () => {
  test('the clip tasks, and New clip opens the editor', async () => {
    const actors = merchant(1);
    const kinds: string[] = [];
    const never = () => new Promise<never>(() => {});
    provideArea(actors, videoTasksArea, {
      getVideoTasks: async (query) => {
        kinds.push(query.kind);
        return { list: [], total: 0 };
      },
      getVideoTask: never,
      retryVideoTask: never,
      cancelVideoTask: never,
      deleteVideoTasks: never,
    });
    renderAt(actors, <ClipPage />, '/creation/clip');
    await vi.waitFor(() => screen.getByRole('heading', { name: text('route.clip') }), {
      timeout: 5000,
    });
    await vi.waitFor(() => screen.getByText(text('videoTasks.empty')));
    expect(kinds).toEqual(['clip']);
    screen.getByRole('table', { name: text('videoTasks.clipList') });
    expect(
      screen.getByRole('link', { name: text('videoTasks.newClip') }).getAttribute('href'),
    ).toBe('/creation/mixedshear');
    areasOf(actors).reset();
    actors.dispose();
  }, 30_000);
});
