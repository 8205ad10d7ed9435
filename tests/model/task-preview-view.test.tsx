/**
 * The preview before paying of the mixed-cut create form (src/views/creation/task-preview.tsx in
 * the drawer of src/views/creation/task-form.tsx, over the video task forms area and its
 * task-preview machine), driven as a merchant would, against a hand-written oracle: the
 * machine's shortest paths only propose event sequences; each step is executed on the rendered
 * drawer (Preview, Cancel → Discard), the clock (the poll's wait) or a fake endpoint settling, and
 * what the person sees after it comes from TRANSITIONS / SEES below: the state of the preview
 * (asking, queued, rendering), the video with its controls and name, why it failed, the server's
 * refusal, too many previews (HTTP 429), a check that failed waiting twice as long, and the body
 * the preview is asked for (the form's, as it is priced).
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { ApiError } from '../../src/api/http';
import type { VideoPreview } from '../../src/api/contract/video-task-preview';
import type { MixedTaskBody, VideoTaskBody } from '../../src/api/contract/video-tasks';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import {
  videoTaskFormsArea,
  type VideoTaskFormsEndpoints,
} from '../../src/app/actors/video-task-forms';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { picked } from '../../src/machines/task-form';
import {
  POLL_MS,
  taskPreviewMachine,
  type TaskPreviewSnapshot,
} from '../../src/machines/video-tasks/task-preview';
import MixedshearPage from '../../src/views/creation/mixedshear-page';
import { MixedTaskFormDrawer, NewMixedTaskButton } from '../../src/views/creation/task-form';
import { replyError } from './fixtures';
import { clipResource, shopAuth } from './video-task-fixtures';
import { person, settle, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const BEACH = clipResource(1, 'Beach', 3);
const PARK = clipResource(2, 'Park', 2);
const NAME = 'Spring sale';
const REFUSED = 'Material 2 was not found or has been deleted';
const THROTTLED = 'At most 6 previews a minute: try again in 30 s (previews are free)';
const GONE = 'Preview not found (previews are removed after an hour)';
const REASON = 'The video could not be rendered';

const previewOf = (status: VideoPreview['status'], n = 1): VideoPreview => ({
  id: 70 + n,
  status,
  width: 360,
  height: 640,
  duration: status === 'done' ? 4 : null,
  url: status === 'done' ? `/api/v1/files/previews/p${n}.mp4?sig=s` : null,
  reason: status === 'failed' ? REASON : null,
  narration_silent: false,
  expires_at: 3_600_000,
});

// ---------------------------------------------------------------------------------------------
// The oracle, from docs/domain.md §9 "Presets, batches and previews": Preview asks for the
// form's body; the answer is queued; every POLL_MS its state is asked until it is done (the
// video plays) or failed (its reason); a refusal or too many previews shows the server's
// sentence and Preview may be pressed again; a check that fails is asked again after twice the
// wait; a preview that is gone (the server refuses the check) is a refusal; the drawer closed
// (Cancel → Discard) forgets the preview.

const TRANSITIONS: Record<string, string> = {
  'idle PREVIEW': 'asking',
  'asking error start': 'refused',
  'asking error start (429)': 'throttled',
  'refused PREVIEW': 'asking again',
  'throttled PREVIEW': 'asking again',
  'asking done start': 'queued',
  // The server could not queue it (its job runner refused): failed at once.
  'asking done start (failed)': 'failed at once',
  'asking again done start': 'queued',
  'queued TIMER': 'checking',
  'checking done check (rendering)': 'rendering',
  'checking error check': 'check failed',
  'check failed TIMER (twice)': 'checking after failure',
  'checking after failure error check (gone)': 'gone',
  'rendering TIMER': 'checking rendering',
  'checking rendering done check (done)': 'ready',
  'checking rendering done check (failed)': 'failed',
  'failed PREVIEW': 'asking again',
  'failed at once PREVIEW': 'asking again',
  'ready PREVIEW': 'asking again',
  'ready CLEAR': 'cleared',
};

type PathEvent = { type: string; by?: string; output?: unknown; error?: unknown; body?: unknown };

const AFTER = 'xstate.after.poll.taskPreview.watching.waiting';

const label = (e: PathEvent) => {
  if (e.by) return e.by;
  if (e.type === AFTER) return 'TIMER';
  return e.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');
};

/** What can happen in a state (few ways in, so the paths stay few). */
function events(s: TaskPreviewSnapshot): PathEvent[] {
  const { preview, failures, error } = s.context;
  const press = { type: 'PREVIEW', body: {} };
  if (s.matches('idle')) return preview || error ? [] : [press];
  if (s.matches('asking')) {
    const again = Boolean(s.context.body && (error || preview));
    return [
      { type: 'xstate.done.actor.start', output: previewOf('queued') },
      ...(again
        ? []
        : [
            { type: 'xstate.error.actor.start', error: replyError(REFUSED) },
            { type: 'xstate.error.actor.start', by: 'error start (429)', error: throttled() },
            {
              type: 'xstate.done.actor.start',
              by: 'done start (failed)',
              output: previewOf('failed'),
            },
          ]),
    ];
  }
  if (s.matches({ watching: 'waiting' })) {
    return [{ type: AFTER, ...(failures > 0 ? { by: 'TIMER (twice)' } : {}) }];
  }
  if (s.matches({ watching: 'checking' })) {
    if (failures > 0) {
      return [
        { type: 'xstate.error.actor.check', by: 'error check (gone)', error: replyError(GONE) },
      ];
    }
    if (preview?.status === 'rendering') {
      return [
        { type: 'xstate.done.actor.check', by: 'done check (done)', output: previewOf('done') },
        { type: 'xstate.done.actor.check', by: 'done check (failed)', output: previewOf('failed') },
      ];
    }
    return [
      {
        type: 'xstate.done.actor.check',
        by: 'done check (rendering)',
        output: previewOf('rendering'),
      },
      { type: 'xstate.error.actor.check', error: replyError('network', 'transport') },
    ];
  }
  if (s.matches('ready')) return [press, { type: 'CLEAR' }];
  if (s.matches('refused')) return preview ? [] : [press];
  return [press];
}

function throttled() {
  return new ApiError({
    kind: 'transport',
    msg: THROTTLED,
    path: '/video_task/preview',
    status: 429,
    code: 0,
  });
}

// ---------------------------------------------------------------------------------------------

interface Call<I> {
  input: I;
  resolve: (v: VideoPreview) => void;
  reject: (e: unknown) => void;
  quiet: boolean;
}

function setup() {
  const starts: Call<VideoTaskBody>[] = [];
  const checks: Call<number>[] = [];
  const endpoints: VideoTaskFormsEndpoints = {
    estimateVideoTask: () => new Promise(() => {}),
    addVideoTask: () => new Promise(() => {}),
    getResources: async () => ({ list: [BEACH, PARK], total: 2 }),
    getGroups: async () => ({ list: [], ungrouped: 0 }),
    getReadyVoices: async () => ({ list: [], total: 0 }),
    previewVideoTask: (body, options) =>
      new Promise((resolve, reject) =>
        starts.push({ input: body, resolve, reject, quiet: Boolean(options?.quiet) }),
      ),
    getVideoPreview: (id, options) =>
      new Promise((resolve, reject) =>
        checks.push({ input: id, resolve, reject, quiet: Boolean(options?.quiet) }),
      ),
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, videoTaskFormsArea, endpoints);
  const area = () => areasOf(actors).get(videoTaskFormsArea);
  renderAt(
    actors,
    <>
      <NewMixedTaskButton />
      <MixedTaskFormDrawer />
    </>,
    '/creation/mixed-task',
  );
  const user = person();
  const fill = () => {
    // The form as a person leaves it after picking two shots and naming the task (the form's
    // own paths are tests/model/task-form-view.test.tsx's).
    area().mixed.send({ type: 'OPEN' });
    area().mixed.send({
      type: 'EDIT',
      patch: {
        name: NAME,
        count: '1',
        groups: [{ key: 1, shots: [picked(BEACH), picked(PARK)], duration: '' }],
      },
    });
  };
  fill();

  const drawer = () => {
    const d = screen
      .queryAllByRole('dialog')
      .filter(isOpen)
      .find((el) => within(el).queryByRole('heading', { name: text('taskForm.mixedTitle') }));
    return d ? within(d) : null;
  };
  const panel = () => {
    const d = drawer();
    expect(d, 'the drawer').not.toBeNull();
    return within(d!.getByRole('region', { name: text('taskPreview.title') }));
  };
  const button = () => panel().getByRole('button', { name: text('taskPreview.preview') });
  const video = () => panel().queryByLabelText(text('taskPreview.player'));
  const tick = async (ms: number) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  const settleLast = async <I,>(calls: Call<I>[], outcome: 'done' | 'error', value: unknown) => {
    const call = calls.at(-1);
    expect(call, 'a call under way').toBeDefined();
    if (outcome === 'done') call!.resolve(value as VideoPreview);
    else call!.reject(value);
    await tick(0);
  };

  const exec = async (e: PathEvent) => {
    switch (label(e)) {
      case 'PREVIEW':
        return user.click(button());
      case 'CLEAR': {
        await user.click(drawer()!.getByRole('button', { name: text('form.cancel') }));
        const discard = await vi.waitFor(() => {
          const d = screen
            .queryAllByRole('alertdialog', { name: text('form.discardTitle') })
            .filter(isOpen)[0];
          expect(d).toBeDefined();
          return within(d!);
        });
        await user.click(discard.getByRole('button', { name: text('form.discard') }));
        await vi.waitFor(() => expect(drawer()).toBeNull());
        // Opened again and filled in as before: the preview does not come back.
        fill();
        return tick(0);
      }
      case 'TIMER': {
        // Nothing is asked a moment before the wait ends.
        const before = checks.length;
        await tick(POLL_MS - 1);
        expect(checks.length, 'a check asked before the wait ended').toBe(before);
        return tick(1);
      }
      case 'TIMER (twice)': {
        const before = checks.length;
        await tick(2 * POLL_MS - 1);
        expect(checks.length, 'a check asked before twice the wait').toBe(before);
        return tick(1);
      }
      case 'done start':
      case 'done start (failed)':
        return settleLast(starts, 'done', e.output);
      case 'error start':
        return settleLast(starts, 'error', e.error);
      case 'error start (429)':
        return settleLast(starts, 'error', e.error);
      case 'done check (rendering)':
      case 'done check (done)':
      case 'done check (failed)':
        return settleLast(checks, 'done', e.output);
      case 'error check':
      case 'error check (gone)':
        return settleLast(checks, 'error', e.error);
      default:
        throw new Error(`a person cannot cause ${label(e)}`);
    }
  };

  const state = () => panel().getByTestId('task-preview-state').textContent ?? '';
  const idle = (busy: boolean) => {
    expect(button().hasAttribute('disabled')).toBe(busy);
    expect(button().getAttribute('aria-busy')).toBe(String(busy));
  };
  /** The calls made so far: `n` starts, each of the form's body, quietly. */
  const asked = (n: number) => {
    expect(starts.length).toBe(n);
    const body = starts.at(-1)!.input as MixedTaskBody;
    expect(body).toMatchObject({
      kind: 'mixed',
      count: 1,
      ratio: '9:16',
      shot_groups: [{ resource_ids: [1, 2] }],
    });
    expect(starts.every((c) => c.quiet)).toBe(true);
  };
  const waitingFor = (checksMade: number) => {
    expect(checks.length, 'checks asked').toBe(checksMade);
    expect(checks.every((c) => c.input === 71 && c.quiet)).toBe(true);
  };

  const SEES: Record<string, () => void> = {
    idle: () => {
      expect(state()).toBe(text('taskPreview.hint'));
      idle(false);
      expect(video()).toBeNull();
      expect(starts).toEqual([]);
    },
    asking: () => {
      expect(state()).toBe(text('taskPreview.asking'));
      idle(true);
      asked(1);
    },
    'asking again': () => {
      expect(state()).toBe(text('taskPreview.asking'));
      idle(true);
      asked(2);
      expect(video()).toBeNull();
    },
    refused: () => {
      expect(state()).toBe(REFUSED);
      idle(false);
      // Shown in the panel, not as a notice.
      expect(screen.queryByText(REFUSED, { selector: '[role=status] *' })).toBeNull();
    },
    throttled: () => {
      expect(state()).toBe(text('taskPreview.throttled') + THROTTLED);
      idle(false);
    },
    queued: () => {
      expect(state()).toBe(text('taskPreview.queued'));
      idle(true);
      expect(checks.length).toBe(0);
    },
    checking: () => {
      expect(state()).toBe(text('taskPreview.queued'));
      waitingFor(1);
    },
    'check failed': () => {
      expect(state()).toBe(text('taskPreview.queued'));
      idle(true);
      waitingFor(1);
    },
    'checking after failure': () => {
      expect(state()).toBe(text('taskPreview.queued'));
      waitingFor(2);
    },
    gone: () => {
      expect(state()).toBe(GONE);
      idle(false);
    },
    rendering: () => {
      expect(state()).toBe(text('taskPreview.rendering'));
      idle(true);
      waitingFor(1);
    },
    'checking rendering': () => {
      expect(state()).toBe(text('taskPreview.rendering'));
      waitingFor(2);
    },
    ready: () => {
      expect(state()).toBe(text('taskPreview.ready', { width: 360, height: 640, seconds: 4 }));
      idle(false);
      const player = video() as HTMLVideoElement | null;
      expect(player?.tagName).toBe('VIDEO');
      expect(player!.getAttribute('src')).toBe(previewOf('done').url);
      expect(player!.hasAttribute('controls')).toBe(true);
      // The form is as it was previewed: no "changed since" hint.
      expect(panel().queryByText(text('taskPreview.stale'))).toBeNull();
    },
    failed: () => {
      expect(state()).toBe(text('taskPreview.failed', { reason: REASON }));
      idle(false);
      expect(video()).toBeNull();
    },
    'failed at once': () => {
      expect(state()).toBe(text('taskPreview.failed', { reason: REASON }));
      idle(false);
      expect(checks).toEqual([]);
    },
    cleared: () => {
      expect(state()).toBe(text('taskPreview.hint'));
      idle(false);
      expect(video()).toBeNull();
    },
  };

  return { exec, sees: SEES, dispose: () => actors.dispose(), area, panel };
}

viewPathHooks();

describe('the preview of the mixed-cut form', () => {
  uiPaths({
    oracle: { initial: 'idle', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(taskPreviewMachine, {
      events: (s) => events(s) as never[],
      serializeState: (s, e) =>
        JSON.stringify([
          s.value,
          s.context.preview?.status ?? null,
          s.context.error,
          s.context.failures,
          Boolean(s.context.body),
          e ? label(e as PathEvent) : null,
        ]),
    }) as never,
    run: async (_, walk) => {
      const world = setup();
      await walk({ exec: world.exec as never, sees: world.sees });
      world.dispose();
    },
    timeout: 30_000,
  });
});

test('a form changed after its preview says so; a narrated form says the preview has no voice', async () => {
  const w = setup();
  await settle();
  const steps = ['PREVIEW', 'done start', 'TIMER', 'done check (rendering)', 'TIMER'];
  const outputs: Record<string, unknown> = {
    'done start': previewOf('queued'),
    'done check (rendering)': previewOf('rendering'),
  };
  for (const by of steps) await w.exec({ type: by, by, output: outputs[by] });
  await w.exec({ type: 'x', by: 'done check (done)', output: previewOf('done') });
  expect(w.panel().queryByText(text('taskPreview.stale'))).toBeNull();
  expect(w.panel().queryByText(text('taskPreview.silent'))).toBeNull();
  act(() => {
    w.area().mixed.send({
      type: 'EDIT',
      patch: { narrationText: 'Hello there.', narrationVoice: '5' },
    });
  });
  await vi.waitFor(() => expect(w.panel().getByText(text('taskPreview.stale'))).toBeTruthy());
  expect(w.panel().getByText(text('taskPreview.silent'))).toBeTruthy();
  w.dispose();
}, 30_000);

test('the clip editor previews its clip; Cancel → Discard (the page starts afresh) forgets it', async () => {
  const starts: VideoTaskBody[] = [];
  const endpoints: VideoTaskFormsEndpoints = {
    estimateVideoTask: () => new Promise(() => {}),
    addVideoTask: () => new Promise(() => {}),
    getResources: async () => ({ list: [BEACH], total: 1 }),
    getGroups: async () => ({ list: [], ungrouped: 0 }),
    getReadyVoices: async () => ({ list: [], total: 0 }),
    previewVideoTask: async (body) => {
      starts.push(body);
      return previewOf('done');
    },
    getVideoPreview: () => new Promise(() => {}),
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, videoTaskFormsArea, endpoints);
  const area = areasOf(actors).get(videoTaskFormsArea);
  renderAt(actors, <MixedshearPage />, '/creation/mixedshear');
  const user = person();
  await settle();
  const panel = () => within(screen.getByRole('region', { name: text('taskPreview.title') }));
  const button = () => panel().getByRole('button', { name: text('taskPreview.preview') });
  // Nothing to preview before a clip is chosen.
  expect(button().hasAttribute('disabled')).toBe(true);
  expect(panel().getByText(text('taskPreview.blank'))).toBeTruthy();
  act(() => {
    area.clip.send({ type: 'EDIT', patch: { video: picked(BEACH), start: '0', end: '2' } });
  });
  await user.click(button());
  expect(starts).toEqual([
    expect.objectContaining({ kind: 'clip', resource_id: 1, trim: { start: 0, end: 2 } }),
  ]);
  await vi.waitFor(() => expect(panel().getByLabelText(text('taskPreview.player'))).toBeTruthy());
  await user.click(screen.getByRole('button', { name: text('form.cancel') }));
  const discard = await vi.waitFor(() => {
    const d = screen
      .queryAllByRole('alertdialog', { name: text('form.discardTitle') })
      .filter(isOpen)[0];
    expect(d).toBeDefined();
    return within(d!);
  });
  await user.click(discard.getByRole('button', { name: text('form.discard') }));
  await vi.waitFor(() => expect(panel().queryByLabelText(text('taskPreview.player'))).toBeNull());
  expect(panel().getByText(text('taskPreview.blank'))).toBeTruthy();
  actors.dispose();
}, 30_000);
