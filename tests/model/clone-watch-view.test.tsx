/**
 * The clones area's training watch (src/app/actors/digital-human-clones.ts, clone-watch machine)
 * seen on the image clone page: a clone queued, then training, then ready moves on screen without
 * a reload (queue position, progress, status tag), the watch asks every 2 s only while a row on
 * show is queued or training, waits longer after a failed check, and stops once none is; a failed
 * clone shows the server's reason. The watch belongs to the area: unmounting the page (a tab
 * switch) leaves it running.
 */
import { act, cleanup, screen, within } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { ImageClone } from '../../src/api/contract/digital-human';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import {
  digitalHumanClonesArea,
  type DigitalHumanClonesEndpoints,
} from '../../src/app/actors/digital-human-clones';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import ImageClonePage from '../../src/views/digital-human/image-clone-page';
import { replyError } from './fixtures';
import { shopAuth } from './video-task-fixtures';
import { person, viewPathHooks } from './ui-paths';
import { appActors, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const clone = (patch: Partial<ImageClone>): ImageClone => ({
  id: 7,
  owner_id: 9,
  owner_name: 'shop9',
  name: 'Anna',
  tier: 'standard',
  status: 'queued',
  reason: null,
  progress: 0,
  queue_position: 2,
  video_id: 1,
  consent_video_id: 2,
  cover: null,
  preview_url: null,
  demonstration: true,
  cost: 1,
  refunded: 0,
  created_at: 0,
  finished_at: null,
  ...patch,
});

viewPathHooks();

test('a clone trains on screen without a reload; the watch stops when it is ready', async () => {
  // What the server answers at each list call, in turn (the last one again after).
  const answers: (ImageClone | Error)[] = [
    clone({}),
    clone({ status: 'training', progress: 40, queue_position: null }),
    new Error('lost'),
    clone({ status: 'training', progress: 80, queue_position: null }),
    clone({ status: 'ready', progress: 100, queue_position: null, preview_url: '/p', cover: '/c' }),
  ];
  let calls = 0;
  const endpoints = {
    getImageClones: async () => {
      const answer = answers[Math.min(calls, answers.length - 1)];
      calls++;
      if (answer instanceof Error) throw replyError('lost', 'transport');
      return { list: [answer], total: 1 };
    },
    getResources: async () => ({ list: [], total: 0 }),
  } as unknown as DigitalHumanClonesEndpoints;
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, digitalHumanClonesArea, endpoints);
  renderAt(actors, <ImageClonePage />, '/digital-human/image-clone');
  const tick = async (ms: number) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  const row = () => within(screen.getByRole('row', { name: /Anna/ }));
  await tick(0);
  expect(calls).toBe(1);
  expect(row().getByTestId('clone-status').textContent).toBe(text('dhClones.statusQueued'));
  expect(row().getByTestId('clone-progress').textContent).toBe(
    text('dhClones.queuePosition', { position: 2 }),
  );
  // Not before 2 s.
  await tick(1999);
  expect(calls).toBe(1);
  await tick(1);
  expect(calls).toBe(2);
  expect(row().getByTestId('clone-status').textContent).toBe(text('dhClones.statusTraining'));
  expect(
    row()
      .getByRole('progressbar', { name: text('dhClones.progressOf', { name: 'Anna' }) })
      .getAttribute('aria-valuenow'),
  ).toBe('40');

  // The page goes (a tab switch): the area's watch goes on.
  cleanup();
  await tick(2000);
  expect(calls).toBe(3);
  // That check failed: the next waits 4 s.
  await tick(3999);
  expect(calls).toBe(3);
  await tick(1);
  expect(calls).toBe(4);
  renderAt(actors, <ImageClonePage />, '/digital-human/image-clone');
  await tick(0);
  // The list loaded afresh with the page (the watch knows) and shows 80 %.
  expect(row().getByTestId('clone-progress').textContent).toBe(
    text('dhClones.percent', { percent: 80 }),
  );
  const made = calls;
  await tick(2000);
  expect(calls).toBe(made + 1);
  expect(row().getByTestId('clone-status').textContent).toBe(text('dhClones.statusReady'));
  expect(
    row().getByRole('button', { name: text('dhClones.previewOf', { name: 'Anna' }) }),
  ).toBeTruthy();
  // Ready: nothing on show trains, the watch stops.
  await tick(30_000);
  expect(calls).toBe(made + 1);
  expect(areasOf(actors).get(digitalHumanClonesArea).watch.getSnapshot().value).toBe('idle');
  actors.dispose();
});

test('a failed clone shows the server’s reason and can be deleted', async () => {
  const reason = 'The source video has 3 cuts: it must be one continuous take';
  const endpoints = {
    getImageClones: async () => ({
      list: [clone({ status: 'failed', reason, refunded: 1, finished_at: 1 })],
      total: 1,
    }),
    getResources: async () => ({ list: [], total: 0 }),
  } as unknown as DigitalHumanClonesEndpoints;
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, digitalHumanClonesArea, endpoints);
  renderAt(actors, <ImageClonePage />, '/digital-human/image-clone');
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
  const row = within(screen.getByRole('row', { name: /Anna/ }));
  expect(row.getByTestId('clone-status').textContent).toBe(text('dhClones.statusFailed'));
  expect(row.getByTestId('clone-reason').textContent).toBe(reason);
  expect(
    row.getByRole('button', { name: text('dhClones.deleteOf', { name: 'Anna' }) }),
  ).toBeTruthy();
  expect(areasOf(actors).get(digitalHumanClonesArea).watch.getSnapshot().value).toBe('idle');
  actors.dispose();
});

/** Anna training and Bea ready; the watch's checks (quiet calls) wait for `answer()` if held. */
function filterWorld(hold: boolean) {
  let server = [
    clone({ status: 'training', progress: 40, queue_position: null }),
    clone({ id: 8, name: 'Bea', status: 'ready', progress: 100, queue_position: null }),
  ];
  const calls: { status?: string; quiet: boolean }[] = [];
  const held: (() => void)[] = [];
  const endpoints = {
    getImageClones: async (query: { status?: string }, opts?: { quiet?: boolean }) => {
      calls.push({ status: query.status, quiet: opts?.quiet === true });
      if (hold && opts?.quiet) await new Promise<void>((go) => held.push(go));
      const list = server.filter((c) => !query.status || c.status === query.status);
      return { list, total: list.length };
    },
    getResources: async () => ({ list: [], total: 0 }),
  } as unknown as DigitalHumanClonesEndpoints;
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, digitalHumanClonesArea, endpoints);
  renderAt(actors, <ImageClonePage />, '/digital-human/image-clone');
  const user = person();
  const tick = async (ms: number) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  return {
    tick,
    checks: () => calls.filter((c) => c.quiet),
    /** Anna as the server has it now. */
    update: (patch: Partial<ImageClone>) => {
      server = server.map((c) => (c.id === 7 ? { ...c, ...patch } : c));
    },
    progress: () =>
      screen.getByRole('row', { name: /Anna/ }).querySelector('[data-testid="clone-progress"]')
        ?.textContent,
    watching: () =>
      areasOf(actors).get(digitalHumanClonesArea).watch.getSnapshot().hasTag('watching'),
    answer: async () => {
      for (const go of held.splice(0)) go();
      await tick(0);
    },
    /** The person picks a status in the filter bar (or keeps it) and searches. */
    filter: async (status?: MessageId) => {
      const bar = within(screen.getByRole('search'));
      if (status)
        await user.selectOptions(bar.getByLabelText(text('dhClones.status')), text(status));
      await user.click(bar.getByRole('button', { name: text('filter.search') }));
      for (let i = 0; i < 5; i++) await tick(0);
    },
    dispose: () => actors.dispose(),
  };
}

/** The page shown, then the watch's first check asked and not answered yet. */
async function checkUnderWay() {
  const w = filterWorld(true);
  await w.tick(0);
  await w.tick(2000);
  expect(w.checks()).toHaveLength(1);
  return w;
}

test('a list loaded afresh is newer than the watch’s copy: its rows show at once', async () => {
  const w = filterWorld(false);
  await w.tick(0);
  await w.tick(2000);
  expect(w.checks()).toHaveLength(1);
  expect(w.progress()).toBe(text('dhClones.percent', { percent: 40 }));
  // The person searches again before the next check: the fresh row wins over the older copy.
  w.update({ progress: 80 });
  await w.filter();
  expect(w.checks()).toHaveLength(1);
  expect(w.progress()).toBe(text('dhClones.percent', { percent: 80 }));
  w.dispose();
}, 60_000);

test('the training clone filtered away between checks: the watch stops at once', async () => {
  const w = filterWorld(false);
  await w.tick(0);
  await w.filter('dhClones.statusReady');
  screen.getByRole('row', { name: /Bea/ });
  // At once: no timer of the watch is left waiting (it would end in a check that asks nothing).
  expect(w.watching()).toBe(false);
  await w.tick(30_000);
  expect(w.checks(), 'no check: nothing on show trains').toEqual([]);
  w.dispose();
}, 60_000);

test('a search while a check is under way asks again at once, for the new list', async () => {
  const w = await checkUnderWay();
  await w.filter('dhClones.statusTraining');
  expect(w.checks()).toEqual([
    { status: undefined, quiet: true },
    { status: 'training', quiet: true },
  ]);
  w.dispose();
}, 60_000);

test('the training clone filtered away while a check is under way: the watch stops', async () => {
  const w = await checkUnderWay();
  await w.filter('dhClones.statusReady');
  await w.answer();
  await w.tick(30_000);
  expect(w.checks(), 'no check after: nothing on show trains').toHaveLength(1);
  expect(w.watching()).toBe(false);
  w.dispose();
}, 60_000);
