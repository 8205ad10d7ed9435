/**
 * The digital-human videos page (src/views/digital-human/digital-video-page.tsx over the dh videos
 * area: task-watch and task-detail made again, issue 14), with hand-written expectations: a video
 * being made moves on the list without a reload and the watch stops once none is; Play opens the
 * player with the video asked for, the open video moves on in it as well, Close closes it.
 */
import { act, screen, within } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { DhVideo, DhVideoDetail } from '../../src/api/contract/digital-human';
import { provideArea } from '../../src/app/actors/areas';
import { dhVideosArea, type DhVideosEndpoints } from '../../src/app/actors/digital-human-videos';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { POLL_MS } from '../../src/machines/video-tasks/task-watch';
import DigitalVideoPage from '../../src/views/digital-human/digital-video-page';
import { shopAuth } from './video-task-fixtures';
import { person, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const video = (patch: Partial<DhVideo>): DhVideoDetail => ({
  id: 3,
  name: 'Spring promo',
  status: 'creating',
  reason: null,
  progress: 10,
  queue_position: null,
  avatar_id: 1,
  avatar_name: 'Anna',
  voice_id: 5,
  voice_name: 'My voice',
  folder_id: 8,
  client: 'shop9',
  estimated_seconds: 12,
  duration: null,
  frozen: 12,
  settled: 0,
  refunded: 0,
  cover: null,
  url: null,
  download_url: null,
  width: null,
  height: null,
  size: null,
  demonstration: true,
  resubmitted_from: null,
  created_at: 0,
  finished_at: null,
  params: {},
  reason_detail: null,
  ...patch,
});

function world() {
  /** The server's copy of the one video. */
  let server = video({});
  const calls = { list: 0, detail: [] as number[] };
  const never = () => new Promise<never>(() => {});
  const endpoints: DhVideosEndpoints = {
    getDhVideos: async () => {
      calls.list++;
      return { list: [server], total: 1 };
    },
    getDhVideo: async (id) => {
      calls.detail.push(id);
      return server;
    },
    renameDhVideo: never,
    deleteDhVideos: never,
    resubmitDhVideo: never,
    estimateDhVideo: never,
    addDhVideo: never,
    getDhTemplates: async () => ({ list: [] }),
    getReadyAvatars: async () => ({ list: [], total: 0 }),
    getReadyVoices: async () => ({ list: [], total: 0 }),
    previewVoice: never,
    getGroups: async () => ({ list: [], ungrouped: 0 }),
    getResources: async () => ({ list: [], total: 0 }),
    newIdempotencyKey: () => 'k',
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, dhVideosArea, endpoints);
  renderAt(actors, <DigitalVideoPage />, '/digital-human/digital-video');
  const tick = async (ms: number) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  const bars = (name: string) =>
    screen.queryAllByRole('progressbar', { name: text('dhVideos.progressOf', { name }) });
  const player = () => {
    const d = screen.queryAllByTestId('dh-player').filter(isOpen)[0];
    return d ? within(d) : null;
  };
  return {
    calls,
    set: (patch: Partial<DhVideo>) => {
      server = { ...server, ...patch };
    },
    tick,
    bars,
    player,
    dispose: () => actors.dispose(),
  };
}

viewPathHooks();

test('a video being made moves on the list without a reload; the watch stops when it is done', async () => {
  const w = world();
  const bar = () => w.bars('Spring promo')[0];
  await vi.waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('10'));
  const loaded = w.calls.list;
  w.set({ progress: 60 });
  await w.tick(POLL_MS);
  await vi.waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('60'));
  // Asked by the watch (quietly), not a reload of the page.
  expect(w.calls.list).toBe(loaded + 1);
  w.set({ status: 'done', progress: 100, url: '/files/v3.mp4', finished_at: 5 });
  await w.tick(POLL_MS);
  await vi.waitFor(() => expect(w.bars('Spring promo')).toEqual([]));
  expect(
    screen.getByRole('button', { name: text('dhVideos.playOf', { name: 'Spring promo' }) })
      .textContent,
  ).toBe(text('dhVideos.play'));
  const asked = w.calls.list;
  await w.tick(5 * POLL_MS);
  expect(w.calls.list, 'the watch stopped').toBe(asked);
  w.dispose();
}, 60_000);

test('Play opens the player with the video; the open video moves on in it; Close closes it', async () => {
  const w = world();
  const user = person();
  const play = await vi.waitFor(() =>
    screen.getByRole('button', { name: text('dhVideos.playOf', { name: 'Spring promo' }) }),
  );
  expect(w.player()).toBeNull();
  await user.click(play);
  await vi.waitFor(() =>
    expect(w.player()?.getByRole('heading', { name: 'Spring promo' })).toBeTruthy(),
  );
  expect(w.calls.detail).toEqual([3]);
  const inPlayer = () =>
    w
      .player()!
      .getByRole('progressbar', { name: text('dhVideos.progressOf', { name: 'Spring promo' }) });
  expect(inPlayer().getAttribute('aria-valuenow')).toBe('10');
  w.set({ progress: 70 });
  await w.tick(POLL_MS);
  await vi.waitFor(() => expect(inPlayer().getAttribute('aria-valuenow')).toBe('70'));
  await user.click(w.player()!.getAllByRole('button', { name: text('form.close') })[0]);
  await vi.waitFor(() => expect(w.player()).toBeNull());
  w.dispose();
}, 60_000);
