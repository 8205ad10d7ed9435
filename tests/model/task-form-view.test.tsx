/**
 * The mixed-cut create form (src/views/creation/task-form.tsx over the video task forms area),
 * driven as a merchant would, against a hand-written oracle: the task-form machine's
 * shortest paths only propose event sequences; each step is executed on the rendered drawer (the
 * "New mixed-cut task" button, the picker's posters, typing, Create task, Cancel), the clock
 * (the estimate's debounce) or a fake endpoint settling, and what the person sees after it comes
 * from TRANSITIONS / `sees` below: the live estimate (combinations, outputs, price, balance, the
 * too-many and short-balance warnings, a refusal), the contract's validation messages, the
 * submission and the server's refusal of it. A change while the estimate waits restarts the
 * debounce; a change while it is asked aborts the call.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type {
  MixedTaskBody,
  VideoTaskBody,
  VideoTaskEstimate,
} from '../../src/api/contract/video-tasks';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import {
  mixedTaskFormMachine,
  videoTaskFormsArea,
  type VideoTaskFormsEndpoints,
} from '../../src/app/actors/video-task-forms';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { ESTIMATE_DEBOUNCE_MS } from '../../src/machines/task-form';
import {
  MixedTaskFormDrawer,
  MixedTaskFormSlot,
  NewMixedTaskButton,
} from '../../src/views/creation/task-form';
import { replyError } from './fixtures';
import { clipResource, shopAuth } from './video-task-fixtures';
import { person, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const BEACH = clipResource(1, 'Beach', 3);
const PARK = clipResource(2, 'Park', 2);

const ESTIMATE_FAILED = 'Clip “Beach” is not a video of yours';
const ADD_REFUSED = 'Your balance is short of 4.50';
const NAME = 'Spring sale';

/** The server's estimate: two combinations, 1.50 each; balance 10.00 (or 2.00: short). */
function estimateOf(count: number, short: boolean): VideoTaskEstimate {
  return {
    combinations: 2,
    outputs: count,
    unit_cost: '1.50',
    cost: (1.5 * count).toFixed(2),
    balance: short ? '2.00' : '10.00',
    duration_min: 5,
    duration_max: 5,
  };
}

// ---------------------------------------------------------------------------------------------
// The oracle, from docs/domain.md §9. The form starts with 3 videos and one empty shot
// group; the person picks Beach and Park into it (2 combinations), may lower the count to 2,
// names the task and creates it. "waiting N" / "loading N": the estimate of count N is due / asked.

const TRANSITIONS: Record<string, string> = {
  'closed OPEN': 'blank',
  'blank CLOSE': 'closed',
  // Nothing to price; the rules' messages under the name and the empty group.
  'blank SUBMIT': 'blank, refused',
  'blank PICK': 'waiting 3',
  'waiting 3 TIMER': 'loading 3',
  // 300 ms into the wait: the wait starts again from the change.
  'waiting 3 COUNT2': 'waiting 2',
  'loading 3 done estimate': 'too many',
  'loading 3 error estimate': 'estimate refused',
  // The call under way is aborted.
  'loading 3 COUNT2': 'waiting 2',
  'estimate refused RETRY_ESTIMATE': 'loading 3',
  'too many COUNT2': 'waiting 2',
  'too many SUBMIT': 'too many, name refused',
  'waiting 2 TIMER': 'loading 2',
  'loading 2 done estimate': 'shown 2',
  'loading 2 done estimate (short)': 'short 2',
  // The name does not change the price: no new estimate.
  'shown 2 NAME': 'shown 2, named',
  'shown 2, named SUBMIT': 'submitting',
  'submitting done submit': 'closed, added',
  'submitting error submit': 'add refused',
};

type PathEvent = {
  type: string;
  by?: string;
  short?: boolean;
  patch?: Record<string, unknown>;
  output?: unknown;
  error?: unknown;
};

const AFTER = 'xstate.after.400.mixedTaskForm.open.estimate.waiting';

const label = (e: PathEvent) => {
  if (e.by) return e.by;
  if (e.type === AFTER) return 'TIMER';
  if (e.type === 'xstate.done.actor.estimate') return `done estimate${e.short ? ' (short)' : ''}`;
  return e.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');
};

const PICK_PATCH = { groups: [{ key: 1, shots: [BEACH, PARK], duration: '' }] };

/** What a person can do in a state (few ways in, so the paths stay few). */
function events(
  s: ReturnType<ReturnType<typeof createActor<typeof mixedTaskFormMachine>>['getSnapshot']>,
) {
  const d = s.context.draft;
  const picked = d.groups[0].shots.length > 0;
  const list: PathEvent[] = [];
  if (s.matches('closed')) {
    if (s.context.completed === 0 && !picked) list.push({ type: 'OPEN' });
    return list;
  }
  if (!picked) {
    if (!s.context.submitted) {
      list.push({ type: 'CLOSE', by: 'CLOSE' }, { type: 'SUBMIT' });
      list.push({ type: 'EDIT', patch: PICK_PATCH, by: 'PICK' });
    }
    return list;
  }
  // Refused by the rules once: the path ends there.
  if (s.context.submitted && !d.name) return list;
  const count = Number(d.count);
  const shown = s.matches({ open: { estimate: 'shown' } });
  if (count === 3) list.push({ type: 'EDIT', patch: { count: '2' }, by: 'COUNT2' });
  list.push({ type: AFTER });
  list.push({ type: 'xstate.done.actor.estimate', output: estimateOf(count, false) });
  if (count === 2) {
    list.push({ type: 'xstate.done.actor.estimate', output: estimateOf(2, true), short: true });
    if (!d.name && shown && s.context.estimate?.balance === '10.00') {
      list.push({ type: 'EDIT', patch: { name: NAME }, by: 'NAME' });
    }
  }
  if (count === 3) {
    list.push({
      type: 'xstate.error.actor.estimate',
      error: replyError(ESTIMATE_FAILED, 'transport'),
    });
    list.push({ type: 'RETRY_ESTIMATE' });
  }
  // Submit once: unnamed with too many outputs (the rules refuse), named with 2 (sent).
  if (shown && !s.context.submitted && (count === 3 ? !d.name : !!d.name)) {
    list.push({ type: 'SUBMIT' });
  }
  list.push({ type: 'xstate.done.actor.submit', output: { id: 42 } });
  list.push({ type: 'xstate.error.actor.submit', error: replyError(ADD_REFUSED) });
  return list.filter((e) => s.can(e as never));
}

// ---------------------------------------------------------------------------------------------

interface EstimateCall {
  body: VideoTaskBody;
  signal: AbortSignal | undefined;
  settled: boolean;
  resolve: (v: VideoTaskEstimate) => void;
  reject: (e: unknown) => void;
}

/** `asked`: the page asks for the form in its address (the slot), else its button opens it. */
function setup(asked?: { onClose: () => void }) {
  const estimates: EstimateCall[] = [];
  const adds: {
    body: VideoTaskBody;
    resolve: (v: { id: number }) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const told: [string, number][] = [];
  const resourceQueries: Record<string, unknown>[] = [];
  const endpoints: VideoTaskFormsEndpoints = {
    estimateVideoTask: (body, options) =>
      new Promise((resolve, reject) => {
        estimates.push({ body, signal: options?.signal, settled: false, resolve, reject });
      }),
    addVideoTask: (body) => new Promise((resolve, reject) => adds.push({ body, resolve, reject })),
    getResources: async (query) => {
      resourceQueries.push(query);
      return { list: [BEACH, PARK], total: 2 };
    },
    getGroups: async () => ({
      list: [
        { id: 3, name: 'Beach', count: 1 },
        { id: 7, name: 'Works', count: 1, works: true },
      ],
      ungrouped: 0,
    }),
    getReadyVoices: async () => ({ list: [], total: 0 }),
    previewVideoTask: () => new Promise(() => {}),
    getVideoPreview: () => new Promise(() => {}),
  };
  const auth = shopAuth();
  const actors = appActors({ auth });
  provideArea(actors, videoTaskFormsArea, endpoints);
  const area = () => areasOf(actors).get(videoTaskFormsArea);
  area().onTaskAdded((kind, id) => told.push([kind, id]));
  renderAt(
    actors,
    asked ? (
      <MixedTaskFormSlot open onClose={asked.onClose} />
    ) : (
      <>
        <NewMixedTaskButton />
        <MixedTaskFormDrawer />
      </>
    ),
    '/creation/mixed-task',
  );
  const user = person();

  const dialogs = () => screen.queryAllByRole('dialog').filter(isOpen);
  const drawer = () => {
    const d = dialogs().find((el) =>
      within(el).queryByRole('heading', { name: text('taskForm.mixedTitle') }),
    );
    return d ? within(d) : null;
  };
  const form = () => {
    const d = drawer();
    expect(d, 'the drawer').not.toBeNull();
    return d!;
  };
  const fieldOf = (name: string) =>
    form().getByRole('textbox', {
      name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`),
    }) as HTMLInputElement;
  const panel = () => within(form().getByRole('region', { name: text('taskForm.estimate') }));
  const tick = async (ms: number) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  const live = () => estimates.filter((c) => !c.settled && !c.signal?.aborted);
  const last = () => estimates[estimates.length - 1];
  const settleEstimate = async (outcome: 'done' | 'error', value: unknown) => {
    const call = live().at(-1);
    expect(call, 'an estimate under way').toBeDefined();
    call!.settled = true;
    if (outcome === 'done') call!.resolve(value as VideoTaskEstimate);
    else call!.reject(value);
    await tick(0);
  };
  const replace = async (name: string, value: string) => {
    await user.tripleClick(fieldOf(name));
    await user.keyboard(value);
  };

  const exec = async (e: PathEvent) => {
    switch (label(e)) {
      case 'OPEN':
        return user.click(screen.getByRole('button', { name: text('taskForm.new') }));
      case 'CLOSE':
        return user.click(form().getByRole('button', { name: text('form.cancel') }));
      case 'SUBMIT':
        return user.click(form().getByRole('button', { name: text('taskForm.submit') }));
      case 'PICK': {
        await user.click(
          form().getByRole('button', { name: text('taskForm.pickShots', { n: 1 }) }),
        );
        const picker = await vi.waitFor(() => {
          const el = dialogs().find((d) => d.getAttribute('data-testid') === 'resource-picker');
          expect(el, 'the picker').toBeDefined();
          within(el!).getByRole('list', { name: text('taskForm.pickerList') });
          return within(el!);
        });
        // The picker is a dialog over the drawer: ticked and confirmed from the keyboard.
        const press = async (el: HTMLElement, key: string) => {
          act(() => el.focus());
          await user.keyboard(key);
        };
        for (const clip of [BEACH, PARK]) {
          await press(
            picker.getByRole('checkbox', { name: text('resources.select', { name: clip.name }) }),
            ' ',
          );
        }
        expect(picker.getByText(text('taskForm.pickedCount', { count: 2 }))).toBeTruthy();
        return press(picker.getByRole('button', { name: text('taskForm.pickConfirm') }), '{Enter}');
      }
      case 'COUNT2':
        // Inside the wait: the wait starts again from this change.
        if (live().length === 0) await tick(300);
        return replace(text('taskForm.count'), '2');
      case 'NAME':
        await user.click(fieldOf(text('taskForm.name')));
        return user.paste(NAME);
      case 'TIMER': {
        // The debounce counts from the last change: nothing is asked a moment before it ends.
        const before = estimates.length;
        await tick(ESTIMATE_DEBOUNCE_MS - 1);
        expect(estimates.length, 'an estimate asked before the debounce ended').toBe(before);
        return tick(1);
      }
      case 'done estimate':
      case 'done estimate (short)':
        return settleEstimate('done', e.output);
      case 'error estimate':
        return settleEstimate('error', replyError(ESTIMATE_FAILED, 'transport'));
      case 'RETRY_ESTIMATE':
        return user.click(panel().getByRole('button', { name: text('taskForm.estimateRetry') }));
      case 'done submit':
        adds[adds.length - 1].resolve({ id: 42 });
        return tick(0);
      case 'error submit':
        adds[adds.length - 1].reject(replyError(ADD_REFUSED));
        return tick(0);
      default:
        throw new Error(`a person cannot cause ${label(e)}`);
    }
  };

  const figure = (id: MessageId) => panel().getByTestId(`estimate-${text(id)}`).textContent;
  const noWarnings = () => {
    expect(panel().queryByText(/only \d+ different videos/)).toBeNull();
    expect(panel().queryByText(/is short of the price/)).toBeNull();
  };
  const estimating = (count: number, asked: boolean) => {
    expect(panel().getByText(text('taskForm.estimating'))).toBeTruthy();
    if (asked) {
      // One call, of the draft as it is now (a stand-in name: the name does not price it).
      expect(live().length).toBe(1);
      const body = last().body as MixedTaskBody;
      expect(body).toMatchObject({
        kind: 'mixed',
        name: 'estimate',
        count,
        mode: 'random',
        shot_groups: [{ resource_ids: [1, 2] }],
      });
    } else {
      // Nothing under way: an earlier call was aborted; none for this count yet.
      expect(live()).toEqual([]);
      expect(estimates.every((c) => (c.body as MixedTaskBody).count !== count)).toBe(true);
    }
  };
  const shows = (count: number, short: boolean) => {
    expect(live()).toEqual([]);
    expect(figure('taskForm.combinations')).toBe('2');
    expect(figure('taskForm.outputs')).toBe(String(count));
    expect(figure('taskForm.cost')).toBe((1.5 * count).toFixed(2));
    expect(figure('taskForm.balance')).toBe(short ? '2.00' : '10.00');
    expect(figure('taskForm.length')).toBe('5 s');
  };
  const nameError = () => form().queryByText(enUS['validation.taskName']);
  const groupError = () => form().queryByText(enUS['validation.shotGroup']);

  const SEES: Record<string, () => void | Promise<void>> = {
    closed: () => {
      expect(drawer()).toBeNull();
      expect(adds).toEqual([]);
    },
    blank: () => {
      expect(panel().getByText(text('taskForm.estimateBlank'))).toBeTruthy();
      expect(estimates).toEqual([]);
      expect(nameError()).toBeNull();
      expect(fieldOf(text('taskForm.count')).value).toBe('3');
    },
    'blank, refused': () => {
      expect(nameError()).not.toBeNull();
      expect(groupError()).not.toBeNull();
      expect(adds).toEqual([]);
      expect(panel().getByText(text('taskForm.estimateBlank'))).toBeTruthy();
      // The refused submit takes the person to the first invalid field.
      expect(document.activeElement).toBe(fieldOf(text('taskForm.name')));
    },
    'waiting 3': () => {
      const shots = form().getByRole('list', { name: text('taskForm.groupShots', { n: 1 }) });
      expect(
        within(shots)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual([expect.stringContaining(BEACH.name), expect.stringContaining(PARK.name)]);
      estimating(3, false);
    },
    'waiting 2': () => {
      expect(fieldOf(text('taskForm.count')).value).toBe('2');
      estimating(2, false);
    },
    'loading 3': () => estimating(3, true),
    'loading 2': () => estimating(2, true),
    'too many': () => {
      shows(3, false);
      expect(
        panel().getByText(text('taskForm.tooMany', { combinations: 2, outputs: 3 })),
      ).toBeTruthy();
      expect(panel().queryByText(/is short of the price/)).toBeNull();
      expect(nameError()).toBeNull();
    },
    'too many, name refused': () => {
      shows(3, false);
      expect(nameError()).not.toBeNull();
      expect(groupError()).toBeNull();
      expect(adds).toEqual([]);
      expect(document.activeElement).toBe(fieldOf(text('taskForm.name')));
    },
    'estimate refused': () => {
      expect(panel().getByText(ESTIMATE_FAILED)).toBeTruthy();
      expect(live()).toEqual([]);
    },
    'shown 2': () => {
      shows(2, false);
      noWarnings();
    },
    'short 2': () => {
      shows(2, true);
      expect(
        panel().getByText(text('taskForm.short', { balance: '2.00', cost: '3.00' })),
      ).toBeTruthy();
    },
    'shown 2, named': () => {
      shows(2, false);
      noWarnings();
      expect(fieldOf(text('taskForm.name')).value).toBe(NAME);
    },
    submitting: () => {
      const button = form().getByRole('button', { name: text('taskForm.submit') });
      expect(button.hasAttribute('disabled')).toBe(true);
      expect(adds.length).toBe(1);
      // The mixed-cut form offers the clip editor's choice for other-shaped clips too.
      const fit = form().getByRole('combobox', { name: text('taskForm.fit') });
      expect((fit as HTMLSelectElement).value).toBe('crop');
      expect(adds[0].body).toMatchObject({
        kind: 'mixed',
        name: NAME,
        count: 2,
        ratio: '9:16',
        resolution: '720p',
        fit: 'crop',
        fps: 30,
        bitrate: 1200,
        music_volume: 5,
        keep_original_sound: true,
        shot_groups: [{ resource_ids: [1, 2] }],
      });
    },
    'add refused': () => {
      expect(form().getByRole('alert').textContent).toContain(ADD_REFUSED);
      expect(
        form()
          .getByRole('button', { name: text('taskForm.submit') })
          .hasAttribute('disabled'),
      ).toBe(false);
      expect(told).toEqual([]);
    },
    'closed, added': async () => {
      expect(drawer()).toBeNull();
      expect(told).toEqual([['mixed', 42]]);
      // The notice (the toaster arrives with the later half of the theme).
      await vi.waitFor(() => screen.getByText(text('taskForm.added')), { timeout: 5000 });
    },
  };

  const actual = () => {
    const s = area().mixed.getSnapshot();
    if (s.matches('closed')) return s.context.completed ? 'closed, added' : 'closed';
    const count = Number(s.context.draft.count);
    if (s.hasTag('submitting')) return 'submitting';
    if (s.context.error) return 'add refused';
    const e = s.value as { open: { estimate: string } };
    switch (e.open.estimate) {
      case 'blank':
        return s.context.submitted ? 'blank, refused' : 'blank';
      case 'waiting':
        return `waiting ${count}`;
      case 'loading':
        return `loading ${count}`;
      case 'failed':
        return 'estimate refused';
      default: {
        if (count === 3) return s.context.submitted ? 'too many, name refused' : 'too many';
        if (s.context.estimate?.balance === '2.00') return 'short 2';
        return s.context.draft.name ? 'shown 2, named' : 'shown 2';
      }
    }
  };

  return {
    exec,
    sees: SEES,
    actual,
    dispose: () => actors.dispose(),
    panel,
    live,
    settleEstimate,
    drawer,
    fieldOf,
    user,
    resourceQueries,
    dialogs,
    form,
  };
}

viewPathHooks();

describe('the mixed-cut create form', () => {
  uiPaths({
    oracle: { initial: 'closed', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(mixedTaskFormMachine, {
      events: (s) => events(s) as never[],
      serializeState: (s, e) =>
        JSON.stringify([
          s.value,
          s.context.draft.count,
          s.context.draft.groups[0].shots.length,
          s.context.draft.name,
          s.context.submitted,
          s.context.estimate?.balance ?? null,
          s.context.error,
          s.context.completed,
          e ? label(e as PathEvent) : null,
        ]),
    }) as never,
    run: async (_, walk) => {
      const world = setup();
      await walk({
        exec: world.exec as never,
        sees: world.sees,
        actual: world.actual,
      });
      world.dispose();
    },
    timeout: 30_000,
  });
});

test('a page that asks for the form in its address: it opens, and the request is dropped', async () => {
  const onClose = vi.fn();
  const world = setup({ onClose });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
  await world.sees.blank();
  expect(onClose).toHaveBeenCalledTimes(1);
  world.dispose();
});

test('an estimate the server refuses (too many outputs) says why, offers no Retry; an edit asks anew', async () => {
  const w = setup();
  for (const by of ['OPEN', 'PICK', 'TIMER']) await w.exec({ type: by, by });
  const why = 'These shot groups make only 2 different videos: ask for at most 2';
  await w.settleEstimate('error', replyError(why));
  expect(w.panel().getByText(why)).toBeTruthy();
  // Asking again would be refused again: no Retry that does nothing, a hint instead.
  expect(w.panel().queryByRole('button', { name: text('taskForm.estimateRetry') })).toBeNull();
  expect(w.panel().getByText(text('taskForm.estimateRefusedHint'))).toBeTruthy();
  await w.exec({ type: 'COUNT2', by: 'COUNT2' });
  await w.exec({ type: 'TIMER', by: 'TIMER' });
  expect(w.live()).toHaveLength(1);
  w.dispose();
}, 60_000);

test('Cancel with something entered asks first: Keep editing keeps it, Discard drops it', async () => {
  const w = setup();
  await w.exec({ type: 'OPEN', by: 'OPEN' });
  const name = () => w.fieldOf(text('taskForm.name'));
  await w.user.click(name());
  await w.user.paste(NAME);
  const discard = () =>
    screen.queryAllByRole('alertdialog', { name: text('form.discardTitle') }).filter(isOpen)[0] ??
    null;
  const cancel = () => w.user.click(w.drawer()!.getByRole('button', { name: text('form.cancel') }));
  await cancel();
  await vi.waitFor(() => expect(discard()).not.toBeNull());
  await w.user.click(within(discard()!).getByRole('button', { name: text('form.keepEditing') }));
  await vi.waitFor(() => expect(discard()).toBeNull());
  expect(name().value).toBe(NAME);
  await cancel();
  await vi.waitFor(() => expect(discard()).not.toBeNull());
  await w.user.click(within(discard()!).getByRole('button', { name: text('form.discard') }));
  await vi.waitFor(() => expect(w.drawer()).toBeNull());
  // Opened again: a fresh form.
  await w.exec({ type: 'OPEN', by: 'OPEN' });
  await vi.waitFor(() => expect(w.drawer()).not.toBeNull());
  expect(name().value).toBe('');
  w.dispose();
}, 60_000);

test('The picker filters the library by group: the works group lists its finished outputs', async () => {
  const w = setup();
  await w.exec({ type: 'OPEN', by: 'OPEN' });
  await w.user.click(w.form().getByRole('button', { name: text('taskForm.pickShots', { n: 1 }) }));
  const picker = await vi.waitFor(() => {
    const el = w.dialogs().find((d) => d.getAttribute('data-testid') === 'resource-picker');
    expect(el, 'the picker').toBeDefined();
    within(el!).getByRole('list', { name: text('taskForm.pickerList') });
    return within(el!);
  });
  const group = await vi.waitFor(() =>
    picker.getByRole('combobox', { name: text('resources.group') }),
  );
  await vi.waitFor(() => expect(within(group).getByRole('option', { name: 'Works' })).toBeTruthy());
  await w.user.selectOptions(group, 'Works');
  // The shots' place takes videos, intros and outros: all of them, in the works group.
  await vi.waitFor(() =>
    expect(w.resourceQueries.at(-1)).toMatchObject({
      group_id: 7,
      types: ['video', 'intro', 'outro'],
    }),
  );
  await w.user.selectOptions(group, text('resources.ungrouped'));
  await vi.waitFor(() => expect(w.resourceQueries.at(-1)).toMatchObject({ group_id: 0 }));
  w.dispose();
}, 60_000);
