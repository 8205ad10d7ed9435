/**
 * The digital-human videos page (src/views/digital-human/digital-video-page.tsx over the dh videos
 * area: task-watch and task-detail made again), with hand-written expectations: a video
 * being made moves on the list without a reload and the watch stops once none is; Play opens the
 * player with the video asked for, the open video moves on in it as well, Close closes it. A copy
 * loaded afresh (a search's reload of the list, the player's detail) shows on the list at once,
 * not at the watch's next check; renaming the open video shows its new name in the player,
 * deleting it closes the player. The gallery of my creations
 * (src/views/digital-human/my-creation-page.tsx): Play opens the player with that video.
 */
import { act, screen, within } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { DhVideo, DhVideoDetail } from '../../src/api/contract/digital-human';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { dhVideosArea, type DhVideosEndpoints } from '../../src/app/actors/digital-human-videos';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { POLL_MS } from '../../src/machines/video-tasks/task-watch';
import DigitalVideoPage from '../../src/views/digital-human/digital-video-page';
import MyCreationPage from '../../src/views/digital-human/my-creation-page';
import { dhTemplatesArea } from '../../src/app/actors/digital-human-templates';
import { templatesEndpoints } from './dh-template-fixtures';
import { shopAuth } from './video-task-fixtures';
import { person, settle, viewPathHooks } from './ui-paths';
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

/** The list page, or the gallery of finished works (my creations). */
const PAGES = {
  list: [<DigitalVideoPage key="list" />, '/digital-human/digital-video'],
  gallery: [<MyCreationPage key="gallery" />, '/digital-human/my-creation'],
} as const;

function world(page: keyof typeof PAGES | 'link' = 'list', start: Partial<DhVideo> = {}) {
  /** The server's copy of the one video (null once deleted). */
  let server: DhVideoDetail | null = video(start);
  /** list: every list call; checks: the watch's (quiet) ones among them. */
  const calls = { list: 0, checks: 0, detail: [] as number[] };
  const never = () => new Promise<never>(() => {});
  const endpoints: DhVideosEndpoints = {
    getDhVideos: async (_query, options) => {
      calls.list++;
      if (options?.quiet) calls.checks++;
      return server ? { list: [server], total: 1 } : { list: [], total: 0 };
    },
    getDhVideo: async (id) => {
      calls.detail.push(id);
      if (server?.id !== id) throw new Error('no such video');
      return server;
    },
    renameDhVideo: async ({ name }) => (server = { ...server!, name }),
    deleteDhVideos: async ({ ids }) => {
      server = null;
      return { count: ids.length };
    },
    resubmitDhVideo: never,
    estimateDhVideo: never,
    addDhVideo: never,
    getReadyAvatars: async () => ({ list: [], total: 0 }),
    getReadyVoices: async () => ({ list: [], total: 0 }),
    previewVoice: never,
    getGroups: async () => ({ list: [], ungrouped: 0 }),
    getResources: async () => ({ list: [], total: 0 }),
    newIdempotencyKey: () => 'k',
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, dhVideosArea, endpoints);
  /** The templates made from a video ("save as template"). */
  const fromVideo: unknown[] = [];
  provideArea(actors, dhTemplatesArea, {
    ...templatesEndpoints([]),
    addDhTemplateFromVideo: async (body) => {
      fromVideo.push(body);
      return { id: 12 };
    },
  });
  // 'link': the list page opened by a notification's link (`?video=<id>`).
  const [element, path] =
    page === 'link' ? [PAGES.list[0], `${PAGES.list[1]}?video=${video(start).id}`] : PAGES[page];
  renderAt(actors, element, path);
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
    fromVideo,
    set: (patch: Partial<DhVideo>) => {
      server = { ...server!, ...patch };
    },
    tick,
    bars,
    player,
    /** The area's actors, for what no control offers (see the rename and delete tests). */
    area: () => areasOf(actors).get(dhVideosArea),
    dispose: () => actors.dispose(),
  };
}

viewPathHooks();

test('a notification’s link (?video=) opens the player with that video', async () => {
  const w = world('link', { status: 'done', progress: 100 });
  await vi.waitFor(() =>
    expect(w.player()?.getByRole('heading', { name: 'Spring promo' })).toBeTruthy(),
  );
  expect(w.calls.detail).toEqual([video({}).id]);
  w.dispose();
});

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

/** A finished video (not watched: nothing moves on by itself). */
const DONE: Partial<DhVideo> = {
  status: 'done',
  progress: 100,
  url: '/files/v3.mp4',
  finished_at: 5,
};
const playOf = (name: string) =>
  screen.getByRole('button', { name: text('dhVideos.playOf', { name }) });

test('a search reloads the list: the row shows the newer progress at once, not at the next check', async () => {
  const w = world();
  const user = person();
  const bar = () => w.bars('Spring promo')[0];
  await vi.waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('10'));
  // The watch has checked: the row shows its copy (10) from now on.
  await w.tick(POLL_MS);
  const checks = w.calls.checks;
  expect(checks).toBeGreaterThan(0);
  w.set({ progress: 80 });
  await user.type(screen.getByRole('textbox', { name: text('dhVideos.keyword') }), 'Spring');
  await user.click(screen.getByRole('button', { name: text('filter.search') }));
  await settle();
  expect(bar()?.getAttribute('aria-valuenow')).toBe('80');
  expect(w.calls.checks, 'shown from the reload, not from a check').toBe(checks);
  w.dispose();
}, 60_000);

test('Play loads the newer copy: the row behind the player shows it at once too', async () => {
  const w = world();
  const user = person();
  await vi.waitFor(() =>
    expect(w.bars('Spring promo')[0]?.getAttribute('aria-valuenow')).toBe('10'),
  );
  await w.tick(POLL_MS);
  const checks = w.calls.checks;
  w.set({ progress: 50 });
  await user.click(playOf('Spring promo'));
  await settle();
  expect(w.player()?.getByRole('heading', { name: 'Spring promo' })).toBeTruthy();
  // The table is hidden from the accessibility tree while the player, a modal, is open.
  const row = within(screen.getByTestId('dh-videos')).getByRole('progressbar', {
    hidden: true,
    name: text('dhVideos.progressOf', { name: 'Spring promo' }),
  });
  expect(row.getAttribute('aria-valuenow')).toBe('50');
  expect(w.calls.checks, 'shown from the detail, not from a check').toBe(checks);
  w.dispose();
}, 60_000);

/** The list with the finished video, open in the player by its Play. */
async function finishedInPlayer() {
  const w = world('list', DONE);
  const user = person();
  await user.click(await vi.waitFor(() => playOf('Spring promo')));
  await vi.waitFor(() =>
    expect(w.player()?.getByRole('heading', { name: 'Spring promo' })).toBeTruthy(),
  );
  return { w, user };
}

test('Rename in the player: the player shows the new name', async () => {
  const { w, user } = await finishedInPlayer();
  await user.click(
    w.player()!.getByRole('button', { name: text('dhVideos.renameOf', { name: 'Spring promo' }) }),
  );
  const dialog = await vi.waitFor(() =>
    screen.getByRole('dialog', { name: text('dhVideos.renameTitle', { name: 'Spring promo' }) }),
  );
  const name = within(dialog).getByRole('textbox', { name: text('dhVideos.name') });
  // The dialog over the player takes the focus.
  await vi.waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
  await user.clear(name);
  await user.type(name, 'Summer promo');
  await user.click(within(dialog).getByRole('button', { name: text('dhVideos.rename') }));
  await vi.waitFor(() =>
    expect(w.player()?.getByRole('heading', { name: 'Summer promo' })).toBeTruthy(),
  );
  expect(w.calls.detail).toEqual([3, 3]);
  w.dispose();
}, 60_000);

test('Save as template in the player: the name starts as the video’s (at most 30 characters) and the template is made of it', async () => {
  const { w, user } = await finishedInPlayer();
  // Only a done video offers it.
  expect(
    screen.queryAllByRole('button', {
      name: text('dhVideos.saveAsTemplateOf', { name: 'Spring promo' }),
      hidden: true,
    }).length,
  ).toBe(2);
  await user.click(
    w.player()!.getByRole('button', {
      name: text('dhVideos.saveAsTemplateOf', { name: 'Spring promo' }),
    }),
  );
  const dialog = await vi.waitFor(() =>
    screen.getByRole('dialog', {
      name: text('dhVideos.saveAsTemplateTitle', { name: 'Spring promo' }),
    }),
  );
  const name = within(dialog).getByRole('textbox', { name: text('dhVideos.templateName') });
  expect((name as HTMLInputElement).value).toBe('Spring promo');
  await user.clear(name);
  await user.click(within(dialog).getByRole('button', { name: text('dhVideos.saveAsTemplate') }));
  within(dialog).getByText(enUS['validation.templateName']);
  expect(w.fromVideo).toEqual([]);
  await user.type(name, 'Promo look');
  await user.click(within(dialog).getByRole('button', { name: text('dhVideos.saveAsTemplate') }));
  await vi.waitFor(() => expect(screen.getByText(text('dhTemplates.savedFromVideo'))).toBeTruthy());
  expect(w.fromVideo).toEqual([{ video_id: 3, name: 'Promo look' }]);
  w.dispose();
}, 60_000);

test('Delete in the player (a finished video) closes it', async () => {
  const { w, user } = await finishedInPlayer();
  await user.click(
    w.player()!.getByRole('button', { name: text('dhVideos.deleteOf', { name: 'Spring promo' }) }),
  );
  const dialog = await vi.waitFor(() =>
    screen.getByRole('dialog', { name: text('dhVideos.deleteTitle', { name: 'Spring promo' }) }),
  );
  await user.click(within(dialog).getByRole('button', { name: text('dhVideos.delete') }));
  await vi.waitFor(() => expect(screen.getByText(text('dhVideos.empty'))).toBeTruthy());
  expect(w.player()).toBeNull();
  w.dispose();
}, 60_000);

test('my creations: Play opens the player with that finished video', async () => {
  const w = world('gallery', DONE);
  const user = person();
  const gallery = await vi.waitFor(() =>
    screen.getByRole('list', { name: text('myCreation.gallery') }),
  );
  expect(w.player()).toBeNull();
  await user.click(
    within(gallery).getByRole('button', {
      name: text('dhVideos.playOf', { name: 'Spring promo' }),
    }),
  );
  await vi.waitFor(() =>
    expect(
      w.player()?.getByLabelText(text('dhVideos.playerOf', { name: 'Spring promo' })),
    ).toBeTruthy(),
  );
  expect(w.calls.detail).toEqual([3]);
  w.dispose();
}, 60_000);
