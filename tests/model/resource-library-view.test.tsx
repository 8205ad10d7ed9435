/**
 * The resource library page (/creation/resource) driven as a merchant would, against
 * hand-written oracles:
 * - the library machine (src/machines/resource-library.ts): its shortest paths only propose event
 *   sequences; each step is a click on the page (a poster's checkbox, "Select all on this page",
 *   "Clear selection", a poster, the preview's close button) or a filter the person applies (the
 *   list then shows other rows: the area tells the machine, an event between actors); after each
 *   step what the person sees is checked from SELECTION / PREVIEW below;
 * - the list on the page (skeleton, grid, empty, no match, error and retry) with a pending fake
 *   endpoint settling;
 * - every dialog (rename, move, delete one, delete the selection, new group, rename group, delete
 *   group) opened by its button, refused once, sent again and saved: the area then reloads the
 *   list and/or the groups (events between its actors), never the view;
 * - a new resource from the uploads area reloads the list and the group counts.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type {
  GroupListReply,
  Resource,
  ResourceGroup,
  ResourcePage,
  UploadTokenReply,
} from '../../src/api/contract/resources';
import { provideArea } from '../../src/app/actors/areas';
import { resourcesArea, type ResourcesEndpoints } from '../../src/app/actors/resources';
import { uploadsArea, type UploadsEndpoints } from '../../src/app/actors/uploads';
import { removeAllNotices } from '../../src/components/toaster';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { fill, text } from './messages';
import { localeStore } from '../../src/i18n/locale-store';
import {
  resourceLibraryMachine,
  type ResourceLibraryEvent,
} from '../../src/machines/resource-library';
import ResourceLibraryPage from '../../src/views/creation/resource-page';
import { replyError } from './fixtures';
import { shopAuth } from './video-task-fixtures';
import {
  coverRows,
  fakeEndpoints,
  pathName,
  person,
  rowsUsed,
  runUiPath,
  withoutPrefixes,
  type EventPath,
} from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const resource = (over: Partial<Resource> & Pick<Resource, 'id' | 'type' | 'name'>): Resource => ({
  group_id: null,
  url: `/api/v1/files/${over.id}?exp=1&sig=s`,
  cover: `/api/v1/files/${over.id}-poster?exp=1&sig=s`,
  content_type: 'video/mp4',
  size: 1024,
  duration: null,
  width: null,
  height: null,
  codec: null,
  created_at: 0,
  ...over,
});
const VIDEO = resource({
  id: 1,
  type: 'video',
  name: 'Beach clip',
  size: 1_572_864,
  duration: 65,
  width: 1280,
  height: 720,
});
const IMAGE = resource({
  id: 2,
  type: 'image',
  name: 'Logo',
  content_type: 'image/png',
  size: 204_800,
  group_id: 5,
});
const FONT = resource({
  id: 3,
  type: 'font',
  name: 'Title font',
  content_type: 'font/ttf',
  cover: null,
  size: 3_145_728,
});
const GROUP: ResourceGroup = { id: 5, name: 'Brand', count: 1 };
const GROUPS: GroupListReply = { list: [GROUP], ungrouped: 2 };
const REFUSAL = 'That name is taken';

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
});

/** Fake uploads: a chosen file is granted, sent and added at once (unless told to wait). */
function fakeUploads(added: Resource): UploadsEndpoints {
  const grant: UploadTokenReply = {
    upload_key: 'k'.repeat(20),
    expire_at: Date.now() + 3_600_000,
    method: 'tus',
    tus: { endpoint: '/api/v1/upload/tus', headers: {} },
    multipart: null,
  };
  return {
    requestUploadGrant: async () => grant,
    transfer: () => ({ done: Promise.resolve(), abort: () => {} }),
    discardTransfer: async () => {},
    addResource: async () => added,
    getQuota: async () => ({ used: 0, quota: 10 * 1024 ** 3 }),
    records: { load: () => [], save: () => {} },
    now: () => Date.now(),
  };
}

interface Options {
  /** The list's rows when no filter narrows them. */
  rows?: Resource[];
  /** The list call stays pending until the test settles it. */
  pendingList?: boolean;
}

/** A merchant on /creation/resource with fake endpoints of the resources and uploads areas. */
async function setup(options: Options = {}) {
  const rows = options.rows ?? [VIDEO, IMAGE, FONT];
  const endpoints = fakeEndpoints();
  const auth = shopAuth();
  const actors = appActors({ auth });
  const queries: Record<string, unknown>[] = [];
  let groupLoads = 0;
  const list: ResourcesEndpoints['getResources'] = async (query) => {
    queries.push({ ...query });
    const keyword = typeof query.keyword === 'string' ? query.keyword.toLowerCase() : '';
    const shown = rows.filter(
      (r) =>
        (!keyword || r.name.toLowerCase().includes(keyword)) &&
        (!query.type || r.type === query.type) &&
        (query.group_id === undefined || (r.group_id ?? 0) === query.group_id),
    );
    return { list: shown, total: shown.length } satisfies ResourcePage;
  };
  provideArea(actors, resourcesArea, {
    getResources: options.pendingList
      ? (((query: Record<string, unknown>) => {
          queries.push({ ...query });
          return endpoints.endpoint('getResources')(query);
        }) as never)
      : list,
    editResource: endpoints.endpoint('editResource') as never,
    deleteResources: endpoints.endpoint('deleteResources') as never,
    getGroups: async () => {
      groupLoads += 1;
      return GROUPS;
    },
    addGroup: endpoints.endpoint('addGroup') as never,
    editGroup: endpoints.endpoint('editGroup') as never,
    deleteGroup: endpoints.endpoint('deleteGroup') as never,
  });
  provideArea(actors, uploadsArea, fakeUploads(resource({ id: 4, type: 'image', name: 'New' })));
  renderAt(actors, <ResourceLibraryPage />, '/creation/resource');
  const user = person();
  await vi.waitFor(() => screen.getByRole('heading', { name: text('route.resource') }), {
    timeout: 5000,
  });
  if (!options.pendingList) {
    await vi.waitFor(
      () =>
        screen.queryByRole('list', { name: text('resources.list') }) ??
        screen.getByTestId('resource-empty'),
      { timeout: 5000 },
    );
  }
  const dialog = () => {
    const open = screen.queryAllByRole('dialog').filter(isOpen);
    expect(open.length).toBeLessThanOrEqual(1);
    return open[0] ?? null;
  };
  const button = (name: string) => screen.getByRole('button', { name });
  const applyKeyword = async (keyword: string) => {
    const search = screen.getByRole('search', { name: text('resources.filters') });
    const field = within(search).getByRole('textbox', { name: text('resources.keyword') });
    await user.clear(field);
    if (keyword) await user.type(field, keyword);
    await user.click(within(search).getByRole('button', { name: text('filter.search') }));
  };
  return {
    endpoints,
    user,
    dialog,
    button,
    applyKeyword,
    queries,
    listLoads: () => queries.length,
    groupLoads: () => groupLoads,
    dispose: () => actors.dispose(),
  };
}
type World = Awaited<ReturnType<typeof setup>>;

// ---------------------------------------------------------------------------------------------
// The selection: two posters, "a" (Beach clip) and "b" (Logo). States name what is selected.
// SHOWN b: the person finds "Logo" by name (then clears the filter): only b was still shown.

const SELECTION: Record<string, string> = {
  'none TOGGLE a': 'a',
  'none TOGGLE b': 'b',
  'none SELECT_PAGE': 'ab',
  'a TOGGLE a': 'none',
  'a TOGGLE b': 'ab',
  'a SELECT_PAGE': 'ab',
  'a CLEAR': 'none',
  'a SHOWN b': 'none',
  'b TOGGLE a': 'ab',
  'b TOGGLE b': 'none',
  'b SELECT_PAGE': 'ab',
  'b CLEAR': 'none',
  'b SHOWN b': 'b',
  'ab TOGGLE a': 'b',
  'ab TOGGLE b': 'a',
  'ab CLEAR': 'none',
  // Every poster selected: "Select all on this page" is ticked; unticking it clears.
  'ab CLEAR (untick page)': 'none',
  'ab SHOWN b': 'b',
};

const A = VIDEO;
const B = IMAGE;
type LibEvent = ResourceLibraryEvent;
/** Marks the CLEAR a person sends by unticking "Select all on this page". */
const untick = 'untick';
const selectionLabel = (e: LibEvent) => {
  if (e.type === 'TOGGLE') return `TOGGLE ${e.id === A.id ? 'a' : 'b'}`;
  if (e.type === 'SHOWN') return 'SHOWN b';
  if (e.type === 'CLEAR' && untick in e) return 'CLEAR (untick page)';
  return e.type.replace(/^xstate\./, '');
};

function selectionPaths() {
  const events: LibEvent[] = [
    { type: 'TOGGLE', id: A.id },
    { type: 'TOGGLE', id: B.id },
    { type: 'SELECT_PAGE', ids: [A.id, B.id] },
    { type: 'CLEAR' },
    { type: 'CLEAR', [untick]: true } as LibEvent,
    { type: 'SHOWN', ids: [B.id] },
  ];
  const paths = getShortestPaths(resourceLibraryMachine, {
    // What a person can do: "Select all" ticks a page not all selected, unticks one that is.
    events: (s) =>
      events.filter((e) => {
        const all = s.context.selected.length === 2;
        if (e.type === 'SELECT_PAGE' && all) return false;
        if (selectionLabel(e) === 'CLEAR (untick page)' && !all) return false;
        return s.can(e as never);
      }),
    serializeState: (s, e) =>
      JSON.stringify([[...s.context.selected].sort(), e ? selectionLabel(e as LibEvent) : '']),
  });
  return withoutPrefixes(
    coverRows(paths as EventPath<LibEvent>[], {
      initial: 'none',
      transitions: SELECTION,
      label: selectionLabel,
    }),
    (e) => selectionLabel(e as LibEvent),
  );
}

describe('the selection (library machine)', () => {
  const rows = rowsUsed();
  const sees = (state: string) => () => {
    const checked = (r: Resource) =>
      (
        screen.getByRole('checkbox', {
          name: fill('resources.select', { name: r.name }),
        }) as HTMLInputElement
      ).checked;
    expect(checked(A)).toBe(state.includes('a'));
    expect(checked(B)).toBe(state.includes('b'));
    const count = state === 'none' ? 0 : state.length;
    const remove = screen.getByRole('button', {
      name: fill('resources.deleteSelected', { count }),
    }) as HTMLButtonElement;
    expect(remove.disabled).toBe(count === 0);
    const clear = screen.getByRole('button', {
      name: text('resources.clearSelection'),
    }) as HTMLButtonElement;
    expect(clear.disabled).toBe(count === 0);
    const all = screen.getByRole('checkbox', {
      name: text('resources.selectPage'),
    }) as HTMLInputElement;
    expect(all.checked).toBe(count === 2);
  };
  test.each(selectionPaths().map((p) => [pathName(p, selectionLabel), p] as const))(
    '%s',
    async (_, path) => {
      const world = await setup({ rows: [A, B] });
      const toggle = (r: Resource) =>
        world.user.click(
          screen.getByRole('checkbox', { name: fill('resources.select', { name: r.name }) }),
        );
      await runUiPath(
        path,
        {
          initial: 'none',
          transitions: SELECTION,
          label: selectionLabel,
          sees: Object.fromEntries(['none', 'a', 'b', 'ab'].map((s) => [s, sees(s)])),
          exec: async (event) => {
            switch (event.type) {
              case 'TOGGLE':
                return toggle(event.id === A.id ? A : B);
              case 'SELECT_PAGE':
                return world.user.click(
                  screen.getByRole('checkbox', { name: text('resources.selectPage') }),
                );
              case 'CLEAR':
                if (untick in event) {
                  return world.user.click(
                    screen.getByRole('checkbox', { name: text('resources.selectPage') }),
                  );
                }
                return world.user.click(world.button(text('resources.clearSelection')));
              case 'SHOWN':
                await world.applyKeyword(B.name);
                await vi.waitFor(() => expect(screen.queryByText(A.name)).toBeNull());
                await world.applyKeyword('');
                await vi.waitFor(() => screen.getByText(A.name));
                return;
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
          },
        },
        rows.used,
      );
      world.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(SELECTION)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The preview: a video plays, an image is shown, a font has no preview.

const PREVIEW: Record<string, string> = {
  'closed PREVIEW video': 'player',
  'closed PREVIEW image': 'image',
  'closed PREVIEW font': 'facts',
  'player CLOSE_PREVIEW': 'closed',
  'image CLOSE_PREVIEW': 'closed',
  'facts CLOSE_PREVIEW': 'closed',
};
const previewLabel = (e: LibEvent) =>
  e.type === 'PREVIEW' ? `PREVIEW ${e.resource.type}` : e.type.replace(/^xstate\./, '');

function previewPaths() {
  const events: LibEvent[] = [
    { type: 'PREVIEW', resource: VIDEO },
    { type: 'PREVIEW', resource: IMAGE },
    { type: 'PREVIEW', resource: FONT },
    { type: 'CLOSE_PREVIEW' },
  ];
  const paths = getShortestPaths(resourceLibraryMachine, {
    events: (s) => events.filter((e) => s.can(e as never)),
    serializeState: (s, e) =>
      JSON.stringify([s.context.preview?.id ?? null, e ? previewLabel(e as LibEvent) : '']),
  });
  return withoutPrefixes(
    coverRows(paths as EventPath<LibEvent>[], {
      initial: 'closed',
      transitions: PREVIEW,
      label: previewLabel,
    }),
    (e) => previewLabel(e as LibEvent),
  );
}

describe('the preview (library machine)', () => {
  const rows = rowsUsed();
  test.each(previewPaths().map((p) => [pathName(p, previewLabel), p] as const))(
    '%s',
    async (_, path) => {
      const world = await setup();
      let open: Resource | null = null;
      const sees = (state: string) => () => {
        const dialog = world.dialog();
        if (state === 'closed') {
          expect(dialog).toBeNull();
          return;
        }
        const w = within(dialog!);
        w.getByRole('heading', { name: open!.name });
        const player = dialog!.querySelector('video');
        const img = w.queryByRole('img', { name: open!.name });
        expect(player?.getAttribute('src') ?? null).toBe(state === 'player' ? VIDEO.url : null);
        if (state === 'player') expect(player!.hasAttribute('controls')).toBe(true);
        expect(img?.getAttribute('src') ?? null).toBe(state === 'image' ? IMAGE.url : null);
        expect(w.queryByText(text('resources.noPreview')) !== null).toBe(state === 'facts');
        if (state === 'player') w.getByText(/01:05 · 1280×720 · 1\.5 MB/);
      };
      await runUiPath(
        path,
        {
          initial: 'closed',
          transitions: PREVIEW,
          label: previewLabel,
          sees: Object.fromEntries(['closed', 'player', 'image', 'facts'].map((s) => [s, sees(s)])),
          exec: async (event) => {
            if (event.type === 'PREVIEW') {
              open = event.resource;
              return world.user.click(
                world.button(fill('resources.preview', { name: event.resource.name })),
              );
            }
            return world.user.click(
              within(world.dialog()!).getByRole('button', { name: text('form.close') }),
            );
          },
        },
        rows.used,
      );
      world.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(PREVIEW)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The list on the page: skeleton, grid, empty, no match, error and retry.

describe('the list', () => {
  test('loading shows a skeleton; a failure says so with Retry; Retry loads the grid', async () => {
    const world = await setup({ pendingList: true });
    screen.getByRole('status', { name: text('resources.loading') });
    await world.endpoints.settle('getResources', 'error', replyError('down', 'transport'));
    screen.getByText(text('load.failed'));
    await world.user.click(world.button(text('load.retry')));
    screen.getByRole('status', { name: text('resources.loading') });
    await world.endpoints.settle('getResources', 'done', { list: [VIDEO], total: 1 });
    const grid = screen.getByRole('list', { name: text('resources.list') });
    const card = within(grid).getByRole('listitem');
    within(card).getByText('Beach clip');
    within(card).getByText('01:05');
    within(card).getByText('1.5 MB');
    within(card).getByText(text('uploads.typeVideo'));
    world.dispose();
  });

  test('no resources at all: says so; none match the filters: says so with Clear filters', async () => {
    const world = await setup({ rows: [] });
    expect(screen.getByTestId('resource-empty').textContent).toContain(text('resources.empty'));
    expect(screen.queryByRole('button', { name: text('resources.clearFilters') })).toBeNull();
    world.dispose();
    cleanup();
    const again = await setup({ rows: [VIDEO] });
    await again.applyKeyword('nothing');
    await vi.waitFor(() => screen.getByTestId('resource-empty'));
    expect(screen.getByTestId('resource-empty').textContent).toContain(text('resources.noMatch'));
    await again.user.click(again.button(text('resources.clearFilters')));
    await vi.waitFor(() => screen.getByText('Beach clip'));
    again.dispose();
  });

  test('type, keyword and group filters go to the list call; a group shows its own', async () => {
    const world = await setup();
    const search = screen.getByRole('search', { name: text('resources.filters') });
    await world.user.selectOptions(
      within(search).getByRole('combobox', { name: text('resources.type') }),
      'image',
    );
    await world.user.type(
      within(search).getByRole('textbox', { name: text('resources.keyword') }),
      'lo',
    );
    await world.user.click(within(search).getByRole('button', { name: text('filter.search') }));
    await vi.waitFor(() => expect(screen.queryByText('Beach clip')).toBeNull());
    expect(world.queries.at(-1)).toEqual({ type: 'image', keyword: 'lo', page: 1, limit: 24 });
    screen.getByText('Logo');
    const groups = screen.getByRole('navigation', { name: text('resources.groups') });
    await world.user.click(
      within(groups).getByRole('button', {
        name: fill('resources.groupWithCount', { name: text('resources.ungrouped'), count: 2 }),
      }),
    );
    expect(world.queries.at(-1)).toEqual({
      type: 'image',
      keyword: 'lo',
      group_id: 0,
      page: 1,
      limit: 24,
    });
    await vi.waitFor(() => screen.getByTestId('resource-empty'));
    await world.user.click(
      within(groups).getByRole('button', {
        name: fill('resources.groupWithCount', { name: 'Brand', count: 1 }),
      }),
    );
    expect(world.queries.at(-1)).toMatchObject({ group_id: 5 });
    await vi.waitFor(() => screen.getByText('Logo'));
    world.dispose();
  });
});

// ---------------------------------------------------------------------------------------------
// The dialogs: each opened by its button, refused once (the server's sentence), sent again and
// saved; then the dialog is gone and the area reloaded what shows the change.

interface DialogCase {
  name: string;
  open: (w: World) => Promise<void>;
  title: string;
  submit: string;
  /** Fills the form before the first submit (rename: a new name). */
  fill?: (w: World, dialog: HTMLElement) => Promise<void>;
  endpoint: string;
  /** The body of the call. */
  body: unknown;
  reply: unknown;
  /** Reloads the area does after the save: [list, groups]. */
  reloads: [number, number];
  /** What else the person sees after the save. */
  after?: () => void;
}

const actionOf = (id: MessageId, r: Resource) => fill(id, { name: r.name });

const DIALOGS: DialogCase[] = [
  {
    name: 'rename',
    open: (w) => w.user.click(w.button(actionOf('resources.rename', VIDEO))),
    title: fill('resources.renameTitle', { name: VIDEO.name }),
    submit: text('form.save'),
    fill: async (w, d) => {
      const input = within(d).getByRole('textbox', { name: text('resources.name') });
      await w.user.clear(input);
      await w.user.type(input, ' Sea clip ');
    },
    endpoint: 'editResource',
    body: { id: 1, name: 'Sea clip' },
    reply: { ...VIDEO, name: 'Sea clip' },
    reloads: [1, 0],
  },
  {
    name: 'move to a group',
    open: (w) => w.user.click(w.button(actionOf('resources.move', VIDEO))),
    title: fill('resources.moveTitle', { name: VIDEO.name }),
    submit: text('resources.moveSubmit'),
    fill: async (w, d) => {
      await w.user.selectOptions(
        within(d).getByRole('combobox', { name: text('resources.group') }),
        '5',
      );
    },
    endpoint: 'editResource',
    body: { id: 1, group_id: 5 },
    reply: { ...VIDEO, group_id: 5 },
    reloads: [1, 1],
  },
  {
    name: 'delete one',
    open: (w) => w.user.click(w.button(actionOf('resources.deleteOne', FONT))),
    title: text('resources.deleteTitle'),
    submit: text('resources.delete'),
    endpoint: 'deleteResources',
    body: { ids: [3] },
    reply: { count: 1 },
    reloads: [1, 1],
  },
  {
    name: 'delete the selection',
    open: async (w) => {
      await w.user.click(
        screen.getByRole('checkbox', { name: actionOf('resources.select', VIDEO) }),
      );
      await w.user.click(
        screen.getByRole('checkbox', { name: actionOf('resources.select', FONT) }),
      );
      await w.user.click(w.button(fill('resources.deleteSelected', { count: 2 })));
    },
    title: text('resources.deleteTitle'),
    submit: text('resources.delete'),
    endpoint: 'deleteResources',
    body: { ids: [1, 3] },
    reply: { count: 2 },
    reloads: [1, 1],
    // The deleted ones are no longer selected (the fake list still shows them).
    after: () => {
      const none = screen.getByRole('button', {
        name: fill('resources.deleteSelected', { count: 0 }),
      }) as HTMLButtonElement;
      expect(none.disabled).toBe(true);
    },
  },
  {
    name: 'new group',
    open: (w) => w.user.click(w.button(text('resources.newGroup'))),
    title: text('resources.newGroup'),
    submit: text('resources.create'),
    fill: async (w, d) => {
      await w.user.type(
        within(d).getByRole('textbox', { name: text('resources.groupName') }),
        'Ads',
      );
    },
    endpoint: 'addGroup',
    body: { name: 'Ads' },
    reply: { id: 6, name: 'Ads', count: 0 },
    reloads: [0, 1],
  },
  {
    name: 'rename group',
    open: (w) => w.user.click(w.button(fill('resources.renameGroup', { name: 'Brand' }))),
    title: fill('resources.renameGroupTitle', { name: 'Brand' }),
    submit: text('form.save'),
    fill: async (w, d) => {
      const input = within(d).getByRole('textbox', { name: text('resources.groupName') });
      await w.user.clear(input);
      await w.user.type(input, 'Logos');
    },
    endpoint: 'editGroup',
    body: { id: 5, name: 'Logos' },
    reply: { id: 5, name: 'Logos', count: 1 },
    reloads: [0, 1],
  },
  {
    name: 'delete group',
    open: (w) => w.user.click(w.button(fill('resources.deleteGroup', { name: 'Brand' }))),
    title: fill('resources.deleteGroupTitle', { name: 'Brand' }),
    submit: text('resources.delete'),
    endpoint: 'deleteGroup',
    body: { id: 5 },
    reply: null,
    reloads: [1, 1],
  },
];

describe.each(DIALOGS)('the $name dialog', (d) => {
  test('opens, shows a refusal, sends again and saves; the area reloads what shows it', async () => {
    const world = await setup();
    const lists = world.listLoads();
    const groups = world.groupLoads();
    await d.open(world);
    const dialog = world.dialog()!;
    expect(dialog).not.toBeNull();
    within(dialog).getByRole('heading', { name: d.title });
    if (d.name === 'delete group') {
      within(dialog).getByText(/1 resource moves to Ungrouped/);
    }
    await d.fill?.(world, dialog);
    await world.user.click(within(dialog).getByRole('button', { name: d.submit }));
    expect(world.endpoints.calls.at(-1)).toEqual({ name: d.endpoint, input: [d.body] });
    expect(within(dialog).getByRole('button', { name: d.submit }).getAttribute('aria-busy')).toBe(
      'true',
    );
    await world.endpoints.settle(d.endpoint, 'error', replyError(REFUSAL));
    expect(within(world.dialog()!).getByRole('alert').textContent).toContain(REFUSAL);
    expect(world.listLoads()).toBe(lists);
    await world.user.click(within(world.dialog()!).getByRole('button', { name: d.submit }));
    expect(world.endpoints.calls.at(-1)).toEqual({ name: d.endpoint, input: [d.body] });
    await world.endpoints.settle(d.endpoint, 'done', d.reply);
    expect(world.dialog()).toBeNull();
    expect([world.listLoads() - lists, world.groupLoads() - groups]).toEqual(d.reloads);
    d.after?.();
    world.dispose();
  });

  test('Cancel closes it and calls nothing', async () => {
    const world = await setup();
    await d.open(world);
    await world.user.click(
      within(world.dialog()!).getByRole('button', { name: text('form.cancel') }),
    );
    expect(world.dialog()).toBeNull();
    expect(world.endpoints.calls).toEqual([]);
    world.dispose();
  });
});

// Forms one way (docs/architecture.md "Forms"): the dialogs' drafts are their machines'.
test('rename: a name of spaces is refused in the form and sends nothing; reopened, the form is the row’s again', async () => {
  const world = await setup();
  const open = async () => {
    await world.user.click(world.button(actionOf('resources.rename', VIDEO)));
    return within(world.dialog()!);
  };
  const name = (d: ReturnType<typeof within>) =>
    d.getByRole('textbox', { name: text('resources.name') }) as HTMLInputElement;
  let d = await open();
  await world.user.clear(name(d));
  await world.user.type(name(d), '   ');
  await world.user.click(d.getByRole('button', { name: text('form.save') }));
  d.getByText(text('validation.resourceName'));
  expect(name(d).getAttribute('aria-invalid')).toBe('true');
  expect(world.endpoints.calls).toEqual([]);

  await world.user.click(d.getByRole('button', { name: text('form.cancel') }));
  expect(world.dialog()).toBeNull();
  d = await open();
  expect(name(d).value).toBe(VIDEO.name);
  expect(d.queryByText(text('validation.resourceName'))).toBeNull();
  expect(world.endpoints.calls).toEqual([]);
  world.dispose();
});

test('move and new group: reopened after a change, each form is fresh', async () => {
  const world = await setup();
  const cancel = () =>
    world.user.click(within(world.dialog()!).getByRole('button', { name: text('form.cancel') }));
  const openMove = async () => {
    await world.user.click(world.button(actionOf('resources.move', VIDEO)));
    return within(world.dialog()!).getByRole('combobox', {
      name: text('resources.group'),
    }) as HTMLSelectElement;
  };
  await world.user.selectOptions(await openMove(), '5');
  await cancel();
  expect((await openMove()).value).toBe(String(VIDEO.group_id ?? 0));
  await cancel();

  const openAdd = async () => {
    await world.user.click(world.button(text('resources.newGroup')));
    return within(world.dialog()!);
  };
  let d = await openAdd();
  const groupName = () =>
    d.getByRole('textbox', { name: text('resources.groupName') }) as HTMLInputElement;
  await world.user.type(groupName(), '  ');
  await world.user.click(d.getByRole('button', { name: text('resources.create') }));
  d.getByText(text('validation.groupName'));
  await cancel();
  d = await openAdd();
  expect(groupName().value).toBe('');
  expect(d.queryByText(text('validation.groupName'))).toBeNull();
  expect(world.endpoints.calls).toEqual([]);
  world.dispose();
});

test('deleting the group the list shows moves the list to Ungrouped, where its resources went', async () => {
  const world = await setup();
  const groups = screen.getByRole('navigation', { name: text('resources.groups') });
  await world.user.click(
    within(groups).getByRole('button', {
      name: fill('resources.groupWithCount', { name: 'Brand', count: 1 }),
    }),
  );
  expect(world.queries.at(-1)).toMatchObject({ group_id: 5 });
  await world.user.click(world.button(fill('resources.deleteGroup', { name: 'Brand' })));
  await world.user.click(
    within(world.dialog()!).getByRole('button', { name: text('resources.delete') }),
  );
  await world.endpoints.settle('deleteGroup', 'done', null);
  expect(world.queries.at(-1)).toMatchObject({ group_id: 0 });
  world.dispose();
});

test('a name the contract refuses is said in the form and not sent', async () => {
  const world = await setup();
  await world.user.click(world.button(text('resources.newGroup')));
  await world.user.click(
    within(world.dialog()!).getByRole('button', { name: text('resources.create') }),
  );
  within(world.dialog()!).getByText(enUS['validation.groupName']);
  expect(world.endpoints.calls).toEqual([]);
  world.dispose();
});

test('a resource an upload added reloads the list and the group counts (uploads area → library)', async () => {
  const world = await setup();
  const lists = world.listLoads();
  const groups = world.groupLoads();
  const input = screen.getByLabelText(text('uploads.chooseFiles'));
  await world.user.upload(
    input as HTMLInputElement,
    new File(['x'], 'new.mp4', { type: 'video/mp4' }),
  );
  await vi.waitFor(() => expect(world.listLoads()).toBe(lists + 1));
  expect(world.groupLoads()).toBe(groups + 1);
  world.dispose();
});
