/**
 * The balances shown follow paid work (docs/domain.md §9): the work bench's (dashboard area) and the
 * property page's (money area) reload when a video task, a digital-human video or a clone is
 * submitted (frozen), retried or resubmitted, cancelled, or seen reaching a final state (settled
 * or refunded) — events between areas, no view effect — and not after work that moved nothing.
 * One merchant's path through every paid area on fake endpoints, each step done as the area
 * would meet it (a form's or a dialog's call answering, a watch's check seeing a new status);
 * whether the balances reload after it comes from the table below, written by hand. The server's
 * balance changes before every step, so the work bench shows the new one only after a reload.
 */
import { act, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { Account, DashboardData } from '../../src/api/contract/dashboard';
import type { DhVideo, ImageClone, VoiceClone } from '../../src/api/contract/digital-human';
import type { VideoTask } from '../../src/api/contract/video-tasks';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { dashboardArea } from '../../src/app/actors/dashboard';
import {
  digitalHumanClonesArea,
  type DigitalHumanClonesEndpoints,
} from '../../src/app/actors/digital-human-clones';
import { dhVideosArea, type DhVideosEndpoints } from '../../src/app/actors/digital-human-videos';
import { moneyArea } from '../../src/app/actors/money';
import { notificationsArea } from '../../src/app/actors/notifications';
import { videoTaskFormsArea } from '../../src/app/actors/video-task-forms';
import { videoTasksArea, type VideoTasksEndpoints } from '../../src/app/actors/video-tasks';
import { POLL_MS as BELL_POLL_MS } from '../../src/machines/notifications';
import { POLL_MS } from '../../src/machines/video-tasks/task-watch';
import WorkBenchPage from '../../src/views/dashboard/work-bench-page';
import { fakeMoneyEndpoints } from './money-paths';
import { viewPathHooks } from './ui-paths';
import { clipResource, shopAuth } from './video-task-fixtures';
import { appActors, renderAt } from './view-harness';

/** Hand-written: does the step move the balances shown (a reload), or not. */
const RELOADS: [step: string, reload: boolean][] = [
  ['a running task checked: one more output made', false],
  ['a running task checked: done', true],
  ['a partly done task’s failed outputs retried', true],
  ['that task’s queued outputs cancelled', true],
  ['a finished task deleted', false],
  ['a clip task added', true],
  ['a creating digital-human video checked: done', true],
  ['a digital-human video renamed', false],
  ['a failed digital-human video resubmitted', true],
  ['a digital-human video added', true],
  ['a training image clone checked: failed', true],
  ['a training voice clone checked: ready', true],
  ['an image clone added', true],
  ['a voice clone added', true],
  ['a failed image clone deleted', false],
];

const task = (id: number, status: VideoTask['status'], done = 0) =>
  ({ id, kind: 'mixed', name: `Task ${id}`, status, total: 4, done, failed: 0 }) as VideoTask;
const video = (id: number, status: DhVideo['status']) =>
  ({ id, name: `Video ${id}`, status }) as DhVideo;
const image = (id: number, status: ImageClone['status']) =>
  ({ id, name: `Avatar ${id}`, status }) as ImageClone;
const voice = (id: number, status: VoiceClone['status']) =>
  ({ id, name: `Voice ${id}`, status, scope: 'mine' }) as VoiceClone;

viewPathHooks();

test('the balances shown reload after paid work is submitted or finishes, and only then', async () => {
  const server = {
    money: 100,
    tasks: [task(1, 'running', 1), task(2, 'partly_done', 3)],
    videos: [video(1, 'creating'), video(2, 'failed')],
    images: [image(1, 'training')],
    voices: [voice(1, 'training')],
  };
  const account = async (): Promise<Account> => ({
    money: `${server.money}.00`,
    digital_man_seconds: 0,
    voice_clone_count: 0,
    image_clone_count: 0,
  });
  const page = <T,>(list: T[]) => ({ list, total: list.length });
  /** The paid calls made (each step that calls one did). */
  const calls: string[] = [];
  const call =
    <R,>(name: string, reply: R) =>
    async () => {
      calls.push(name);
      return reply;
    };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, dashboardArea, {
    getAccount: account,
    getDashboardSeries: () => new Promise(() => {}),
    getDashboardData: async () => ({ agents: 0, merchants: 0, users_today: 0 }) as DashboardData,
  });
  provideArea(actors, moneyArea, fakeMoneyEndpoints({ getAccount: account }));
  provideArea(actors, videoTasksArea, {
    getVideoTasks: async (q: { kind: string }) =>
      page(server.tasks.filter((t) => t.kind === q.kind)),
    getVideoTask: async (id: number) => ({
      ...server.tasks.find((t) => t.id === id)!,
      outputs: [],
    }),
    retryVideoTask: call('retry', { count: 1 }),
    cancelVideoTask: call('cancel', { count: 1, refunded: '1.00' }),
    deleteVideoTasks: call('delete task', { count: 1 }),
  } as unknown as VideoTasksEndpoints);
  provideArea(actors, videoTaskFormsArea, {
    estimateVideoTask: () => new Promise(() => {}),
    addVideoTask: call('add task', { id: 3 }),
    getResources: async () => page([]),
  } as never);
  provideArea(actors, dhVideosArea, {
    getDhVideos: async () => page(server.videos),
    getDhVideo: () => new Promise(() => {}),
    renameDhVideo: call('rename video', server.videos[0]),
    resubmitDhVideo: call('resubmit video', { id: 3 }),
    estimateDhVideo: () => new Promise(() => {}),
    addDhVideo: call('add video', { id: 4 }),
    newIdempotencyKey: () => 'key',
  } as unknown as DhVideosEndpoints);
  provideArea(actors, digitalHumanClonesArea, {
    getImageClones: async () => page(server.images),
    getVoiceClones: async () => page(server.voices),
    addImageClone: call('add image clone', { id: 2 }),
    addVoiceClone: call('add voice clone', { id: 2 }),
    deleteImageClones: call('delete image clone', { count: 1 }),
    getResources: async () => page([]),
  } as unknown as DigitalHumanClonesEndpoints);

  const areas = areasOf(actors);
  const tasks = areas.get(videoTasksArea);
  const forms = areas.get(videoTaskFormsArea);
  const videos = areas.get(dhVideosArea);
  const clones = areas.get(digitalHumanClonesArea);
  const property = areas.get(moneyArea).account;
  renderAt(actors, <WorkBenchPage />, '/dashboard/workBench');
  const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
  // The pages on show: the lists, watched while a row is active.
  void [tasks.list('mixed'), videos.videos, clones.images, clones.voices];
  await wait(0);

  const exec: Record<string, () => void> = {
    'a running task checked: one more output made': () => {
      server.tasks[0] = task(1, 'running', 2);
    },
    'a running task checked: done': () => {
      server.tasks[0] = task(1, 'done', 4);
    },
    'a partly done task’s failed outputs retried': () => {
      server.tasks[1] = task(2, 'running', 3);
      tasks.retry.send({ type: 'OPEN', target: server.tasks[1] });
      tasks.retry.send({ type: 'SUBMIT', payload: { id: 2 } });
    },
    'that task’s queued outputs cancelled': () => {
      server.tasks[1] = task(2, 'cancelled', 3);
      tasks.cancel.send({ type: 'OPEN', target: server.tasks[1] });
      tasks.cancel.send({ type: 'SUBMIT', payload: { id: 2 } });
    },
    'a finished task deleted': () => {
      tasks.remove.send({ type: 'OPEN', target: server.tasks[0] });
      tasks.remove.send({ type: 'SUBMIT', payload: { ids: [1] } });
    },
    'a clip task added': () => {
      forms.clip.send({
        type: 'EDIT',
        patch: { name: 'Trim', video: clipResource(11, 'Beach', 6), start: '0', end: '2' },
      });
      forms.clip.send({ type: 'SUBMIT' });
    },
    'a creating digital-human video checked: done': () => {
      server.videos[0] = video(1, 'done');
    },
    'a digital-human video renamed': () => {
      videos.rename.send({ type: 'OPEN', target: server.videos[0] });
      videos.rename.send({ type: 'SUBMIT', payload: { id: 1, name: 'Renamed' } });
    },
    'a failed digital-human video resubmitted': () => {
      videos.resubmit.send({ type: 'OPEN', target: server.videos[1] });
      videos.resubmit.send({ type: 'SUBMIT', payload: { id: 2 } });
    },
    'a digital-human video added': () => {
      videos.form.send({
        type: 'EDIT',
        patch: {
          text: 'Hello',
          avatar: { id: 1, name: 'A', cover: null, preview_url: null, demonstration: true },
          voice: { id: 1, name: 'V', scope: 'mine', gender: 'female', demo_url: null },
          folderId: 5,
        },
      });
      videos.form.send({ type: 'SUBMIT' });
    },
    'a training image clone checked: failed': () => {
      server.images[0] = image(1, 'failed');
    },
    'a training voice clone checked: ready': () => {
      server.voices[0] = voice(1, 'ready');
    },
    'an image clone added': () => {
      const media = (id: number, duration: number) => ({ id, name: 'm', duration, size: 1 });
      clones.imageForm.send({ type: 'OPEN' });
      clones.imageForm.send({
        type: 'EDIT',
        patch: { name: 'Host', video: media(1, 40), consent: media(2, 5) },
      });
      clones.imageForm.send({ type: 'SUBMIT' });
    },
    'a voice clone added': () => {
      clones.voiceForm.send({ type: 'OPEN' });
      clones.voiceForm.send({
        type: 'EDIT',
        patch: {
          name: 'Voice',
          gender: 'male',
          audio: { id: 3, name: 'a', duration: 12, size: 1 },
        },
      });
      clones.voiceForm.send({ type: 'SUBMIT' });
    },
    'a failed image clone deleted': () => {
      clones.imageRemove.send({ type: 'OPEN', target: server.images[0] });
      clones.imageRemove.send({ type: 'SUBMIT', payload: { ids: [1] } });
    },
  };

  const shown = () => screen.getByTestId('balance-money').textContent;
  const onProperty = () => property.getSnapshot().context.data?.money;
  expect([shown(), onProperty()]).toEqual(['100.00', '100.00']);
  const seen: [string, boolean][] = [];
  for (const [step] of RELOADS) {
    const before = shown();
    server.money += 1;
    await act(async () => exec[step]());
    // A check of every watch (each asks every POLL_MS while something on show is active).
    await wait(POLL_MS);
    const after = `${server.money}.00`;
    // Both show the balances of before the step, or both the new ones.
    expect([step, onProperty()]).toEqual([step, shown()]);
    expect([before, after]).toContain(shown());
    seen.push([step, shown() === after]);
  }
  expect(seen).toEqual(RELOADS);
  expect(calls).toEqual([
    'retry',
    'cancel',
    'delete task',
    'add task',
    'rename video',
    'resubmit video',
    'add video',
    'add image clone',
    'add voice clone',
    'delete image clone',
  ]);
  actors.dispose();
}, 30_000);

test('work that finished while no watch ran: the bell’s new notification reloads the balances', async () => {
  // The work bench alone on show (no task list, no drawer: no watch runs); a task finishes on
  // the server, its notification written with its settlement (docs/domain.md §18, §22).
  const server = { money: 100, unread: 2 };
  let loads = 0;
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, dashboardArea, {
    getAccount: async (): Promise<Account> => {
      loads += 1;
      return {
        money: `${server.money}.00`,
        digital_man_seconds: 0,
        voice_clone_count: 0,
        image_clone_count: 0,
      };
    },
    getDashboardSeries: () => new Promise(() => {}),
    getDashboardData: async () => ({ agents: 0, merchants: 0, users_today: 0 }) as DashboardData,
  });
  provideArea(actors, notificationsArea, {
    getUnreadCount: async () => ({ count: server.unread }),
    markNotificationsRead: () => new Promise(() => {}),
    visibility: { visible: () => true, subscribe: () => () => {} },
    mayMark: () => true,
  });
  // The navbar's bell: the area polls as long as the session lasts.
  areasOf(actors).get(notificationsArea);
  renderAt(actors, <WorkBenchPage />, '/dashboard/workBench');
  const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
  await wait(0);
  const shown = () => screen.getByTestId('balance-money').textContent;
  expect(shown()).toBe('100.00');
  const loaded = loads;

  // A task settled (its failed outputs refunded): a new notification, new balances.
  server.money = 101;
  server.unread = 3;
  await wait(BELL_POLL_MS);
  expect(shown()).toBe('101.00');
  expect(loads).toBe(loaded + 1);

  // Balances that moved with no news, and a count that fell (notifications read): no reload.
  server.money = 102;
  await wait(BELL_POLL_MS);
  server.unread = 0;
  await wait(BELL_POLL_MS);
  expect(shown()).toBe('101.00');
  expect(loads).toBe(loaded + 1);

  // The next finish: news again.
  server.money = 103;
  server.unread = 1;
  await wait(BELL_POLL_MS);
  expect(shown()).toBe('103.00');
  expect(loads).toBe(loaded + 2);
  actors.dispose();
}, 30_000);
