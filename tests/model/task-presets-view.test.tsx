/**
 * The mixed-cut form's presets and duplicates (src/machines/task-presets.ts through
 * src/views/creation/task-presets-bar.tsx in the form's drawer, and the task list's Duplicate),
 * driven as a merchant would on /creation/mixed-task against a hand-written oracle: the machine's
 * shortest paths only propose event sequences; each step is a click (New mixed-cut, Save as
 * preset, Save preset, Cancel, Use preset, Delete preset, Delete, a task's Duplicate), typing a
 * name, or a fake endpoint settling, and what the person sees after it comes from TRANSITIONS /
 * `sees` below. What fills the form (a preset applied, a task duplicated) is an effect of those
 * rows only.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import type { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type {
  VideoTaskPresetPage,
  VideoTaskPresetSaveBody,
  VideoTaskSource,
} from '../../src/api/contract/video-task-presets';
import type { VideoTask } from '../../src/api/contract/video-tasks';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { taskPresetsArea, type TaskPresetsEndpoints } from '../../src/app/actors/task-presets';
import {
  videoTaskFormsArea,
  type VideoTaskFormsEndpoints,
} from '../../src/app/actors/video-task-forms';
import { videoTasksArea } from '../../src/app/actors/video-tasks';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { taskPresetsMachine } from '../../src/machines/task-presets';
import MixedTaskPage from '../../src/views/creation/mixed-task-page';
import { replyError } from './fixtures';
import { clipResource, shopAuth } from './video-task-fixtures';
import { fakeEndpoints, person, settle, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const BEACH = clipResource(1, 'Beach', 3);
const PARK = clipResource(2, 'Park', 2);
const LIST: VideoTaskPresetPage = {
  list: [
    { id: 3, name: 'Summer', kind: 'mixed', created_at: 1, updated_at: 1 },
    { id: 4, name: 'Winter', kind: 'mixed', created_at: 1, updated_at: 1 },
  ],
  total: 2,
};
const body = (name: string, count: number) => ({
  kind: 'mixed',
  name,
  mode: 'random',
  count,
  ratio: '9:16',
  resolution: '720p',
  fps: 25,
  bitrate: 800,
  music_volume: 5,
  keep_original_sound: true,
  shot_groups: [{ resource_ids: [1, 2] }],
});
const SUMMER: VideoTaskSource = {
  kind: 'mixed',
  body: body('Summer look', 2),
  resources: [BEACH, PARK],
};
const SPRING: VideoTaskSource = {
  kind: 'mixed',
  body: body('Spring sale', 1),
  resources: [BEACH, PARK],
};
const SAVE_REFUSED = 'At most 50 presets: delete one first';
const APPLY_REFUSED = 'Preset not found';
const DELETE_REFUSED = 'Preset not found (deleted elsewhere)';
const DUPLICATE_REFUSED = 'Task not found';
const TASK: VideoTask = {
  id: 42,
  kind: 'mixed',
  name: 'Spring sale',
  status: 'done',
  total: 1,
  done: 1,
  failed: 0,
  cancelled: 0,
  progress: 100,
  cost: '0.10',
  settled: '0.10',
  refunded: '0.00',
  ratio: '9:16',
  resolution: '720p',
  cover: null,
  stalled: false,
  created_at: 1,
  finished_at: 2,
  download_all_url: null,
  queue_position: null,
  estimated_start: null,
};

// ---------------------------------------------------------------------------------------------
// The oracle, from docs/domain.md §9 "Presets, batches and previews". The person opens the form
// (its presets are listed; the test fills the form with two shots and the name Base), saves it as
// "Autumn", applies "Summer", deletes "Summer" (asked first), or duplicates a task of the list
// before opening the form. A refused call says why and changes nothing.

const TRANSITIONS: Record<string, string> = {
  'form closed LOAD': 'listing',
  'form closed DUPLICATE': 'duplicating',
  // The form opens with the task's body; the presets are listed.
  'duplicating done task': 'listing',
  // The form stays closed and nothing else is asked (the request's own notice says why).
  'duplicating error task': 'duplicate refused',
  'listing done list': 'listed',
  // An unread list is an empty one: nothing to apply, saving still works.
  'listing error list': 'list unread',
  'list unread SAVE_OPEN': 'naming, unread',
  'naming, unread CANCEL': 'list unread',
  'naming, unread SAVE': 'saving',
  'listed SAVE_OPEN': 'naming',
  'naming CANCEL': 'listed',
  'naming SAVE': 'saving',
  'saving done save': 'listing',
  'saving error save': 'naming, refused',
  'naming, refused CANCEL': 'listed',
  // Sent again (the refusal shown until then).
  'naming, refused SAVE': 'saving',
  'listed APPLY': 'applying',
  'applying done preset': 'listed',
  'applying error preset': 'listed, refused',
  'listed, refused DELETE': 'confirming delete',
  'listed DELETE': 'confirming delete',
  'confirming delete CANCEL': 'listed',
  'confirming delete CONFIRM': 'deleting',
  'deleting done remove': 'listing',
  'deleting error remove': 'listed, refused',
};

/** The form is filled (the draft's name) or opened by these rows only. */
const EFFECTS: Record<string, string[]> = {
  'form closed LOAD': ['form opened'],
  'applying done preset': ['filled Summer look'],
  'duplicating done task': ['form opened', 'filled Spring sale'],
};

type PathEvent = { type: string; id?: number; name?: string; output?: unknown; error?: unknown };

const label = (e: PathEvent) =>
  e.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');

type Snapshot = ReturnType<
  ReturnType<typeof createActor<typeof taskPresetsMachine>>['getSnapshot']
>;

/** What a person can do in a state (few ways in, so the paths stay few). */
function events(s: Snapshot): PathEvent[] {
  const { presets, applied, error } = s.context;
  const fresh = presets.length === 0 && applied === 0;
  const has = presets.some((p) => p.id === 3);
  const list: PathEvent[] = [];
  if (s.matches('idle')) {
    // A refused duplicate: the path ends there (the form was never opened).
    if (fresh && error) return [];
    if (fresh) list.push({ type: 'LOAD' }, { type: 'DUPLICATE', id: 42 });
    else {
      list.push({ type: 'SAVE_OPEN' });
      // Once: each source loaded counts `applied` up (the paths stay finite).
      if (has && !error && applied === 0) list.push({ type: 'APPLY', id: 3 });
      if (has) list.push({ type: 'DELETE', id: 3 });
    }
  }
  if (s.matches('listing')) {
    list.push({ type: 'xstate.done.actor.list', output: LIST } as never);
    if (presets.length === 0) {
      list.push({ type: 'xstate.error.actor.list', error: replyError('offline') } as never);
    }
  }
  if (s.matches('naming')) list.push({ type: 'SAVE', name: 'Autumn' }, { type: 'CANCEL' });
  if (s.matches('saving')) {
    list.push(
      { type: 'xstate.done.actor.save', output: LIST.list[0] } as never,
      { type: 'xstate.error.actor.save', error: replyError(SAVE_REFUSED) } as never,
    );
  }
  if (s.matches('applying')) {
    list.push(
      { type: 'xstate.done.actor.preset', output: SUMMER } as never,
      { type: 'xstate.error.actor.preset', error: replyError(APPLY_REFUSED) } as never,
    );
  }
  if (s.matches('duplicating')) {
    list.push(
      { type: 'xstate.done.actor.task', output: SPRING } as never,
      { type: 'xstate.error.actor.task', error: replyError(DUPLICATE_REFUSED) } as never,
    );
  }
  if (s.matches('confirmingDelete')) list.push({ type: 'CONFIRM' }, { type: 'CANCEL' });
  if (s.matches('deleting')) {
    list.push(
      { type: 'xstate.done.actor.remove', output: { id: 3 } } as never,
      { type: 'xstate.error.actor.remove', error: replyError(DELETE_REFUSED) } as never,
    );
  }
  return list.filter((e) => s.can(e as never));
}

// ---------------------------------------------------------------------------------------------

function setup(options: { fill?: boolean } = {}) {
  const calls = fakeEndpoints();
  const endpoints: TaskPresetsEndpoints = {
    getVideoTaskPresets: calls.endpoint('getVideoTaskPresets'),
    saveVideoTaskPreset: calls.endpoint('saveVideoTaskPreset'),
    getVideoTaskPreset: calls.endpoint('getVideoTaskPreset'),
    deleteVideoTaskPreset: calls.endpoint('deleteVideoTaskPreset'),
    getVideoTaskSource: calls.endpoint('getVideoTaskSource'),
  };
  const formEndpoints: VideoTaskFormsEndpoints = {
    estimateVideoTask: () => new Promise(() => {}),
    addVideoTask: () => new Promise(() => {}),
    getResources: async () => ({ list: [BEACH, PARK], total: 2 }),
    getGroups: async () => ({ list: [], ungrouped: 2 }),
    getReadyVoices: async () => ({ list: [], total: 0 }),
    previewVideoTask: () => new Promise(() => {}),
    getVideoPreview: () => new Promise(() => {}),
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, videoTaskFormsArea, formEndpoints);
  provideArea(actors, taskPresetsArea, endpoints);
  provideArea(actors, videoTasksArea, {
    getVideoTasks: async () => ({ list: [TASK], total: 1 }),
    getVideoTask: () => new Promise(() => {}),
    retryVideoTask: () => new Promise(() => {}),
    cancelVideoTask: () => new Promise(() => {}),
    deleteVideoTasks: () => new Promise(() => {}),
  });
  const areas = () => areasOf(actors);
  const form = () => areas().get(videoTaskFormsArea).mixed;
  const presets = () => areas().get(taskPresetsArea).mixed;
  // What fills or opens the form, as a person sees it happen.
  const seen: string[] = [];
  let wasOpen = form().getSnapshot().matches('open');
  let name = form().getSnapshot().context.draft.name;
  const watch = form().subscribe((s) => {
    const open = s.matches('open');
    if (open && !wasOpen) seen.push('form opened');
    wasOpen = open;
    if (s.context.draft.name !== name && s.context.draft.name !== 'Base') {
      seen.push(`filled ${s.context.draft.name}`);
    }
    name = s.context.draft.name;
  });
  renderAt(actors, <MixedTaskPage />, '/creation/mixed-task');
  const user = person();

  const drawer = () => {
    const el = screen
      .queryAllByRole('dialog')
      .filter(isOpen)
      .find((d) => d.getAttribute('data-testid') === 'mixed-task-form');
    return el ? within(el) : null;
  };
  const bar = () => {
    const d = drawer();
    expect(d, 'the form').not.toBeNull();
    return within(d!.getByRole('group', { name: text('taskPresets.title') }));
  };
  const choose = async (id: number) => {
    const select = bar().getByRole('combobox', { name: text('taskPresets.choose') });
    await user.selectOptions(select, String(id));
  };

  const exec = async (e: PathEvent) => {
    switch (label(e)) {
      case 'LOAD': {
        await user.click(screen.getByRole('button', { name: text('videoTasks.newMixed') }));
        await settle();
        if (options.fill !== false) {
          // A complete form (picking is the mixed-cut form's own test), named Base.
          act(() => {
            form().send({
              type: 'EDIT',
              patch: {
                name: 'Base',
                count: '2',
                groups: [{ key: 1, shots: [BEACH, PARK], duration: '' }],
              },
            });
          });
        }
        return;
      }
      case 'DUPLICATE':
        return user.click(
          screen.getByRole('button', {
            name: text('videoTasks.duplicateOf', { name: 'Spring sale' }),
          }),
        );
      case 'SAVE_OPEN':
        return user.click(bar().getByRole('button', { name: text('taskPresets.save') }));
      case 'SAVE': {
        const group = within(bar().getByRole('group', { name: text('taskPresets.save') }));
        const field = group.getByRole('textbox', { name: new RegExp(text('taskPresets.name')) });
        await user.clear(field);
        await user.type(field, 'Autumn');
        return user.click(group.getByRole('button', { name: text('taskPresets.saveConfirm') }));
      }
      case 'CANCEL': {
        const where =
          confirmBox() ?? within(bar().getByRole('group', { name: text('taskPresets.save') }));
        return user.click(where.getByRole('button', { name: text('form.cancel') }));
      }
      case 'APPLY':
        await choose(3);
        return user.click(bar().getByRole('button', { name: text('taskPresets.apply') }));
      case 'DELETE':
        await choose(3);
        return user.click(bar().getByRole('button', { name: text('taskPresets.delete') }));
      case 'CONFIRM':
        return user.click(
          confirmBox()!.getByRole('button', { name: text('taskPresets.deleteConfirm') }),
        );
      case 'done list':
        return calls.settle('getVideoTaskPresets', 'done', LIST);
      case 'error list':
        return calls.settle('getVideoTaskPresets', 'error', replyError('offline', 'transport'));
      case 'done save':
        return calls.settle('saveVideoTaskPreset', 'done', { ...LIST.list[0], name: 'Autumn' });
      case 'error save':
        return calls.settle('saveVideoTaskPreset', 'error', replyError(SAVE_REFUSED));
      case 'done preset':
        return calls.settle('getVideoTaskPreset', 'done', { ...SUMMER, id: 3, name: 'Summer' });
      case 'error preset':
        return calls.settle('getVideoTaskPreset', 'error', replyError(APPLY_REFUSED));
      case 'done task':
        return calls.settle('getVideoTaskSource', 'done', SPRING);
      case 'error task':
        return calls.settle('getVideoTaskSource', 'error', replyError(DUPLICATE_REFUSED));
      case 'done remove':
        return calls.settle('deleteVideoTaskPreset', 'done', { id: 3 });
      case 'error remove':
        return calls.settle('deleteVideoTaskPreset', 'error', replyError(DELETE_REFUSED));
      default:
        throw new Error(`a person cannot cause ${label(e)}`);
    }
  };

  // ---- what a person sees
  const confirmBox = () => {
    const el = drawer()?.queryByRole('alertdialog', { name: text('taskPresets.deleteTitle') });
    return el ? within(el) : null;
  };
  const namingBox = () =>
    drawer()?.queryByRole('group', { name: text('taskPresets.save') }) ?? null;
  const select = () =>
    bar().getByRole('combobox', { name: text('taskPresets.choose') }) as HTMLSelectElement;
  const optionNames = () => [...select().options].map((o) => o.textContent);
  const noAlert = () => expect(bar().queryByRole('alert')).toBeNull();
  const alert = (message: string) =>
    expect(bar().getByRole('alert').textContent).toContain(message);
  const busy = () => {
    expect(select().disabled).toBe(true);
    expect(
      bar()
        .getByRole('button', { name: text('taskPresets.apply') })
        .hasAttribute('disabled'),
    ).toBe(true);
  };
  const listed = (names: string[]) => {
    expect(optionNames()).toEqual([
      text(names.length ? 'taskPresets.none' : 'taskPresets.empty'),
      ...names,
    ]);
    expect(select().disabled).toBe(names.length === 0);
    expect(namingBox()).toBeNull();
    expect(confirmBox()).toBeNull();
  };
  /** The one call under way (and none other). */
  const waiting = (name: string, input?: unknown) => {
    expect(calls.waiting()).toEqual([name]);
    if (input !== undefined) {
      const call = calls.calls.filter((c) => c.name === name).at(-1)!;
      expect((call.input as unknown[])[0]).toEqual(input);
    }
  };

  const SEES: Record<string, () => void> = {
    'form closed': () => {
      expect(drawer()).toBeNull();
      expect(calls.waiting()).toEqual([]);
    },
    'duplicate refused': () => {
      expect(drawer()).toBeNull();
      expect(calls.waiting()).toEqual([]);
      expect(calls.calls.map((c) => c.name)).toEqual(['getVideoTaskSource']);
    },
    duplicating: () => {
      expect(drawer()).toBeNull();
      waiting('getVideoTaskSource', 42);
    },
    listing: () => {
      busy();
      waiting('getVideoTaskPresets', 'mixed');
    },
    listed: () => {
      listed(['Summer', 'Winter']);
      noAlert();
      expect(calls.waiting()).toEqual([]);
    },
    'list unread': () => {
      listed([]);
      noAlert();
    },
    naming: () => {
      expect(namingBox()).not.toBeNull();
      noAlert();
      expect(calls.waiting()).toEqual([]);
    },
    saving: () => {
      expect(namingBox()).not.toBeNull();
      // The form's body as it is, under the name typed.
      waiting('saveVideoTaskPreset');
      const sent = (calls.calls.at(-1)!.input as [VideoTaskPresetSaveBody])[0];
      expect(sent).toEqual({
        name: 'Autumn',
        body: expect.objectContaining({
          kind: 'mixed',
          name: form().getSnapshot().context.draft.name,
          shot_groups: [{ resource_ids: [1, 2] }],
        }),
      });
    },
    'naming, unread': () => {
      expect(namingBox()).not.toBeNull();
      expect(optionNames()).toEqual([text('taskPresets.empty')]);
      noAlert();
    },
    'naming, refused': () => {
      expect(namingBox()).not.toBeNull();
      alert(SAVE_REFUSED);
      expect(calls.waiting()).toEqual([]);
    },
    applying: () => {
      busy();
      waiting('getVideoTaskPreset', 3);
    },
    'listed, refused': () => {
      expect(optionNames()).toEqual([text('taskPresets.none'), 'Summer', 'Winter']);
      expect(confirmBox()).toBeNull();
      alert(calls.calls.at(-1)!.name === 'deleteVideoTaskPreset' ? DELETE_REFUSED : APPLY_REFUSED);
      expect(calls.waiting()).toEqual([]);
    },
    'confirming delete': () => {
      confirmBox()!.getByText(text('taskPresets.deleteText', { name: 'Summer' }));
      expect(calls.waiting()).toEqual([]);
    },
    deleting: () => {
      expect(confirmBox()).not.toBeNull();
      waiting('deleteVideoTaskPreset', 3);
    },
  };

  const actual = () => {
    const s = presets().getSnapshot();
    const value = String(s.value);
    if (value === 'idle') {
      if (form().getSnapshot().matches('closed')) {
        return s.context.error ? 'duplicate refused' : 'form closed';
      }
      if (s.context.error) return 'listed, refused';
      return s.context.presets.length ? 'listed' : 'list unread';
    }
    if (value === 'naming') {
      if (s.context.error) return 'naming, refused';
      return s.context.presets.length ? 'naming' : 'naming, unread';
    }
    if (value === 'confirmingDelete') return 'confirming delete';
    return value;
  };
  return {
    exec,
    sees: SEES,
    actual,
    effects: { take: () => seen.splice(0), expected: EFFECTS },
    calls,
    bar,
    dispose: () => {
      watch.unsubscribe();
      areasOf(actors).reset();
      actors.dispose();
    },
  };
}

viewPathHooks();

describe('the presets of the mixed-cut form', () => {
  uiPaths({
    oracle: { initial: 'form closed', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(taskPresetsMachine, {
      events: (s) => events(s) as never[],
      serializeState: (s, e) =>
        JSON.stringify([
          s.value,
          s.context.presets.length,
          s.context.applied,
          s.context.error,
          e ? label(e as PathEvent) : null,
        ]),
    }) as never,
    run: async (_, walk) => {
      const world = setup();
      await settle();
      await walk({
        exec: world.exec as never,
        sees: world.sees,
        actual: world.actual,
        effects: world.effects,
      });
      world.dispose();
    },
    timeout: 60_000,
  });

  test('saving an incomplete form is refused before any call, with what to do', async () => {
    const world = setup({ fill: false });
    await settle();
    await world.exec({ type: 'LOAD' });
    await world.exec({ type: 'xstate.done.actor.list' });
    await world.exec({ type: 'SAVE_OPEN' });
    await world.exec({ type: 'SAVE' });
    await settle();
    expect(world.bar().getByRole('alert').textContent).toContain(text('taskPresets.incomplete'));
    expect(world.calls.waiting()).toEqual([]);
    expect(world.actual()).toBe('naming, refused');
    world.dispose();
  }, 60_000);
});
