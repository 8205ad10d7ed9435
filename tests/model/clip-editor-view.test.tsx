/**
 * The clip editor (/creation/mixedshear, src/views/creation/mixedshear-page.tsx over the video
 * task forms area) driven as a merchant would, against a hand-written oracle: the
 * task-form machine's shortest paths only propose event sequences; each step is executed on the
 * page (the picker, the player's "start at the current play time" button, the end field, a
 * title, the name, "Create clip"), the clock (the estimate's debounce) or a fake endpoint
 * settling. A clip task has one output; once added, the clip list opens.
 */
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type {
  ClipTaskBody,
  VideoTaskBody,
  VideoTaskEstimate,
} from '../../src/api/contract/video-tasks';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import {
  clipEditorMachine,
  videoTaskFormsArea,
  type VideoTaskFormsEndpoints,
} from '../../src/app/actors/video-task-forms';
import { Providers } from '../../src/app/boot/providers';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { ESTIMATE_DEBOUNCE_MS } from '../../src/machines/task-form';
import MixedshearPage from '../../src/views/creation/mixedshear-page';
import { replyError } from './fixtures';
import { clipResource, shopAuth } from './video-task-fixtures';
import { person, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const BEACH = clipResource(1, 'Beach', 3);
const ADD_REFUSED = 'Clips are turned off for your account';
const ESTIMATE_FAILED = 'The estimate could not be made';
const NAME = 'Beach teaser';
const TITLE = 'Summer';
const ESTIMATE: VideoTaskEstimate = {
  combinations: 1,
  outputs: 1,
  unit_cost: '1.50',
  cost: '1.50',
  balance: '10.00',
  duration_min: 3,
  duration_max: 3,
};

// ---------------------------------------------------------------------------------------------
// The oracle: pick the video (kept whole), keep 1 s to 2.5 s, add a title, name it,
// create it. "waiting X" / "loading X": the estimate of the draft X is due / asked.

const TRANSITIONS: Record<string, string> = {
  // Nothing picked: the rules' messages under the name and the video.
  'empty SUBMIT': 'empty, refused',
  'empty PICK': 'waiting whole',
  'waiting whole TIMER': 'loading whole',
  'loading whole done estimate': 'shown whole',
  // A refused estimate shows the server's reason; Retry asks again.
  'loading whole error estimate': 'failed whole',
  'failed whole RETRY_ESTIMATE': 'loading whole',
  'shown whole TRIM': 'waiting trimmed',
  'waiting trimmed TIMER': 'loading trimmed',
  'loading trimmed done estimate': 'shown trimmed',
  'shown trimmed TITLE': 'waiting titled',
  'waiting titled TIMER': 'loading titled',
  'loading titled done estimate': 'shown titled',
  'shown titled NAME': 'named',
  'named SUBMIT': 'submitting',
  'submitting done submit': 'clip list',
  'submitting error submit': 'add refused',
};

type PathEvent = { type: string; by?: string; patch?: Record<string, unknown> };
const AFTER = 'xstate.after.400.clipEditor.open.estimate.waiting';
const label = (e: PathEvent) =>
  e.by ??
  (e.type === AFTER
    ? 'TIMER'
    : e.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 '));

type Snapshot = ReturnType<ReturnType<typeof createActor<typeof clipEditorMachine>>['getSnapshot']>;

function events(s: Snapshot): PathEvent[] {
  const d = s.context.draft;
  if (s.context.completed > 0) return [];
  const list: PathEvent[] = [];
  if (!d.video) {
    if (!s.context.submitted) {
      list.push({ type: 'SUBMIT' });
      list.push({
        type: 'EDIT',
        patch: { video: BEACH, start: '0', end: '3' },
        by: 'PICK',
      });
    }
    return list;
  }
  list.push({ type: AFTER }, { type: 'xstate.done.actor.estimate', output: ESTIMATE } as never);
  if (d.start === '0') {
    list.push(
      {
        type: 'xstate.error.actor.estimate',
        error: replyError(ESTIMATE_FAILED, 'transport'),
      } as never,
      { type: 'RETRY_ESTIMATE' },
    );
  }
  if (s.matches({ open: { estimate: 'shown' } })) {
    if (d.start === '0') list.push({ type: 'EDIT', patch: { start: '1', end: '2.5' }, by: 'TRIM' });
    else if (d.titles.length === 0) {
      list.push({
        type: 'EDIT',
        patch: { titles: [{ key: 1, text: TITLE, size: '48', color: '#ffffff', position: 'top' }] },
        by: 'TITLE',
      });
    } else if (!d.name) list.push({ type: 'EDIT', patch: { name: NAME }, by: 'NAME' });
    else list.push({ type: 'SUBMIT' });
  }
  list.push(
    { type: 'xstate.done.actor.submit', output: { id: 7 } } as never,
    { type: 'xstate.error.actor.submit', error: replyError(ADD_REFUSED) } as never,
  );
  return list.filter((e) => s.can(e as never));
}

// ---------------------------------------------------------------------------------------------

function setup() {
  const estimates: {
    body: VideoTaskBody;
    signal?: AbortSignal;
    settled: boolean;
    resolve: (v: VideoTaskEstimate) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const adds: {
    body: VideoTaskBody;
    resolve: (v: { id: number }) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const told: [string, number][] = [];
  const endpoints: VideoTaskFormsEndpoints = {
    estimateVideoTask: (body, options) =>
      new Promise((resolve, reject) => {
        estimates.push({ body, signal: options?.signal, settled: false, resolve, reject });
      }),
    addVideoTask: (body) => new Promise((resolve, reject) => adds.push({ body, resolve, reject })),
    getResources: async () => ({ list: [BEACH], total: 1 }),
    getGroups: async () => ({ list: [], ungrouped: 1 }),
    getReadyVoices: async () => ({ list: [], total: 0 }),
    previewVideoTask: () => new Promise(() => {}),
    getVideoPreview: () => new Promise(() => {}),
  };
  const auth = shopAuth();
  const actors = appActors({ auth });
  provideArea(actors, videoTaskFormsArea, endpoints);
  const area = () => areasOf(actors).get(videoTaskFormsArea);
  area().onTaskAdded((kind, id) => told.push([kind, id]));
  const router = createMemoryRouter(
    [
      { path: '/creation/mixedshear', element: <MixedshearPage /> },
      { path: '/creation/clip', element: <h1>clip list</h1> },
    ],
    { initialEntries: ['/creation/mixedshear'] },
  );
  render(
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>,
  );
  const user = person();
  const tick = async (ms: number) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  const page = () => within(screen.getByRole('region', { name: text('route.mixedshear') }));
  const fieldOf = (name: string) =>
    page().getByRole('textbox', {
      name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`),
    }) as HTMLInputElement;
  const panel = () => within(page().getByRole('region', { name: text('taskForm.estimate') }));
  const live = () => estimates.filter((c) => !c.settled && !c.signal?.aborted);
  const replace = async (name: string, value: string) => {
    await user.tripleClick(fieldOf(name));
    await user.keyboard(value);
  };

  const exec = async (e: PathEvent) => {
    switch (label(e)) {
      case 'SUBMIT':
        return user.click(page().getByRole('button', { name: text('clipEditor.submit') }));
      case 'PICK': {
        await user.click(page().getByRole('button', { name: text('clipEditor.pickVideo') }));
        const picker = await vi.waitFor(() => {
          const el = screen.queryAllByRole('dialog').filter(isOpen)[0];
          expect(el, 'the picker').toBeDefined();
          within(el).getByRole('list', { name: text('taskForm.pickerList') });
          return within(el);
        });
        await user.click(
          picker.getByRole('checkbox', { name: text('resources.select', { name: BEACH.name }) }),
        );
        return user.click(picker.getByRole('button', { name: text('taskForm.pickConfirm') }));
      }
      case 'TRIM': {
        // The person plays to 1 s and marks the start there, then types the end.
        const player = page().getByLabelText(text('resources.player', { name: BEACH.name }));
        Object.defineProperty(player, 'currentTime', { value: 1, configurable: true });
        await user.click(page().getByRole('button', { name: text('clipEditor.startHere') }));
        return replace(text('clipEditor.end'), '2.5');
      }
      case 'TITLE':
        await user.click(
          page().getByRole('button', { name: text('taskForm.addTitle', { max: 5 }) }),
        );
        await user.click(fieldOf(text('taskForm.titleText', { n: 1 })));
        return user.paste(TITLE);
      case 'NAME':
        await user.click(fieldOf(text('taskForm.name')));
        return user.paste(NAME);
      case 'TIMER': {
        const before = estimates.length;
        await tick(ESTIMATE_DEBOUNCE_MS - 1);
        expect(estimates.length, 'an estimate asked before the debounce ended').toBe(before);
        return tick(1);
      }
      case 'done estimate': {
        const call = live().at(-1)!;
        call.settled = true;
        call.resolve(ESTIMATE);
        return tick(0);
      }
      case 'error estimate': {
        const call = live().at(-1)!;
        call.settled = true;
        call.reject(replyError(ESTIMATE_FAILED, 'transport'));
        return tick(0);
      }
      case 'RETRY_ESTIMATE':
        return user.click(panel().getByRole('button', { name: text('taskForm.estimateRetry') }));
      case 'done submit':
        adds[0].resolve({ id: 7 });
        return tick(0);
      case 'error submit':
        adds[0].reject(replyError(ADD_REFUSED));
        return tick(0);
      default:
        throw new Error(`a person cannot cause ${label(e)}`);
    }
  };

  const kept = (line: string) => expect(page().getByTestId('clip-kept').textContent).toBe(line);
  const asked = (trim: { start: number; end: number }, titles: number) => {
    expect(panel().getByText(text('taskForm.estimating'))).toBeTruthy();
    expect(live().length).toBe(1);
    const body = live()[0].body as ClipTaskBody;
    expect(body).toMatchObject({ kind: 'clip', resource_id: 1, trim });
    expect(body.titles ?? []).toHaveLength(titles);
  };
  const waiting = () => {
    expect(panel().getByText(text('taskForm.estimating'))).toBeTruthy();
    expect(live()).toEqual([]);
  };
  const shown = () => {
    expect(live()).toEqual([]);
    expect(panel().getByTestId(`estimate-${text('taskForm.outputs')}`).textContent).toBe('1');
    expect(panel().getByTestId(`estimate-${text('taskForm.cost')}`).textContent).toBe('1.50');
    // A clip is one video: no combinations.
    expect(panel().queryByText(text('taskForm.combinations'))).toBeNull();
  };
  const whole = () => {
    page().getByLabelText(text('resources.player', { name: BEACH.name }));
    expect(fieldOf(text('clipEditor.start')).value).toBe('0');
    expect(fieldOf(text('clipEditor.end')).value).toBe('3');
    kept(text('clipEditor.keptOf', { kept: 3, length: 3 }));
  };
  const trimmed = () => {
    expect(fieldOf(text('clipEditor.start')).value).toBe('1');
    expect(fieldOf(text('clipEditor.end')).value).toBe('2.5');
    kept(text('clipEditor.keptOf', { kept: 1.5, length: 3 }));
    page().getByRole('img', {
      name: text('clipEditor.timeline', { start: 1, end: 2.5, length: 3 }),
    });
  };

  const SEES: Record<string, () => void | Promise<void>> = {
    empty: () => {
      expect(panel().getByText(text('taskForm.estimateBlank'))).toBeTruthy();
      expect(page().queryByText(text('clipEditor.videoMissing'))).toBeNull();
      expect(page().queryByLabelText(/^Player/)).toBeNull();
    },
    'empty, refused': () => {
      page().getByText(text('clipEditor.videoMissing'));
      page().getByText(enUS['validation.taskName']);
      expect(adds).toEqual([]);
      // The submit does not seem to do nothing: the first invalid field (the name) has the focus.
      expect(document.activeElement).toBe(fieldOf(text('taskForm.name')));
    },
    'waiting whole': () => {
      whole();
      waiting();
    },
    'loading whole': () => asked({ start: 0, end: 3 }, 0),
    'shown whole': () => {
      whole();
      shown();
    },
    'failed whole': () => {
      whole();
      expect(panel().getByText(ESTIMATE_FAILED)).toBeTruthy();
      expect(live()).toEqual([]);
    },
    'waiting trimmed': () => {
      trimmed();
      waiting();
    },
    'loading trimmed': () => asked({ start: 1, end: 2.5 }, 0),
    'shown trimmed': () => {
      trimmed();
      shown();
    },
    'waiting titled': () => {
      expect(fieldOf(text('taskForm.titleText', { n: 1 })).value).toBe(TITLE);
      waiting();
    },
    'loading titled': () => asked({ start: 1, end: 2.5 }, 1),
    'shown titled': shown,
    named: () => {
      shown();
      expect(fieldOf(text('taskForm.name')).value).toBe(NAME);
    },
    submitting: () => {
      expect(
        page()
          .getByRole('button', { name: text('clipEditor.submit') })
          .hasAttribute('disabled'),
      ).toBe(true);
      expect(adds).toHaveLength(1);
      expect(adds[0].body).toMatchObject({
        kind: 'clip',
        name: NAME,
        resource_id: 1,
        trim: { start: 1, end: 2.5 },
        titles: [{ text: TITLE, size: 48, color: '#ffffff', position: 'top' }],
      });
    },
    'add refused': () => {
      expect(page().getByRole('alert').textContent).toContain(ADD_REFUSED);
      expect(told).toEqual([]);
      trimmed();
    },
    'clip list': () => {
      screen.getByRole('heading', { name: 'clip list' });
      expect(told).toEqual([['clip', 7]]);
      // The editor starts afresh for the next clip.
      expect(area().clip.getSnapshot().context.draft.video).toBeNull();
    },
  };

  const actual = () => {
    const s = area().clip.getSnapshot();
    const d = s.context.draft;
    if (s.context.completed) return 'clip list';
    if (s.hasTag('submitting')) return 'submitting';
    if (s.context.error) return 'add refused';
    if (!d.video) return s.context.submitted ? 'empty, refused' : 'empty';
    const which = d.titles.length ? 'titled' : d.start === '1' ? 'trimmed' : 'whole';
    const e = (s.value as { open: { estimate: string } }).open.estimate;
    if (e === 'shown' && d.name) return 'named';
    return `${e} ${which}`;
  };
  return {
    exec,
    sees: SEES,
    actual,
    dispose: () => actors.dispose(),
    estimates,
    adds,
    tick,
    pick: () => exec({ type: 'EDIT', by: 'PICK' }),
  };
}

viewPathHooks();

describe('the clip editor', () => {
  uiPaths({
    oracle: { initial: 'empty', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(clipEditorMachine, {
      events: (s) => events(s) as never[],
      serializeState: (s, e) =>
        JSON.stringify([
          s.value,
          s.context.draft.video?.id ?? null,
          s.context.draft.start,
          s.context.draft.titles.length,
          s.context.draft.name,
          s.context.submitted,
          s.context.error,
          s.context.completed,
          e ? label(e as PathEvent) : null,
        ]),
    }) as never,
    run: async (_, walk) => {
      const world = setup();
      await walk({ exec: world.exec as never, sees: world.sees, actual: world.actual });
      world.dispose();
    },
    timeout: 30_000,
  });

  it('Cancel shuts the picker and picks nothing; it opens again with nothing ticked', async () => {
    const world = setup();
    const user = person();
    const page = within(screen.getByRole('region', { name: text('route.mixedshear') }));
    const openPicker = async () => {
      await user.click(page.getByRole('button', { name: text('clipEditor.pickVideo') }));
      return vi.waitFor(() => {
        const el = screen.queryAllByRole('dialog').filter(isOpen)[0];
        expect(el, 'the picker').toBeDefined();
        within(el).getByRole('list', { name: text('taskForm.pickerList') });
        return within(el);
      });
    };
    const beach = { name: text('resources.select', { name: BEACH.name }) };
    let picker = await openPicker();
    await user.click(picker.getByRole('checkbox', beach));
    await user.click(picker.getByRole('button', { name: text('form.cancel') }));
    await vi.waitFor(() => expect(screen.queryAllByRole('dialog').filter(isOpen)).toEqual([]));
    expect(world.actual()).toBe('empty');
    expect(page.queryByLabelText(/^Player/)).toBeNull();
    picker = await openPicker();
    expect((picker.getByRole('checkbox', beach) as HTMLInputElement).checked).toBe(false);
    world.dispose();
  }, 60_000);

  it('shows the video in the output’s shape, cropped or whole over a blur, and sends the choice', async () => {
    const world = setup();
    const user = person();
    const page = within(screen.getByRole('region', { name: text('route.mixedshear') }));
    await world.pick();
    const preview = (fit: 'crop' | 'blur') =>
      page.getByRole('group', {
        name: text('clipEditor.preview', { ratio: '9:16', fit: text(`taskForm.fit.${fit}`) }),
      });
    const player = () => page.getByLabelText(text('resources.player', { name: BEACH.name }));
    // The default: the 16:9 video fills the 9:16 frame, cropped, as the render will.
    expect(getComputedStyle(preview('crop')).aspectRatio.replace(/\s/g, '')).toBe('720/1280');
    expect(getComputedStyle(player()).objectFit).toBe('cover');
    expect(page.queryByTestId('clip-preview-blur')).toBeNull();
    await world.tick(ESTIMATE_DEBOUNCE_MS);
    expect(world.estimates.at(-1)!.body).toMatchObject({ fit: 'crop' });

    await user.selectOptions(
      page.getByRole('combobox', { name: text('taskForm.fit') }),
      text('taskForm.fit.blur'),
    );
    expect(within(preview('blur')).getByLabelText(text('resources.player', { name: BEACH.name })));
    expect(getComputedStyle(player()).objectFit).toBe('contain');
    const blurred = page.getByTestId('clip-preview-blur') as HTMLImageElement;
    expect(blurred.getAttribute('src')).toBe(BEACH.cover);
    expect(getComputedStyle(blurred).filter).toContain('blur(');
    await world.tick(ESTIMATE_DEBOUNCE_MS);
    expect(world.estimates.at(-1)!.body).toMatchObject({ kind: 'clip', fit: 'blur' });

    await user.click(
      page.getByRole('textbox', { name: new RegExp(`^${text('taskForm.name')}\\s*\\*?$`) }),
    );
    await user.paste(NAME);
    await user.click(page.getByRole('button', { name: text('clipEditor.submit') }));
    expect(world.adds).toHaveLength(1);
    expect(world.adds[0]!.body).toMatchObject({ kind: 'clip', name: NAME, fit: 'blur' });
    world.dispose();
  }, 60_000);

  it('Cancel with a name typed asks first; Discard drops the draft and goes back to the clip list', async () => {
    const world = setup();
    const user = person();
    const page = within(screen.getByRole('region', { name: text('route.mixedshear') }));
    const name = page.getByRole('textbox', {
      name: new RegExp(`^${text('taskForm.name')}`),
    }) as HTMLInputElement;
    await user.click(name);
    await user.paste(NAME);
    await user.click(page.getByRole('button', { name: text('form.cancel') }));
    const discard = await vi.waitFor(() => {
      const el = screen.queryAllByRole('alertdialog').filter(isOpen)[0];
      expect(el, 'the discard question').toBeDefined();
      return within(el);
    });
    discard.getByText(text('form.discardText'));
    // Still on the editor, the name kept, until the person says to discard it.
    expect(name.value).toBe(NAME);
    await user.click(discard.getByRole('button', { name: text('form.discard') }));
    await vi.waitFor(() => screen.getByRole('heading', { name: 'clip list' }));
    expect(world.actual()).toBe('empty');
    world.dispose();
  }, 60_000);
});
