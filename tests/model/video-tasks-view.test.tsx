// @vitest-environment jsdom -- axe runs in jsdom (vitest.config.ts)
/**
 * The video task pages driven as a merchant would, through the real views with the
 * video tasks area on fake endpoints (`provideArea`):
 * - the detail drawer (src/machines/video-tasks/task-detail.ts): its shortest paths only propose
 *   event sequences; each step is a click (a row's Detail, the drawer's close, Retry after a
 *   failed load) or the detail call settling; the screen after each step comes from the
 *   hand-written table below (loading, every output with its player, download, reason; errors);
 * - the drawer's Retry failed and Cancel confirmations (the dialog machine): confirm, refused,
 *   sent again, done — then the area reloads the list and the detail (events between actors);
 * - the list: filters and pages make the query; the area's watch moves a running task's progress
 *   without reloading the list, stops when nothing on show is running, waits longer after a
 *   failed check, and goes on while the page is not shown (switching pages or tabs).
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type {
  VideoOutput,
  VideoTask,
  VideoTaskDetail,
  VideoTaskListQuery,
} from '../../src/api/contract/video-tasks';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { videoTasksArea, type VideoTasksEndpoints } from '../../src/app/actors/video-tasks';
import { Providers } from '../../src/app/boot/providers';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { settingsMachine } from '../../src/machines/settings';
import { Shell } from '../../src/app/shell/shell';
import { createCustomerDialogMachine } from '../../src/machines/customers/customer-dialog';
import { taskDetailMachine } from '../../src/machines/video-tasks/task-detail';
import { MAX_POLL_MS, POLL_MS } from '../../src/machines/video-tasks/task-watch';
import MixedTaskPage from '../../src/views/creation/mixed-task-page';
import { replyError } from './fixtures';
import { shopAuth } from './video-task-fixtures';
import { fakeEndpoints, person, uiPaths, viewPathHooks, type EventPath } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId) => enUS[id];
const fill = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id]
    .replace(/\{(\w+), plural, one \{([^}]*)\} other \{([^}]*)\}\}/g, (_, k: string, one, other) =>
      (Number(values[k]) === 1 ? one : other).replace('#', String(values[k])),
    )
    .replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));

// ---------------------------------------------------------------------------------------------
// Fixtures: two mixed-cut tasks, one partly done (a failed output), one running.

const task = (over: Partial<VideoTask> & Pick<VideoTask, 'id' | 'name' | 'status'>): VideoTask => ({
  kind: 'mixed',
  total: 3,
  done: 0,
  failed: 0,
  cancelled: 0,
  progress: 0,
  cost: '3.00',
  settled: '0.00',
  refunded: '0.00',
  ratio: '9:16',
  resolution: '720p',
  cover: null,
  stalled: false,
  created_at: new Date(2026, 10, 20, 9, 5).getTime(),
  finished_at: null,
  download_all_url: null,
  queue_position: null,
  estimated_start: null,
  ...over,
});

const SPRING = task({
  id: 1,
  name: 'Spring sale',
  status: 'partly_done',
  done: 2,
  failed: 1,
  progress: 100,
  settled: '2.00',
  refunded: '1.00',
});
const SUMMER = task({
  id: 2,
  name: 'Summer promo',
  status: 'running',
  total: 4,
  done: 1,
  progress: 25,
  cost: '4.00',
});

const output = (
  over: Partial<VideoOutput> & Pick<VideoOutput, 'id' | 'index' | 'status'>,
): VideoOutput => ({
  progress: 0,
  reason: null,
  reason_detail: null,
  duration: 6,
  size: null,
  width: null,
  height: null,
  url: null,
  download_url: null,
  poster: null,
  combination: [
    { group: 1, resource_id: 11, name: 'Beach' },
    { group: 2, resource_id: 21, name: 'Logo' },
  ],
  attempts: 1,
  finished_at: null,
  queue_position: null,
  estimated_start: null,
  ...over,
});
const DONE_OUTPUT = output({
  id: 101,
  index: 1,
  status: 'done',
  size: 1_048_576,
  width: 720,
  height: 1280,
  url: '/api/v1/files/out-101?exp=1&sig=s',
  download_url: '/api/v1/files/out-101?exp=1&sig=s&download=1',
  poster: '/api/v1/files/out-101-poster?exp=1&sig=s',
});
const FAILED_OUTPUT = output({
  id: 102,
  index: 2,
  status: 'failed',
  reason: 'The shot “Broken” could not be read',
  reason_detail: 'moov atom not found',
  combination: [
    { group: 1, resource_id: 12, name: 'Broken' },
    { group: 2, resource_id: 21, name: 'Logo' },
  ],
});
const DONE_2 = output({
  ...DONE_OUTPUT,
  id: 103,
  index: 3,
  url: '/api/v1/files/out-103',
  download_url: '/api/v1/files/out-103?download=1',
});

const detailOf = (t: VideoTask, outputs: VideoOutput[]): VideoTaskDetail => ({
  ...t,
  params: {},
  outputs,
});
const SPRING_DETAIL = detailOf(SPRING, [DONE_OUTPUT, FAILED_OUTPUT, DONE_2]);
/** After a retry: the failed output queued again. */
const SPRING_RETRIED = task({ ...SPRING, status: 'running', failed: 0, progress: 66 });

const lostReply = () => replyError('http.networkError', 'transport');
const REFUSED = 'Your balance is not enough for 1 video';

// ---------------------------------------------------------------------------------------------
// The page on fake endpoints.

interface Options {
  tasks?: VideoTask[];
  /** The detail call waits until the test settles it (else: the server's task at once). */
  pendingDetail?: boolean;
  /** The layout setting: pages kept in tabs. */
  tabBar?: boolean;
  /** The watch's checks (quiet list calls) wait until the test lets them answer. */
  holdChecks?: boolean;
}

interface ListCall {
  query: VideoTaskListQuery;
  quiet: boolean;
}

function world(options: Options = {}) {
  const endpoints = fakeEndpoints();
  const server = {
    tasks: [...(options.tasks ?? [SPRING, SUMMER])],
    outputs: { 1: [DONE_OUTPUT, FAILED_OUTPUT, DONE_2] } as Record<number, VideoOutput[]>,
    /** The next list calls that get no reply. */
    failLists: 0,
  };
  const lists: ListCall[] = [];
  const held: (() => void)[] = [];
  const details: { id: number; quiet: boolean }[] = [];
  const auth = shopAuth();
  const settings = createActor(settingsMachine, {
    input: { stored: options.tabBar ? { tabBar: true } : null },
  }).start();
  const actors = appActors({ auth, settings });
  const getVideoTasks: VideoTasksEndpoints['getVideoTasks'] = async (query, opts) => {
    lists.push({ query: { ...query }, quiet: opts?.quiet === true });
    if (options.holdChecks && opts?.quiet) await new Promise<void>((go) => held.push(go));
    if (server.failLists > 0) {
      server.failLists -= 1;
      throw lostReply();
    }
    const keyword = (query.keyword ?? '').toLowerCase();
    const all = server.tasks.filter(
      (t) =>
        t.kind === query.kind &&
        (!query.status || t.status === query.status) &&
        (!keyword || t.name.toLowerCase().includes(keyword)),
    );
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    return { list: all.slice((page - 1) * limit, page * limit), total: all.length };
  };
  const serverDetail = async (id: number, opts?: { quiet?: boolean }) => {
    details.push({ id, quiet: opts?.quiet === true });
    const t = server.tasks.find((x) => x.id === id)!;
    return detailOf(t, server.outputs[id] ?? []);
  };
  provideArea(actors, videoTasksArea, {
    getVideoTasks,
    getVideoTask: options.pendingDetail
      ? (endpoints.endpoint('getVideoTask') as never)
      : (serverDetail as never),
    retryVideoTask: endpoints.endpoint('retryVideoTask') as never,
    cancelVideoTask: endpoints.endpoint('cancelVideoTask') as never,
    deleteVideoTasks: endpoints.endpoint('deleteVideoTasks') as never,
  });
  return {
    actors,
    endpoints,
    server,
    lists,
    details,
    user: person(),
    /** Lets the held checks answer (`holdChecks`). */
    async answerChecks() {
      for (const go of held.splice(0)) go();
      await act(() => vi.advanceTimersByTimeAsync(0));
    },
    /** Sets a task as the server has it now. */
    update(id: number, over: Partial<VideoTask>) {
      server.tasks = server.tasks.map((t) => (t.id === id ? { ...t, ...over } : t));
    },
    dispose() {
      areasOf(actors).reset();
      actors.dispose();
    },
  };
}
type World = ReturnType<typeof world>;

/** The address the page is at (a deep link's parameter goes once used). */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

async function showList(w: World) {
  renderAt(w.actors, <MixedTaskPage />, '/creation/mixed-task');
  await vi.waitFor(() => screen.getByRole('heading', { name: text('route.mixedTask') }), {
    timeout: 5000,
  });
  await vi.waitFor(
    () =>
      expect(rowNames().length > 0 || screen.queryByText(text('videoTasks.empty')) !== null).toBe(
        true,
      ),
    { timeout: 5000 },
  );
}

/** The list shown, then the watch's first check asked and not answered yet. */
async function checkUnderWay() {
  const w = world({ holdChecks: true });
  await showList(w);
  await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
  expect(w.lists.filter((c) => c.quiet)).toHaveLength(1);
  return w;
}

/** The person picks a status in the filter bar and searches. */
async function filterStatus(w: World, status: string) {
  const search = () => screen.getByRole('search', { name: text('videoTasks.filters') });
  await w.user.selectOptions(within(search()).getByLabelText(text('videoTasks.status')), status);
  await w.user.click(within(search()).getByRole('button', { name: text('filter.search') }));
  for (let i = 0; i < 5; i++) await act(() => vi.advanceTimersByTimeAsync(0));
}

/** The table (hidden from the accessibility tree while the drawer, a modal, is open). */
const table = () => screen.getByRole('table', { name: text('videoTasks.mixedList'), hidden: true });
function rowOf(name: string): HTMLElement | null {
  const rows = within(table()).queryAllByRole('row', { hidden: true });
  return rows.find((r) => within(r).queryByText(name, { exact: true })) ?? null;
}
/** The names of the rows shown, top to bottom. */
const rowNames = () =>
  within(table())
    .queryAllByRole('row', { hidden: true })
    .slice(1)
    .filter((r) => r.getAttribute('aria-hidden') !== 'true')
    .map((r) => within(r).getAllByRole('cell', { hidden: true })[0].textContent);
const progressText = (name: string) =>
  within(rowOf(name)!).getByTestId('task-progress').textContent;
const statusText = (name: string) => within(rowOf(name)!).getByTestId('task-status').textContent;
const drawer = () => {
  const open = screen
    .queryAllByTestId('task-drawer')
    .filter((d) => isOpen(d) || d.closest('[data-state="open"]'));
  return open[0] ?? null;
};
const openDialog = () => {
  const open = screen
    .queryAllByRole('dialog')
    .filter(isOpen)
    .filter(
      (d) =>
        !d.querySelector('[data-testid="task-drawer"]') &&
        d.getAttribute('data-testid') !== 'task-drawer',
    );
  return open[0] ?? null;
};

beforeAll(async () => {
  await import('../../src/components/toaster-store');
  await import('../../src/app/theme/theme-later');
  await import('../../src/components/app-toaster');
});
viewPathHooks();

// ---------------------------------------------------------------------------------------------
// The drawer: hand-written oracle.

const DRAWER: Record<string, string> = {
  'closed OPEN': 'loading',
  'loading detail: done': 'ready',
  'loading detail: no reply': 'failed',
  'loading CLOSE': 'closed',
  'ready CLOSE': 'closed',
  'failed RELOAD': 'loading',
  'failed CLOSE': 'closed',
};

type DrawerEvent = { type: string; output?: unknown; error?: unknown };
const DRAWER_EVENTS: DrawerEvent[] = [
  { type: 'OPEN', id: SPRING.id } as DrawerEvent,
  { type: 'CLOSE' },
  { type: 'RELOAD' },
  { type: 'xstate.done.actor.load', output: SPRING_DETAIL },
  { type: 'xstate.error.actor.load', error: lostReply() },
];
function drawerLabel(e: DrawerEvent): string {
  if (e.type.startsWith('xstate.done')) return 'detail: done';
  if (e.type.startsWith('xstate.error')) return 'detail: no reply';
  return e.type;
}
const STATE_NAME: Record<string, string> = {
  closed: 'closed',
  loading: 'loading',
  ready: 'ready',
  failed: 'failed',
};

async function seesDrawer(state: string) {
  const d = drawer();
  if (state === 'closed') {
    expect(d).toBeNull();
    return;
  }
  expect(d).not.toBeNull();
  const inside = within(d!);
  inside.getByRole('button', { name: text('form.close') });
  if (state === 'loading') {
    inside.getByLabelText(text('videoTasks.loadingDetail'));
    expect(inside.queryByRole('list', { name: text('videoTasks.outputs') })).toBeNull();
    return;
  }
  if (state === 'failed') {
    inside.getByText(text('load.failed'));
    inside.getByRole('button', { name: text('load.retry') });
    expect(inside.queryByRole('list', { name: text('videoTasks.outputs') })).toBeNull();
    return;
  }
  // ready: the task and every output.
  inside.getByRole('heading', { name: 'Spring sale' });
  expect(inside.getByTestId('task-status').textContent).toBe(text('videoTasks.statusPartlyDone'));
  inside.getByText(
    `${fill('videoTasks.doneOfTotal', { done: 2, total: 3 })} · ${fill('videoTasks.failedCount', { count: 1 })}`,
  );
  inside.getByText('3.00 Coins');
  inside.getByRole('button', { name: text('videoTasks.retryFailed') });
  // Partly done: nothing is queued, so no Cancel.
  expect(inside.queryByRole('button', { name: text('videoTasks.cancelTask') })).toBeNull();
  const outputs = within(
    inside.getByRole('list', { name: text('videoTasks.outputs') }),
  ).getAllByRole('listitem');
  expect(outputs.map((o) => o.getAttribute('aria-label'))).toEqual([
    'Video 1',
    'Video 2',
    'Video 3',
  ]);
  const [first, second] = outputs.map((o) => within(o));
  expect(first.getByTestId('output-status').textContent).toBe(text('videoTasks.outputDone'));
  const player = first.getByLabelText(fill('videoTasks.player', { index: 1, name: 'Spring sale' }));
  expect(player.tagName).toBe('VIDEO');
  expect(player.getAttribute('src')).toBe(DONE_OUTPUT.url);
  expect(player.hasAttribute('controls')).toBe(true);
  const link = first.getByRole('link', {
    name: fill('videoTasks.downloadOf', { index: 1, name: 'Spring sale' }),
  });
  expect(link.getAttribute('href')).toBe(DONE_OUTPUT.download_url);
  first.getByText('1 MB');
  first.getByText('720×1280');
  first.getByText('6.0 s');
  expect(first.getByTestId('output-combination').textContent).toBe('Beach → Logo');
  // The failed one: its reason, the detail behind a disclosure, no player, no download.
  expect(second.getByTestId('output-status').textContent).toBe(text('videoTasks.outputFailed'));
  expect(second.getByTestId('output-reason').textContent).toBe(FAILED_OUTPUT.reason);
  second.getByText(text('videoTasks.reasonDetail'));
  second.getByText('moov atom not found');
  expect(second.queryByRole('link')).toBeNull();
  expect(outputs[1].querySelector('video')).toBeNull();
}

async function execDrawer(w: World, e: DrawerEvent) {
  switch (e.type) {
    case 'OPEN':
      await w.user.click(
        within(rowOf('Spring sale')!).getByRole('button', {
          name: fill('videoTasks.detailOf', { name: 'Spring sale' }),
        }),
      );
      return;
    case 'CLOSE':
      await w.user.click(within(drawer()!).getByRole('button', { name: text('form.close') }));
      return;
    case 'RELOAD':
      await w.user.click(within(drawer()!).getByRole('button', { name: text('load.retry') }));
      return;
  }
  if (e.type.startsWith('xstate.done')) await w.endpoints.settle('getVideoTask', 'done', e.output);
  else await w.endpoints.settle('getVideoTask', 'error', e.error);
}

describe('the task detail drawer, path by path', () => {
  uiPaths({
    oracle: { initial: 'closed', transitions: DRAWER, label: drawerLabel },
    proposed: getShortestPaths(taskDetailMachine, {
      events: (s) =>
        DRAWER_EVENTS.filter(
          (e) => `${STATE_NAME[String(s.value)]} ${drawerLabel(e)}` in DRAWER,
        ) as never,
    }) as EventPath<DrawerEvent>[],
    // CLOSE leads back to the start, so no shortest path takes it: these do.
    more: [
      ['OPEN', 'CLOSE'],
      ['OPEN', 'done', 'CLOSE'],
      ['OPEN', 'error', 'RELOAD', 'error', 'CLOSE'],
    ].map((names) => ({
      steps: [
        { event: { type: 'xstate.init' } },
        ...names.map((n) => ({
          event: DRAWER_EVENTS.find((e) => e.type === n || e.type.startsWith(`xstate.${n}`))!,
        })),
      ],
    })),
    run: async (_path, walk) => {
      const w = world({ pendingDetail: true });
      await showList(w);
      await walk({
        exec: (e) => execDrawer(w, e),
        sees: Object.fromEntries(
          ['closed', 'loading', 'ready', 'failed'].map((s) => [s, () => seesDrawer(s)]),
        ),
      });
      w.dispose();
    },
    timeout: 30_000,
  });
});

// ---------------------------------------------------------------------------------------------
// Retry failed, from the drawer: the dialog machine's paths against this table.

const RETRY: Record<string, string> = {
  'closed OPEN': 'confirming',
  'confirming SUBMIT': 'sending',
  'confirming CLOSE': 'closed',
  'sending retry: done': 'done',
  'sending retry: refused': 'refused',
  'refused RETRY': 'sending',
  'refused CLOSE': 'closed',
};
type DialogEvent = {
  type: string;
  output?: unknown;
  error?: unknown;
  target?: unknown;
  payload?: unknown;
};
const RETRY_EVENTS: DialogEvent[] = [
  { type: 'OPEN', target: SPRING },
  { type: 'SUBMIT', payload: { id: SPRING.id } },
  { type: 'CLOSE' },
  { type: 'RETRY' },
  { type: 'xstate.done.actor.submit', output: { count: 1, cost: '1.00' } },
  { type: 'xstate.error.actor.submit', error: replyError(REFUSED) },
];
function retryLabel(e: DialogEvent): string {
  if (e.type.startsWith('xstate.done')) return 'retry: done';
  if (e.type.startsWith('xstate.error')) return 'retry: refused';
  return e.type;
}
const DIALOG_NAME: Record<string, string> = {
  closed: 'closed',
  editing: 'confirming',
  submitting: 'sending',
  failed: 'refused',
  done: 'done',
};

async function seesRetry(w: World, state: string, listsBefore: () => number) {
  const dialog = openDialog();
  if (state === 'closed' || state === 'done') {
    expect(dialog).toBeNull();
    const d = within(drawer()!);
    if (state === 'closed') {
      d.getByRole('button', { name: text('videoTasks.retryFailed') });
      expect(w.lists.length).toBe(listsBefore());
      return;
    }
    // Done: a notice, and the area reloaded the list and the open detail (now rendering again).
    screen.getByText(fill('videoTasks.retried', { count: 1 }));
    expect(d.getByTestId('task-status').textContent).toBe(text('videoTasks.statusRunning'));
    expect(d.queryByRole('button', { name: text('videoTasks.retryFailed') })).toBeNull();
    d.getByRole('button', { name: text('videoTasks.cancelTask') });
    expect(w.lists.filter((c) => !c.quiet).length).toBe(listsBefore() + 1);
    expect(statusText('Spring sale')).toBe(text('videoTasks.statusRunning'));
    return;
  }
  expect(dialog).not.toBeNull();
  const inside = within(dialog!);
  inside.getByRole('heading', { name: fill('videoTasks.retryTitle', { name: 'Spring sale' }) });
  inside.getByText(fill('videoTasks.retryWhat', { count: 1 }));
  const confirm = inside.getByRole('button', { name: text('videoTasks.retry') });
  expect(confirm.getAttribute('aria-busy')).toBe(String(state === 'sending'));
  if (state === 'refused') inside.getByText(REFUSED);
  else expect(inside.queryByText(REFUSED)).toBeNull();
}

async function execRetry(w: World, e: DialogEvent) {
  switch (e.type) {
    case 'OPEN':
      await w.user.click(
        within(drawer()!).getByRole('button', { name: text('videoTasks.retryFailed') }),
      );
      return;
    case 'SUBMIT':
    case 'RETRY':
      await w.user.click(
        within(openDialog()!).getByRole('button', { name: text('videoTasks.retry') }),
      );
      return;
    case 'CLOSE':
      await w.user.click(within(openDialog()!).getByRole('button', { name: text('form.cancel') }));
      return;
  }
  if (e.type.startsWith('xstate.done')) {
    // The server queues the failed output again.
    w.update(SPRING.id, SPRING_RETRIED);
    await w.endpoints.settle('retryVideoTask', 'done', e.output);
  } else await w.endpoints.settle('retryVideoTask', 'error', e.error);
}

describe('retry the failed videos from the drawer, path by path', () => {
  uiPaths({
    oracle: { initial: 'closed', transitions: RETRY, label: retryLabel },
    proposed: getShortestPaths(createCustomerDialogMachine('videoTaskRetry'), {
      events: (s) =>
        RETRY_EVENTS.filter(
          (e) => `${DIALOG_NAME[String(s.value)]} ${retryLabel(e)}` in RETRY,
        ) as never,
    }) as EventPath<DialogEvent>[],
    run: async (_path, walk) => {
      const w = world();
      await showList(w);
      await execDrawer(w, { type: 'OPEN' });
      await vi.waitFor(() => within(drawer()!).getByRole('heading', { name: 'Spring sale' }));
      const before = w.lists.filter((c) => !c.quiet).length;
      await walk({
        exec: (e) => execRetry(w, e),
        sees: Object.fromEntries(
          ['closed', ...Object.values(RETRY)].map((s) => [s, () => seesRetry(w, s, () => before)]),
        ),
      });
      // A call that failed sent the same id again.
      for (const call of w.endpoints.calls.filter((c) => c.name === 'retryVideoTask')) {
        expect((call.input as unknown[])[0]).toBe(SPRING.id);
      }
      w.dispose();
    },
    timeout: 30_000,
  });
});

// ---------------------------------------------------------------------------------------------
// Beyond the paths: cancel, delete, filters, pages, the watch.

describe('accessibility of the drawer and a confirmation (axe, structural rules)', () => {
  test('no serious violation with the drawer open, nor with the retry confirmation over it', async () => {
    const axe = (await import('axe-core')).default;
    const serious = async () => {
      vi.useRealTimers();
      try {
        const result = await axe.run(document.body, {
          rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
        });
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
      } finally {
        vi.useFakeTimers();
      }
    };
    const w = world();
    await showList(w);
    expect(await serious()).toEqual([]);
    await execDrawer(w, { type: 'OPEN' });
    await vi.waitFor(() => within(drawer()!).getByRole('heading', { name: 'Spring sale' }));
    expect(await serious()).toEqual([]);
    await execRetry(w, { type: 'OPEN' });
    expect(await serious()).toEqual([]);
    w.dispose();
  }, 30_000);
});

describe('the task list', () => {
  test('rows: name, coloured status, done/total with failures, cost, created; actions by state', async () => {
    const w = world();
    await showList(w);
    expect(rowNames()).toEqual(['Spring sale', 'Summer promo']);
    expect(statusText('Spring sale')).toBe(text('videoTasks.statusPartlyDone'));
    expect(progressText('Spring sale')).toBe(
      `${fill('videoTasks.doneOfTotal', { done: 2, total: 3 })} · ${fill('videoTasks.failedCount', { count: 1 })}`,
    );
    expect(progressText('Summer promo')).toBe(
      fill('videoTasks.doneOfTotal', { done: 1, total: 4 }),
    );
    // Cost: what was charged once a task is over (3.00 frozen, 1.00 refunded); while it runs,
    // the price frozen for it, so labelled.
    const spring = within(rowOf('Spring sale')!);
    spring.getByText('2.00');
    expect(spring.queryByText('3.00')).toBeNull();
    within(rowOf('Summer promo')!).getByText(fill('videoTasks.costFrozenCell', { amount: '4.00' }));
    spring.getByText('2026-11-20 09:05');
    screen.getByRole('columnheader', { name: fill('videoTasks.cost', { moneyName: 'Coins' }) });
    const bar = within(rowOf('Summer promo')!).getByRole('progressbar', {
      name: fill('videoTasks.progressOf', { name: 'Summer promo' }),
    });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    // Every mixed-cut task can be duplicated; partly done: retry and delete; running: cancel.
    const names = (row: string) =>
      within(rowOf(row)!)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label'));
    expect(names('Spring sale')).toEqual([
      fill('videoTasks.detailOf', { name: 'Spring sale' }),
      fill('videoTasks.duplicateOf', { name: 'Spring sale' }),
      fill('videoTasks.retryOf', { name: 'Spring sale' }),
      fill('videoTasks.deleteOf', { name: 'Spring sale' }),
    ]);
    expect(names('Summer promo')).toEqual([
      fill('videoTasks.detailOf', { name: 'Summer promo' }),
      fill('videoTasks.duplicateOf', { name: 'Summer promo' }),
      fill('videoTasks.cancelOf', { name: 'Summer promo' }),
    ]);
    w.dispose();
  }, 30_000);

  test('filters and pages make the list query', async () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      task({
        id: 10 + i,
        name: `Batch ${i + 1}`,
        status: i % 2 ? 'done' : 'failed',
        failed: i % 2 ? 0 : 3,
      }),
    );
    const w = world({ tasks: many });
    await showList(w);
    expect(w.lists.at(-1)!.query).toEqual({ kind: 'mixed', page: 1, limit: 10 });
    expect(rowNames()).toHaveLength(10);
    await w.user.click(screen.getByRole('button', { name: /next/i }));
    await vi.waitFor(() => expect(rowNames()).toEqual(['Batch 11', 'Batch 12']));
    expect(w.lists.at(-1)!.query).toEqual({ kind: 'mixed', page: 2, limit: 10 });

    // The filter bar is made afresh with the filters applied: found each time.
    const search = () => screen.getByRole('search', { name: text('videoTasks.filters') });
    await w.user.selectOptions(
      within(search()).getByLabelText(text('videoTasks.status')),
      text('videoTasks.statusFailed'),
    );
    await w.user.type(within(search()).getByLabelText(text('videoTasks.keyword')), ' batch 1 ');
    await w.user.click(within(search()).getByRole('button', { name: text('filter.search') }));
    await vi.waitFor(() => expect(rowNames()).toEqual(['Batch 1', 'Batch 11']));
    expect(w.lists.at(-1)!.query).toEqual({
      kind: 'mixed',
      status: 'failed',
      keyword: 'batch 1',
      page: 1,
      limit: 10,
    });

    await w.user.click(within(search()).getByRole('button', { name: text('filter.reset') }));
    await vi.waitFor(() => expect(rowNames()).toHaveLength(10));
    expect(w.lists.at(-1)!.query).toEqual({ kind: 'mixed', page: 1, limit: 10 });
    // Nothing on show runs: no check was ever made.
    expect(w.lists.filter((c) => c.quiet)).toEqual([]);
    w.dispose();
  }, 30_000);

  test('cancel: confirmed, refunded, the list reloads', async () => {
    const w = world();
    await showList(w);
    await w.user.click(
      within(rowOf('Summer promo')!).getByRole('button', {
        name: fill('videoTasks.cancelOf', { name: 'Summer promo' }),
      }),
    );
    const dialog = within(openDialog()!);
    dialog.getByRole('heading', { name: fill('videoTasks.cancelTitle', { name: 'Summer promo' }) });
    dialog.getByText(text('videoTasks.cancelWhat'));
    const loads = w.lists.filter((c) => !c.quiet).length;
    await w.user.click(dialog.getByRole('button', { name: text('videoTasks.cancelTask') }));
    expect(w.endpoints.calls.at(-1)).toEqual({ name: 'cancelVideoTask', input: [SUMMER.id] });
    w.update(SUMMER.id, { status: 'cancelled', cancelled: 3, progress: 100 });
    await w.endpoints.settle('cancelVideoTask', 'done', { count: 3, refunded: '3.00' });
    expect(openDialog()).toBeNull();
    screen.getByText(fill('videoTasks.cancelledNotice', { count: 3 }));
    await vi.waitFor(() =>
      expect(statusText('Summer promo')).toBe(text('videoTasks.statusCancelled')),
    );
    expect(w.lists.filter((c) => !c.quiet).length).toBe(loads + 1);
    w.dispose();
  }, 30_000);

  test('delete a finished task: confirmed, refused once, then gone from the list', async () => {
    const w = world();
    await showList(w);
    await w.user.click(
      within(rowOf('Spring sale')!).getByRole('button', {
        name: fill('videoTasks.deleteOf', { name: 'Spring sale' }),
      }),
    );
    let dialog = within(openDialog()!);
    dialog.getByText(text('videoTasks.deleteWhat'));
    await w.user.click(dialog.getByRole('button', { name: text('videoTasks.delete') }));
    await w.endpoints.settle(
      'deleteVideoTasks',
      'error',
      replyError('The task is still rendering'),
    );
    dialog = within(openDialog()!);
    dialog.getByText('The task is still rendering');
    await w.user.click(dialog.getByRole('button', { name: text('videoTasks.delete') }));
    expect(
      w.endpoints.calls.filter((c) => c.name === 'deleteVideoTasks').map((c) => c.input),
    ).toEqual([[{ ids: [1] }], [{ ids: [1] }]]);
    w.server.tasks = w.server.tasks.filter((t) => t.id !== SPRING.id);
    await w.endpoints.settle('deleteVideoTasks', 'done', { count: 1 });
    screen.getByText(fill('videoTasks.deleted', { name: 'Spring sale' }));
    await vi.waitFor(() => expect(rowNames()).toEqual(['Summer promo']));
    w.dispose();
  }, 30_000);
});

describe('progress without reloading: the area’s watch', () => {
  test('a running task’s progress moves without a reload; the watch stops when it is done', async () => {
    const w = world();
    await showList(w);
    const loads = () => w.lists.filter((c) => !c.quiet).length;
    const checks = () => w.lists.filter((c) => c.quiet).length;
    expect([loads(), checks()]).toEqual([1, 0]);

    w.update(SUMMER.id, { done: 2, progress: 50 });
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(checks()).toBe(1);
    expect(w.lists.at(-1)!.query).toEqual({ kind: 'mixed', page: 1, limit: 10 });
    expect(progressText('Summer promo')).toBe(
      fill('videoTasks.doneOfTotal', { done: 2, total: 4 }),
    );
    // No reload: no skeleton row, the table never busy.
    expect(table().getAttribute('aria-busy')).toBe('false');
    expect(loads()).toBe(1);

    w.update(SUMMER.id, { status: 'done', done: 4, progress: 100, finished_at: Date.now() });
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(checks()).toBe(2);
    expect(statusText('Summer promo')).toBe(text('videoTasks.statusDone'));
    // Done: delete is offered now, cancel no more.
    within(rowOf('Summer promo')!).getByRole('button', {
      name: fill('videoTasks.deleteOf', { name: 'Summer promo' }),
    });
    // Nothing on show is running: no more checks.
    await act(() => vi.advanceTimersByTimeAsync(10 * POLL_MS));
    expect([loads(), checks()]).toEqual([1, 2]);
    // And no timer of the watch is left running.
    const watch = areasOf(w.actors).get(videoTasksArea).watch.getSnapshot();
    expect(watch.hasTag('watching')).toBe(false);
    w.dispose();
  }, 30_000);

  test('a list loaded afresh is newer than the watch’s copy: its rows show at once', async () => {
    const w = world();
    await showList(w);
    const checks = () => w.lists.filter((c) => c.quiet).length;
    w.update(SUMMER.id, { done: 2, progress: 50 });
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(progressText('Summer promo')).toBe(
      fill('videoTasks.doneOfTotal', { done: 2, total: 4 }),
    );
    // The person searches again before the next check: the fresh rows win over the older copy.
    w.update(SUMMER.id, { done: 3, progress: 75 });
    const checked = checks();
    const search = screen.getByRole('search', { name: text('videoTasks.filters') });
    await w.user.click(within(search).getByRole('button', { name: text('filter.search') }));
    for (let i = 0; i < 5; i++) await act(() => vi.advanceTimersByTimeAsync(0));
    expect(checks()).toBe(checked);
    expect(progressText('Summer promo')).toBe(
      fill('videoTasks.doneOfTotal', { done: 3, total: 4 }),
    );
    w.dispose();
  }, 30_000);

  test('the running task filtered away between checks: the watch stops at once', async () => {
    const w = world();
    await showList(w);
    const checks = () => w.lists.filter((c) => c.quiet).length;
    await filterStatus(w, text('videoTasks.statusPartlyDone'));
    expect(rowNames()).toEqual(['Spring sale']);
    // At once: no timer of the watch is left waiting (it would end in a check that asks nothing).
    const watch = areasOf(w.actors).get(videoTasksArea).watch.getSnapshot();
    expect(watch.hasTag('watching')).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(10 * POLL_MS));
    expect(checks(), 'no check: nothing on show runs').toBe(0);
    w.dispose();
  }, 30_000);

  test('a search while a check is under way asks again at once, for the new list', async () => {
    const w = await checkUnderWay();
    const checks = () => w.lists.filter((c) => c.quiet);
    // The answer under way was asked before this list: the watch asks again, about this list.
    await filterStatus(w, text('videoTasks.statusRunning'));
    expect(checks()).toHaveLength(2);
    expect(checks()[1].query).toEqual({ kind: 'mixed', status: 'running', page: 1, limit: 10 });
    w.dispose();
  }, 30_000);

  test('the running task filtered away while a check is under way: the watch stops', async () => {
    const w = await checkUnderWay();
    const checks = () => w.lists.filter((c) => c.quiet);
    await filterStatus(w, text('videoTasks.statusPartlyDone'));
    await w.answerChecks();
    await act(() => vi.advanceTimersByTimeAsync(10 * POLL_MS));
    expect(checks(), 'no check after: nothing on show runs').toHaveLength(1);
    // And no timer of the watch is left running.
    const watch = areasOf(w.actors).get(videoTasksArea).watch.getSnapshot();
    expect(watch.hasTag('watching')).toBe(false);
    w.dispose();
  }, 30_000);

  test('the drawer loads a newer copy: the row behind it shows it at once', async () => {
    const w = world();
    await showList(w);
    w.update(SUMMER.id, { done: 2, progress: 50 });
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(progressText('Summer promo')).toBe(
      fill('videoTasks.doneOfTotal', { done: 2, total: 4 }),
    );
    w.update(SUMMER.id, { done: 3, progress: 75 });
    const checked = w.lists.filter((c) => c.quiet).length;
    await w.user.click(
      within(rowOf('Summer promo')!).getByRole('button', {
        name: fill('videoTasks.detailOf', { name: 'Summer promo' }),
      }),
    );
    for (let i = 0; i < 5; i++) await act(() => vi.advanceTimersByTimeAsync(0));
    within(drawer()!).getByRole('heading', { name: 'Summer promo' });
    expect(w.lists.filter((c) => c.quiet).length).toBe(checked);
    expect(progressText('Summer promo')).toBe(
      fill('videoTasks.doneOfTotal', { done: 3, total: 4 }),
    );
    w.dispose();
  }, 30_000);

  test('the open detail of a running task is checked too: an output finishes in the drawer', async () => {
    const w = world();
    w.server.outputs[SUMMER.id] = [
      output({ id: 201, index: 1, status: 'rendering', progress: 40 }),
    ];
    await showList(w);
    await w.user.click(
      within(rowOf('Summer promo')!).getByRole('button', {
        name: fill('videoTasks.detailOf', { name: 'Summer promo' }),
      }),
    );
    await vi.waitFor(() => within(drawer()!).getByRole('heading', { name: 'Summer promo' }));
    const bar = within(drawer()!).getByRole('progressbar', {
      name: fill('videoTasks.outputProgress', { index: 1 }),
    });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    w.server.outputs[SUMMER.id] = [output({ ...DONE_OUTPUT, id: 201, index: 1 })];
    w.update(SUMMER.id, { status: 'done', done: 4, progress: 100 });
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(w.details.map((d) => d.quiet)).toEqual([false, true]);
    const d = within(drawer()!);
    expect(d.getByTestId('output-status').textContent).toBe(text('videoTasks.outputDone'));
    d.getByLabelText(fill('videoTasks.player', { index: 1, name: 'Summer promo' }));
    expect(d.getByTestId('task-status').textContent).toBe(text('videoTasks.statusDone'));
    await act(() => vi.advanceTimersByTimeAsync(10 * POLL_MS));
    expect(w.details).toHaveLength(2);
    w.dispose();
  }, 30_000);

  test('a failed check waits longer each time (at most MAX_POLL_MS); an answer starts again', async () => {
    const w = world();
    await showList(w);
    const checkTimes: number[] = [];
    const start = Date.now();
    const count = () => w.lists.filter((c) => c.quiet).length;
    w.server.failLists = 3;
    let seen = 0;
    for (let ms = 0; ms <= 40_000; ms += 500) {
      await act(() => vi.advanceTimersByTimeAsync(500));
      if (count() > seen) {
        seen = count();
        checkTimes.push(Date.now() - start);
      }
      if (seen === 5) break;
    }
    // 2 s, then +4, +8, +16 after three failures, then back to +2 after an answer.
    const gaps = checkTimes.map((t, i) => t - (i ? checkTimes[i - 1] : 0));
    expect(gaps).toEqual([2000, 4000, 8000, 16000, 2000]);
    expect(MAX_POLL_MS).toBeGreaterThanOrEqual(16000);
    // Quiet: no error notice for the person.
    expect(screen.queryByText(text('http.networkError'))).toBeNull();
    w.dispose();
  }, 30_000);

  test('the watch goes on while the page is not shown, and the page shows the progress on return', async () => {
    const w = world();
    const router = createMemoryRouter(
      [
        { path: '/creation/mixed-task', element: <MixedTaskPage /> },
        { path: '*', element: <p>Elsewhere</p> },
      ],
      { initialEntries: ['/creation/mixed-task'] },
    );
    render(
      <Providers actors={w.actors}>
        <RouterProvider router={router} />
      </Providers>,
    );
    await vi.waitFor(() => expect(rowOf('Summer promo')).not.toBeNull(), { timeout: 5000 });
    await act(() => router.navigate('/home/index'));
    screen.getByText('Elsewhere');
    w.update(SUMMER.id, { done: 3, progress: 75 });
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(w.lists.filter((c) => c.quiet)).toHaveLength(1);
    await act(() => router.navigate('/creation/mixed-task'));
    await vi.waitFor(() => expect(rowOf('Summer promo')).not.toBeNull());
    expect(progressText('Summer promo')).toBe(
      fill('videoTasks.doneOfTotal', { done: 3, total: 4 }),
    );
    // Not restarted: the list was loaded once, the watch kept its rhythm.
    expect(w.lists.filter((c) => !c.quiet)).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(w.lists.filter((c) => c.quiet)).toHaveLength(2);
    router.dispose();
    w.dispose();
  }, 30_000);

  test('switching tabs: the kept page is not rebuilt, the watch runs on behind the other tab', async () => {
    const w = world({ tabBar: true });
    const HOME = '/home/index';
    const TASKS = '/creation/mixed-task';
    const router = createMemoryRouter(
      [
        {
          id: 'root',
          Component: Shell,
          children: [
            { path: HOME, Component: () => <p>Home page</p> },
            { path: TASKS, Component: MixedTaskPage },
          ],
        },
      ],
      { initialEntries: [HOME] },
    );
    render(
      <Providers actors={w.actors}>
        <RouterProvider router={router} />
      </Providers>,
    );
    await vi.waitFor(() => screen.getByText('Home page'), { timeout: 5000 });
    await act(() => router.navigate(TASKS));
    await vi.waitFor(() => expect(rowOf('Summer promo')).not.toBeNull(), { timeout: 5000 });
    const kept = table();
    const tab = (name: string) =>
      within(screen.getByRole('tablist', { name: text('tabs.label') })).getByRole('tab', {
        name,
        hidden: true,
      });
    fireEvent.click(tab(text('route.home')));
    await act(() => vi.advanceTimersByTimeAsync(20));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(HOME));
    // Behind the Home tab, two checks: the task moves on.
    w.update(SUMMER.id, { done: 2, progress: 50 });
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    w.update(SUMMER.id, { done: 3, progress: 75 });
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(w.lists.filter((c) => c.quiet)).toHaveLength(2);
    fireEvent.click(tab(text('route.mixedTask')));
    await act(() => vi.advanceTimersByTimeAsync(20));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(TASKS));
    // The same table (kept alive), showing what the watch learnt; loaded once, never reloaded.
    expect(table()).toBe(kept);
    expect(progressText('Summer promo')).toBe(
      fill('videoTasks.doneOfTotal', { done: 3, total: 4 }),
    );
    expect(w.lists.filter((c) => !c.quiet)).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(w.lists.filter((c) => c.quiet)).toHaveLength(3);
    router.dispose();
    w.dispose();
  }, 30_000);

  test('a notification’s link (?task=) opens the task’s drawer, then leaves the address', async () => {
    const w = world({ tasks: [SPRING] });
    renderAt(
      w.actors,
      <>
        <MixedTaskPage />
        <Where />
      </>,
      `/creation/mixed-task?task=${SPRING.id}`,
    );
    await vi.waitFor(() => within(drawer()!).getByRole('heading', { name: 'Spring sale' }), {
      timeout: 5000,
    });
    expect(w.details.map((d) => d.id)).toContain(SPRING.id);
    expect(screen.getByTestId('where').textContent).toBe('/creation/mixed-task');
    w.dispose();
  }, 30_000);

  test('taskAdded (the create forms’ call) reloads the list and opens the new task, watched', async () => {
    const w = world({ tasks: [SPRING] });
    await showList(w);
    const fresh = task({ id: 3, name: 'Autumn', status: 'pending', total: 2 });
    w.server.tasks = [fresh, SPRING];
    await act(async () => {
      areasOf(w.actors).get(videoTasksArea).taskAdded('mixed', fresh.id);
      await vi.advanceTimersByTimeAsync(0);
    });
    await vi.waitFor(() => expect(rowNames()).toEqual(['Autumn', 'Spring sale']));
    await vi.waitFor(() => within(drawer()!).getByRole('heading', { name: 'Autumn' }));
    w.update(3, { status: 'running', done: 1, progress: 50 });
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(progressText('Autumn')).toBe(fill('videoTasks.doneOfTotal', { done: 1, total: 2 }));
    w.dispose();
  }, 30_000);
});
