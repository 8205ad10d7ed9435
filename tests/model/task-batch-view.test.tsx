/**
 * The batch from a CSV file (src/machines/task-batch.ts through src/views/creation/
 * task-batch-dialog.tsx, inside the mixed-cut form's drawer), driven as a merchant would against a
 * hand-written oracle: the machine's shortest paths only propose event sequences; each step is a
 * click ("Batch from CSV…", Close, "Create N tasks", "Show the tasks"), a file chosen in the
 * dialog's file field, or a fake endpoint settling, and what the person sees after it comes from
 * TRANSITIONS / `sees` below: every error of the file by row and column, the batch's estimate,
 * one `batch_add` of exactly the request checked (one idempotency key), a refusal kept with the
 * estimate, the tasks made and the task list reloaded.
 */
import { act, screen, within } from '@testing-library/react';
import { createIntl } from 'react-intl';
import { describe, expect, test } from 'vitest';
import type { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type {
  VideoTaskBatchBody,
  VideoTaskBatchEstimate,
} from '../../src/api/contract/video-task-batch';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { taskBatchArea, type TaskBatchEndpoints } from '../../src/app/actors/task-batch';
import { taskPresetsArea, type TaskPresetsEndpoints } from '../../src/app/actors/task-presets';
import {
  videoTaskFormsArea,
  type VideoTaskFormsEndpoints,
} from '../../src/app/actors/video-task-forms';
import { videoTasksArea, type VideoTasksEndpoints } from '../../src/app/actors/video-tasks';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { taskBatchMachine } from '../../src/machines/task-batch';
import { MixedTaskFormDrawer, NewMixedTaskButton } from '../../src/views/creation/task-form';
import { replyError } from './fixtures';
import { clipResource, shopAuth } from './video-task-fixtures';
import { fakeEndpoints, person, settle, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

/** A message of the English catalogue, formatted (plurals too). */
const EN = createIntl({ locale: 'en-US', messages: enUS });
const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  EN.formatMessage({ id }, values);

const BEACH = clipResource(1, 'Beach', 3);
const PARK = clipResource(2, 'Park', 2);

const GOOD_CSV = 'name,title,count\nMonday,Hi,2\nTuesday,,2\nWednesday,,2\n';
const BAD_CSV = 'name,voice,count\nMonday,,2\nTuesday,,two\nWednesday,Nobody,1\n,,,\n';
const CHECK_FAILED = 'The network is down';
const ADD_REFUSED = 'Insufficient balance: this needs 0.60, the balance is 0.05';

const ESTIMATE: VideoTaskBatchEstimate = {
  valid: true,
  errors: [],
  tasks: 3,
  outputs: 6,
  unit_cost: '0.10',
  cost: '0.60',
  balance: '10.00',
};
const ERRORS: VideoTaskBatchEstimate['errors'] = [
  { row: 3, column: 'count', message: 'Write a whole number' },
  { row: 4, column: 'voice', message: 'No ready voice “Nobody”' },
  { row: 5, column: '', message: 'More cells than the header has columns' },
];
const REFUSED: VideoTaskBatchEstimate = {
  ...ESTIMATE,
  valid: false,
  errors: ERRORS,
  tasks: 0,
  outputs: 0,
  cost: '0.00',
};
const MADE = { batch_id: 5, ids: [11, 12, 13] };

// ---------------------------------------------------------------------------------------------
// The oracle, from docs/domain.md §9 "Presets, batches and previews". The form is filled (two
// shots in one group); the person opens the batch dialog, chooses good.csv (valid) or bad.csv
// (three errors), confirms. "checking X": the file X is with the server.

const TRANSITIONS: Record<string, string> = {
  'closed OPEN': 'choosing',
  'choosing CLOSE': 'closed',
  'choosing CHOOSE good': 'checking good',
  'choosing CHOOSE bad': 'checking bad',
  'checking good done check': 'estimated',
  'checking bad done check': 'refused',
  // The check could not be made: back to choosing, the reason shown.
  'checking good error check': 'check failed',
  'check failed CHOOSE good': 'checking good',
  'refused CHOOSE good': 'checking good',
  'refused CLOSE': 'closed',
  'estimated CHOOSE bad': 'checking bad',
  'estimated CLOSE': 'closed',
  'estimated CONFIRM': 'submitting',
  'submitting done add': 'done',
  // Refused: the reason kept beside the estimate; confirming sends the same request again.
  'submitting error add': 'failed',
  'failed CONFIRM': 'submitting',
  'failed CHOOSE good': 'checking good',
  'done CLOSE': 'closed',
  // The list behind the form shows the new tasks.
  'done SHOW_TASKS': 'form closed',
};

type PathEvent = { type: string; by?: string; file?: File; output?: unknown; error?: unknown };

const csvFile = (which: 'good' | 'bad') =>
  new File([which === 'good' ? GOOD_CSV : BAD_CSV], `${which}.csv`, { type: 'text/csv' });

const label = (e: PathEvent) => {
  if (e.by) return e.by;
  if (e.type === 'CHOOSE') return `CHOOSE ${e.file!.name.replace('.csv', '')}`;
  return e.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');
};

type Snapshot = ReturnType<ReturnType<typeof createActor<typeof taskBatchMachine>>['getSnapshot']>;

/** What a person can do in a state (few ways in, so the paths stay few). */
function events(s: Snapshot): PathEvent[] {
  const { fileName, error, completed } = s.context;
  const list: PathEvent[] = [];
  if (s.matches('closed')) return completed === 0 && !fileName ? [{ type: 'OPEN' }] : [];
  const good = { type: 'CHOOSE', file: csvFile('good') };
  const bad = { type: 'CHOOSE', file: csvFile('bad') };
  if (s.matches({ open: 'choosing' })) {
    list.push(good);
    if (!error) list.push({ type: 'CLOSE' }, bad);
  }
  if (s.matches({ open: 'checking' })) {
    const valid = fileName === 'good.csv';
    list.push({
      type: 'xstate.done.actor.check',
      output: { estimate: valid ? ESTIMATE : REFUSED, request: {} },
    });
    if (valid) list.push({ type: 'xstate.error.actor.check', error: replyError(CHECK_FAILED) });
  }
  if (s.matches({ open: 'refused' })) list.push(good, { type: 'CLOSE' });
  if (s.matches({ open: 'estimated' })) list.push({ type: 'CONFIRM' }, bad, { type: 'CLOSE' });
  if (s.matches({ open: 'submitting' })) {
    list.push(
      { type: 'xstate.done.actor.add', output: MADE },
      { type: 'xstate.error.actor.add', error: replyError(ADD_REFUSED) },
    );
  }
  if (s.matches({ open: 'failed' })) list.push({ type: 'CONFIRM' }, good);
  if (s.matches({ open: 'done' }))
    list.push({ type: 'CLOSE' }, { type: 'CLOSE', by: 'SHOW_TASKS' });
  return list.filter((e) => s.can(e as never));
}

// ---------------------------------------------------------------------------------------------

function setup(options: { filled?: boolean } = {}) {
  const batchCalls = fakeEndpoints();
  let keys = 0;
  const endpoints: TaskBatchEndpoints = {
    estimateVideoTaskBatch: batchCalls.endpoint('estimateVideoTaskBatch'),
    addVideoTaskBatch: batchCalls.endpoint('addVideoTaskBatch'),
    newIdempotencyKey: () => `key-${++keys}`,
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
  const presetEndpoints: TaskPresetsEndpoints = {
    getVideoTaskPresets: async () => ({ list: [], total: 0 }),
    saveVideoTaskPreset: () => new Promise(() => {}),
    getVideoTaskPreset: () => new Promise(() => {}),
    deleteVideoTaskPreset: () => new Promise(() => {}),
    getVideoTaskSource: () => new Promise(() => {}),
  };
  const listCalls: unknown[] = [];
  const taskEndpoints: VideoTasksEndpoints = {
    getVideoTasks: async (query) => {
      listCalls.push(query);
      return { list: [], total: 0 };
    },
    getVideoTask: () => new Promise(() => {}),
    retryVideoTask: () => new Promise(() => {}),
    cancelVideoTask: () => new Promise(() => {}),
    deleteVideoTasks: () => new Promise(() => {}),
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, videoTaskFormsArea, formEndpoints);
  provideArea(actors, taskPresetsArea, presetEndpoints);
  provideArea(actors, videoTasksArea, taskEndpoints);
  provideArea(actors, taskBatchArea, endpoints);
  const areas = () => areasOf(actors);
  renderAt(
    actors,
    <>
      <NewMixedTaskButton />
      <MixedTaskFormDrawer />
    </>,
    '/creation/mixed-task',
  );
  const user = person();
  const form = () => areas().get(videoTaskFormsArea).mixed;
  const batch = () => areas().get(taskBatchArea).mixed;

  const open = async () => {
    await user.click(screen.getByRole('button', { name: text('taskForm.new') }));
    await settle();
    if (options.filled !== false) {
      // The shots are put in the draft directly (picking is the mixed-cut form's own test).
      act(() => {
        form().send({
          type: 'EDIT',
          patch: { groups: [{ key: 1, shots: [BEACH, PARK], duration: '' }], count: '2' },
        });
      });
    }
  };

  const dialogs = () => screen.queryAllByRole('dialog').filter(isOpen);
  const drawer = () => {
    const el = dialogs().find((d) => d.getAttribute('data-testid') === 'mixed-task-form');
    return el ? within(el) : null;
  };
  const dialog = () => {
    const el = dialogs().find((d) => d.getAttribute('data-testid') === 'task-batch');
    return el ? within(el) : null;
  };
  const box = () => {
    const d = dialog();
    expect(d, 'the batch dialog').not.toBeNull();
    return d!;
  };
  const status = () => box().getByTestId('task-batch-status');
  const confirmName = text('taskBatch.confirm', { count: 3 });
  /** The requests sent to batch_add, with their keys. */
  const adds = () =>
    batchCalls.calls
      .filter((c) => c.name === 'addVideoTaskBatch')
      .map((c) => c.input as [VideoTaskBatchBody, string]);
  const checks = () =>
    batchCalls.calls
      .filter((c) => c.name === 'estimateVideoTaskBatch')
      .map((c) => (c.input as [VideoTaskBatchBody])[0]);

  const exec = async (e: PathEvent) => {
    switch (label(e)) {
      case 'OPEN':
        return user.click(drawer()!.getByRole('button', { name: text('taskBatch.open') }));
      case 'CLOSE':
        // The footer's Close (the corner's × has the same name).
        return user.click(box().getAllByRole('button', { name: text('form.close') })[0]);
      case 'SHOW_TASKS':
        return user.click(box().getByRole('button', { name: text('taskBatch.showTasks') }));
      case 'CHOOSE good':
      case 'CHOOSE bad':
        await user.upload(box().getByLabelText(text('taskBatch.file')), e.file!);
        return settle();
      case 'done check':
        return batchCalls.settle(
          'estimateVideoTaskBatch',
          'done',
          checks().at(-1)!.csv === GOOD_CSV ? ESTIMATE : REFUSED,
        );
      case 'error check':
        return batchCalls.settle(
          'estimateVideoTaskBatch',
          'error',
          replyError(CHECK_FAILED, 'transport'),
        );
      case 'CONFIRM':
        return user.click(box().getByRole('button', { name: confirmName }));
      case 'done add':
        return batchCalls.settle('addVideoTaskBatch', 'done', MADE);
      case 'error add':
        return batchCalls.settle('addVideoTaskBatch', 'error', replyError(ADD_REFUSED));
      default:
        throw new Error(`a person cannot cause ${label(e)}`);
    }
  };

  // ---- what a person sees
  const fileField = () => box().getByLabelText(text('taskBatch.file')) as HTMLInputElement;
  const noConfirm = () => expect(box().queryByRole('button', { name: confirmName })).toBeNull();
  const nothingAdded = () => expect(adds()).toEqual([]);
  const checking = (file: 'good' | 'bad') => {
    expect(status().textContent).toBe(text('taskBatch.checking', { file: `${file}.csv` }));
    expect(fileField().disabled).toBe(true);
    noConfirm();
    // The whole file is sent with the form's settings (its name aside: each row has one).
    expect(batchCalls.waiting()).toEqual(['estimateVideoTaskBatch']);
    expect(checks().at(-1)).toEqual({
      name: file,
      base: expect.objectContaining({
        kind: 'mixed',
        count: 2,
        shot_groups: [{ resource_ids: [1, 2] }],
      }),
      csv: file === 'good' ? GOOD_CSV : BAD_CSV,
    });
  };
  const estimateShown = () => {
    const section = within(
      box().getByRole('region', { name: text('taskBatch.estimate', { file: 'good.csv' }) }),
    );
    const figure = (id: MessageId) => section.getByTestId(`batch-${text(id)}`).textContent;
    expect(figure('taskBatch.tasks')).toBe('3');
    expect(figure('taskForm.outputs')).toBe('6');
    expect(figure('taskForm.cost')).toBe('0.60');
    expect(figure('taskForm.balance')).toBe('10.00');
    section.getByText(text('taskBatch.held'));
  };
  /** Every call of batch_add sent the request checked, under the key of that check. */
  const sentAsChecked = (count: number) => {
    expect(adds()).toHaveLength(count);
    const checked = checks()
      .filter((c) => c.csv === GOOD_CSV)
      .at(-1);
    for (const [request, key] of adds()) {
      expect(request).toBe(checked);
      expect(key).toBe(adds()[0][1]);
    }
  };
  let addsAtSubmit = 0;

  const SEES: Record<string, () => void> = {
    closed: () => {
      expect(dialog()).toBeNull();
      expect(drawer(), 'the form').not.toBeNull();
    },
    choosing: () => {
      expect(status().textContent).toBe('');
      expect(fileField().disabled).toBe(false);
      expect(box().queryByRole('alert')).toBeNull();
      noConfirm();
      nothingAdded();
      // The template: a real file, the header and an example row.
      const link = box().getByRole('link', { name: text('taskBatch.template') });
      expect(link.getAttribute('download')).toBe('batch-template.csv');
      const href = link.getAttribute('href')!;
      expect(href.startsWith('data:text/csv;charset=utf-8,')).toBe(true);
      expect(decodeURIComponent(href.slice(href.indexOf(',') + 1))).toBe(
        '\uFEFFname,title,subtitle,voice,music,count\r\n' +
          'Spring sale 1,Spring sale,"Fresh flowers, every day. Free delivery.",,,1\r\n',
      );
    },
    'checking good': () => checking('good'),
    'checking bad': () => checking('bad'),
    'check failed': () => {
      expect(box().getByRole('alert').textContent).toContain(CHECK_FAILED);
      expect(status().textContent).toBe('');
      expect(fileField().disabled).toBe(false);
      noConfirm();
      nothingAdded();
    },
    refused: () => {
      expect(box().getByRole('alert').textContent).toContain(
        text('taskBatch.refused', { count: 3, file: 'bad.csv' }),
      );
      // Every error, by row and column, as the server wrote it.
      const table = box().getByRole('table', { name: text('taskBatch.errors') });
      const rows = within(table)
        .getAllByRole('row')
        .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
      expect(rows).toEqual([
        [text('taskBatch.row'), text('taskBatch.column'), text('taskBatch.problem')],
        ['3', 'count', 'Write a whole number'],
        ['4', 'voice', 'No ready voice “Nobody”'],
        ['5', text('taskBatch.wholeRow'), 'More cells than the header has columns'],
      ]);
      noConfirm();
      nothingAdded();
    },
    estimated: () => {
      estimateShown();
      expect(box().queryByRole('alert')).toBeNull();
      expect(box().getByRole('button', { name: confirmName }).hasAttribute('disabled')).toBe(false);
      addsAtSubmit = adds().length;
    },
    submitting: () => {
      estimateShown();
      expect(box().getByRole('button', { name: confirmName }).hasAttribute('disabled')).toBe(true);
      // One call per confirmation: the request checked, one key.
      expect(batchCalls.waiting('addVideoTaskBatch')).toHaveLength(1);
      sentAsChecked(adds().length);
      expect(adds().length).toBeGreaterThan(addsAtSubmit);
      addsAtSubmit = adds().length;
      expect(listCalls).toEqual([]);
    },
    failed: () => {
      expect(box().getByRole('alert').textContent).toContain(ADD_REFUSED);
      // Kept: the estimate and the way to send it again.
      estimateShown();
      expect(box().getByRole('button', { name: confirmName }).hasAttribute('disabled')).toBe(false);
      expect(listCalls).toEqual([]);
    },
    done: () => {
      expect(status().textContent).toBe(text('taskBatch.done', { count: 3, file: 'good.csv' }));
      noConfirm();
      expect(fileField().disabled).toBe(true);
      sentAsChecked(adds().length);
      // The task list loads again (with the new tasks).
      expect(listCalls.length).toBeGreaterThan(0);
    },
    'form closed': () => {
      expect(dialog()).toBeNull();
      expect(drawer(), 'the form').toBeNull();
      expect(listCalls.length).toBeGreaterThan(0);
      // The form keeps its settings for another batch.
      expect(form().getSnapshot().context.draft.groups[0].shots).toHaveLength(2);
    },
  };

  const actual = () => {
    const s = batch().getSnapshot();
    if (s.matches('closed'))
      return form().getSnapshot().matches('closed') ? 'form closed' : 'closed';
    const phase = (s.value as { open: string }).open;
    if (phase === 'checking') return `checking ${s.context.fileName.replace('.csv', '')}`;
    if (phase === 'choosing' && s.context.error) return 'check failed';
    return phase;
  };
  return {
    exec,
    sees: SEES,
    actual,
    open,
    box,
    batchCalls,
    dispose: () => {
      areasOf(actors).reset();
      actors.dispose();
    },
  };
}

viewPathHooks();

describe('the batch from a CSV file', () => {
  uiPaths({
    oracle: { initial: 'closed', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(taskBatchMachine, {
      input: { newKey: () => 'k' },
      events: (s) => events(s) as never[],
      serializeState: (s, e) =>
        JSON.stringify([
          s.value,
          s.context.fileName,
          s.context.error,
          s.context.completed,
          e ? label(e as PathEvent) : null,
        ]),
    }) as never,
    run: async (_, walk) => {
      const world = setup();
      await world.open();
      await walk({ exec: world.exec as never, sees: world.sees, actual: world.actual });
      world.dispose();
    },
    timeout: 60_000,
  });

  test('an incomplete form is refused before any call, with what to do', async () => {
    const world = setup({ filled: false });
    await world.open();
    await world.exec({ type: 'OPEN' });
    await world.exec({ type: 'CHOOSE', file: csvFile('good') });
    await settle();
    expect(world.box().getByRole('alert').textContent).toContain(text('taskBatch.incomplete'));
    expect(world.batchCalls.calls).toEqual([]);
    expect(world.actual()).toBe('check failed');
    world.dispose();
  }, 60_000);

  test('has every string in both catalogues', async () => {
    const zhCN = (await import('../../src/i18n/zh-CN')).default;
    const ids = Object.keys(enUS).filter((k) => k.startsWith('taskBatch.'));
    expect(ids.length).toBeGreaterThan(25);
    for (const id of ids) expect(zhCN[id as MessageId], id).toBeTruthy();
  });
});
