/**
 * The upload machine (src/machines/upload.ts) through the real drop zone and queue views over the
 * real uploads area (src/app/actors/uploads.ts) on fake endpoints, against a hand-written oracle:
 * the machine's shortest paths only propose event sequences; each step is a person's action (a
 * click on a button found by role and name, a file chosen in the picker) or a fake endpoint
 * settling, and the state after it comes from the table below, asserted on screen.
 *
 * Two other files keep both upload slots busy, so the file under test waits ("Waiting") until a
 * slot frees: the queue's START is the person cancelling one of them (and RESUME / RETRY first
 * add another file, which takes the free slot).
 */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { QuotaReply, Resource, UploadTokenReply } from '../../src/api/contract/resources';
import type { TransferJob } from '../../src/api/uploads';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import {
  uploadsArea,
  type UploadRecord,
  type UploadsEndpoints,
} from '../../src/app/actors/uploads';
import { removeAllNotices } from '../../src/components/toaster';
import { localeStore } from '../../src/i18n/locale-store';
import { authMachine } from '../../src/machines/auth';
import { uploadMachine, type UploadEvent, type UploadInput } from '../../src/machines/upload';
import { UploadDropZone } from '../../src/views/shared/upload-drop-zone';
import { UploadQueue } from '../../src/views/shared/upload-queue';
import { text } from './cards-world';
import { replyError, userFixture } from './fixtures';
import {
  coverRows,
  fakeEndpoints,
  pathName,
  person,
  rowsUsed,
  runUiPath,
  settle,
  withoutPrefixes,
} from './ui-paths';
import { appActors, renderAt } from './view-harness';

const NAME = 'clip.mp4';
const SIZE = 2000;
const MODIFIED = 1_700_000_000_000;
const file = (name = NAME, size = SIZE, lastModified = MODIFIED) =>
  new File(['x'.repeat(size)], name, { type: 'video/mp4', lastModified });

const GRANT: UploadTokenReply = {
  upload_key: 'k'.repeat(24),
  expire_at: Date.UTC(2030, 0, 1),
  method: 'tus',
  tus: { endpoint: '/api/v1/upload/tus', headers: { 'Upload-Grant': 'g' } },
  multipart: null,
};
const RESOURCE: Resource = {
  id: 41,
  type: 'video',
  name: NAME,
  group_id: 3,
  url: '/api/v1/files/x',
  cover: null,
  content_type: 'video/mp4',
  size: SIZE,
  duration: 2,
  width: 1280,
  height: 720,
  codec: 'h264',
  created_at: 0,
};
const QUOTA: QuotaReply = { used: 5 * 1024 * 1024, quota: 10 * 1024 * 1024 * 1024 };
/** The server's sentences (already in the viewer's locale). */
const NOT_A_VIDEO = 'The file is not a video';
const OVER_QUOTA = 'Your storage is full';
/** 40 % of the file reached the server. */
const SENT = (SIZE * 40) / 100;

// ---------------------------------------------------------------------------------------------
// The oracle, written by hand: a file waits for a slot, gets a grant, uploads with
// progress (pause / resume continue from what the server has), is checked and becomes a
// resource; a lost connection may be retried from the step that failed, a refusal is final;
// after a reload the person chooses the same file again to resume.

const TRANSITIONS: Record<string, string> = {
  'waiting START': 'preparing',
  'waiting CANCEL': 'cancelled',
  'preparing done requestGrant': 'uploading',
  'preparing error requestGrant (lost)': 'failed (grant)',
  'preparing error requestGrant (refused)': 'refused (quota)',
  'preparing CANCEL': 'cancelled',
  'uploading PROGRESS': 'uploading 40%',
  'uploading PAUSE': 'paused',
  'uploading CANCEL': 'cancelled',
  'uploading TRANSFERRED': 'checking',
  'uploading TRANSFER_FAILED (lost)': 'failed (transfer)',
  'uploading TRANSFER_FAILED (refused)': 'refused (content)',
  'uploading 40% PROGRESS': 'uploading 40%',
  'uploading 40% PAUSE': 'paused 40%',
  'uploading 40% CANCEL': 'cancelled',
  'uploading 40% TRANSFERRED': 'checking',
  'uploading 40% TRANSFER_FAILED (lost)': 'failed 40%',
  'uploading 40% TRANSFER_FAILED (refused)': 'refused (content)',
  // Resumed: it waits for a slot like any file, but needs no new grant.
  'paused RESUME': 'waiting, granted',
  'paused CANCEL': 'cancelled',
  'paused 40% RESUME': 'waiting 40%',
  'paused 40% CANCEL': 'cancelled',
  'waiting, granted START': 'uploading',
  'waiting, granted CANCEL': 'cancelled',
  // The bar keeps what the server has until the transfer reports again.
  'waiting 40% START': 'uploading 40%',
  'waiting 40% CANCEL': 'cancelled',
  'failed (grant) RETRY': 'waiting',
  'failed (grant) CANCEL': 'cancelled',
  'failed (transfer) RETRY': 'waiting, granted',
  'failed (transfer) CANCEL': 'cancelled',
  'failed 40% RETRY': 'waiting 40%',
  'failed 40% CANCEL': 'cancelled',
  'checking done addResource': 'done',
  'checking error addResource (lost)': 'failed (check)',
  'checking error addResource (refused)': 'refused (content)',
  // A lost reply of the check is asked again at once (the bytes are all there).
  'failed (check) RETRY': 'checking',
  'failed (check) CANCEL': 'cancelled',
};

/** After a reload: the record of an upload at 40 %. */
const RESTORED_TRANSITIONS: Record<string, string> = {
  'interrupted FILE_CHOSEN (same)': 'waiting 40%',
  'interrupted FILE_CHOSEN (other)': 'interrupted, other file',
  'interrupted CANCEL': 'cancelled',
  'interrupted, other file FILE_CHOSEN (same)': 'waiting 40%',
  'interrupted, other file FILE_CHOSEN (other)': 'interrupted, other file',
  'interrupted, other file CANCEL': 'cancelled',
  'waiting 40% START': 'uploading 40%',
  'waiting 40% CANCEL': 'cancelled',
  'uploading 40% TRANSFERRED': 'checking',
  'uploading 40% PAUSE': 'paused 40%',
  'uploading 40% CANCEL': 'cancelled',
  'checking done addResource': 'done',
};

/**
 * What the area does besides the screen: aborting a transfer (pause, cancel), discarding an
 * unfinished upload once it has a grant (cancel), the quota reloaded and the library told of a
 * new resource.
 */
const EFFECTS: Record<string, string[]> = {
  'uploading PAUSE': ['abort'],
  'uploading 40% PAUSE': ['abort'],
  'uploading CANCEL': ['abort', 'discard'],
  'uploading 40% CANCEL': ['abort', 'discard'],
  'paused CANCEL': ['discard'],
  'paused 40% CANCEL': ['discard'],
  'waiting, granted CANCEL': ['discard'],
  'waiting 40% CANCEL': ['discard'],
  'failed (transfer) CANCEL': ['discard'],
  'failed 40% CANCEL': ['discard'],
  'failed (check) CANCEL': ['discard'],
  'interrupted CANCEL': ['discard'],
  'interrupted, other file CANCEL': ['discard'],
  'checking done addResource': ['quota', `added ${RESOURCE.id}`],
};

type PathEvent = UploadEvent | { type: string; error?: unknown; output?: unknown; by?: string };

const label = (event: PathEvent) => {
  const by = (event as { by?: string }).by;
  const name = event.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');
  return by ? `${name} (${by})` : name;
};

// ---------------------------------------------------------------------------------------------

interface Transfer {
  job: TransferJob;
  resolve: () => void;
  reject: (e: unknown) => void;
}

function uploadWorld(options: { restored?: UploadRecord[]; typeFilter?: boolean } = {}) {
  const endpoints = fakeEndpoints();
  const effects: string[] = [];
  const transfers: Transfer[] = [];
  let records: UploadRecord[] = options.restored ?? [];
  let now = 1_000_000;
  const api: UploadsEndpoints = {
    requestUploadGrant: (query) =>
      endpoints.endpoint<[], UploadTokenReply>(`grant ${query.name}`)(),
    transfer: (job) => {
      let resolve = () => {};
      let reject: (e: unknown) => void = () => {};
      const done = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      transfers.push({ job, resolve, reject });
      // The bytes sent are the chosen file's (after a reload: the file chosen again).
      if (job.file.size !== SIZE) effects.push(`transfer of ${job.file.size} bytes`);
      return { done, abort: () => effects.push('abort') };
    },
    discardTransfer: async () => {
      effects.push('discard');
    },
    addResource: endpoints.endpoint('addResource'),
    getQuota: async () => {
      effects.push('quota');
      return QUOTA;
    },
    records: {
      load: () => records,
      save: (r) => {
        records = r;
      },
    },
    now: () => (now += 500),
  };
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () =>
          userFixture({ accountId: 9, username: 'merchant', user_type: 2 }),
        ),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  provideArea(actors, uploadsArea, api);
  const area = () => areasOf(actors).get(uploadsArea);
  const added: number[] = [];
  area().onResourceAdded((r) => added.push(r.id));
  renderAt(
    actors,
    <>
      {options.typeFilter === false ? (
        <UploadDropZone />
      ) : (
        <UploadDropZone resourceType="video" groupId={3} />
      )}
      <UploadQueue />
    </>,
    '/creation/resource',
  );
  const user = person();
  let others = 0;

  /** The picker of the drop zone (hidden: a person reaches it through the Upload button). */
  const picker = () => screen.getByLabelText(text('uploads.chooseFiles')) as HTMLInputElement;
  const activeOthers = () =>
    area()
      .queue.getSnapshot()
      .context.items.filter(
        (i) =>
          i.actor.getSnapshot().context.file.name !== NAME &&
          i.actor.getSnapshot().hasTag('active'),
      );

  return {
    actors,
    endpoints,
    effects: {
      take: () => {
        const taken = [...effects.splice(0), ...added.splice(0).map((id) => `added ${id}`)];
        // The quota's first load belongs to the queue's first showing.
        return taken;
      },
    },
    transfers,
    records: () => records,
    user,
    area,
    picker,
    /** Adds other files until both slots are busy (their grants never answer). */
    async fillSlots() {
      while (activeOthers().length < 2) {
        others++;
        await user.upload(picker(), file(`other-${others}.mp4`, 10));
      }
    },
    /** Frees a slot: the person cancels one of the other files. */
    async freeSlot() {
      const other = activeOthers()[0].actor.getSnapshot().context.file.name;
      await user.click(
        screen.getByRole('button', { name: text('uploads.cancel', { name: other }) }),
      );
    },
    dispose: () => {
      cleanup();
      actors.dispose();
    },
  };
}
type World = ReturnType<typeof uploadWorld>;

/** The row of the file under test. */
function row() {
  const rows = screen.queryAllByTestId('upload-item');
  const mine = rows.filter((r) => within(r).queryByText(NAME) !== null);
  expect(mine.length, `rows of ${NAME}`).toBe(1);
  return within(mine[0]);
}

const lostError = replyError('http.networkError', 'transport');
const failures = {
  grantLost: lostError,
  grantRefused: replyError(OVER_QUOTA),
  transferLost: { msg: 'uploads.lost', retry: true },
  transferRefused: { msg: NOT_A_VIDEO, retry: false },
  addLost: lostError,
  addRefused: replyError(NOT_A_VIDEO),
};

function exec(world: World) {
  const click = (name: string) => world.user.click(row().getByRole('button', { name }));
  return async (event: PathEvent) => {
    const by = (event as { by?: string }).by;
    switch (event.type) {
      case 'START':
        return world.freeSlot();
      case 'PAUSE':
        return click(text('uploads.pause', { name: NAME }));
      case 'RESUME':
        await world.fillSlots();
        return click(text('uploads.resume', { name: NAME }));
      case 'RETRY':
        await world.fillSlots();
        return click(text('uploads.retry', { name: NAME }));
      case 'CANCEL':
        return click(text('uploads.cancel', { name: NAME }));
      case 'FILE_CHOSEN': {
        await world.fillSlots();
        const input = screen.getByLabelText(text('uploads.chooseAgainFile', { name: NAME }));
        // Another file: same name, other contents.
        const chosen = by === 'same' ? file() : file(NAME, SIZE + 1);
        return world.user.upload(input as HTMLInputElement, chosen);
      }
      case 'PROGRESS':
        world.transfers.at(-1)!.job.progress(SENT, SIZE);
        return;
      case 'TRANSFERRED':
        world.transfers.at(-1)!.resolve();
        return;
      case 'TRANSFER_FAILED':
        world.transfers
          .at(-1)!
          .reject(by === 'lost' ? failures.transferLost : failures.transferRefused);
        return;
      case 'xstate.done.actor.requestGrant':
        return world.endpoints.settle(`grant ${NAME}`, 'done', GRANT);
      case 'xstate.error.actor.requestGrant':
        return world.endpoints.settle(
          `grant ${NAME}`,
          'error',
          by === 'lost' ? failures.grantLost : failures.grantRefused,
        );
      case 'xstate.done.actor.addResource':
        return world.endpoints.settle('addResource', 'done', RESOURCE);
      case 'xstate.error.actor.addResource':
        return world.endpoints.settle(
          'addResource',
          'error',
          by === 'lost' ? failures.addLost : failures.addRefused,
        );
      default:
        throw new Error(`a person cannot cause ${event.type}`);
    }
  };
}

/** The row's buttons, by accessible name. */
function buttons(): string[] {
  return row()
    .queryAllByRole('button')
    .map((b) => b.getAttribute('aria-label') ?? '');
}
const named = (id: Parameters<typeof text>[0]) => text(id, { name: NAME });

function bar(percent: number) {
  const progress = row().getByRole('progressbar', { name: named('uploads.progressOf') });
  expect(progress.getAttribute('aria-valuenow')).toBe(String(percent));
}
const noBar = () => expect(row().queryByRole('progressbar')).toBeNull();
const status = (expected: string) => expect(row().getByRole('status').textContent).toBe(expected);
const alert = (expected: string) => expect(row().getByRole('alert').textContent).toBe(expected);

const SEES: Record<string, () => void> = {
  waiting: () => {
    status(text('uploads.queued'));
    bar(0);
    expect(buttons()).toEqual([named('uploads.cancel')]);
  },
  'waiting, granted': () => {
    status(text('uploads.queued'));
    bar(0);
    expect(buttons()).toEqual([named('uploads.cancel')]);
  },
  'waiting 40%': () => {
    status(text('uploads.queued'));
    bar(40);
    expect(buttons()).toEqual([named('uploads.cancel')]);
  },
  preparing: () => {
    status(text('uploads.requesting'));
    bar(0);
    expect(buttons()).toEqual([named('uploads.cancel')]);
  },
  uploading: () => {
    status(text('uploads.uploading', { percent: '0%' }));
    bar(0);
    expect(buttons()).toEqual([named('uploads.pause'), named('uploads.cancel')]);
  },
  'uploading 40%': () => {
    // The speed shows once two reports are known; the percent always.
    expect(row().getByRole('status').textContent).toMatch(/^Uploading: 40%/);
    bar(40);
    expect(buttons()).toEqual([named('uploads.pause'), named('uploads.cancel')]);
  },
  paused: () => {
    status(text('uploads.paused', { percent: '0%' }));
    bar(0);
    expect(buttons()).toEqual([named('uploads.resume'), named('uploads.cancel')]);
  },
  'paused 40%': () => {
    status(text('uploads.paused', { percent: '40%' }));
    bar(40);
    expect(buttons()).toEqual([named('uploads.resume'), named('uploads.cancel')]);
  },
  checking: () => {
    status(text('uploads.finishing'));
    expect(buttons()).toEqual([]);
  },
  done: () => {
    status(text('uploads.done'));
    noBar();
    expect(buttons()).toEqual([named('uploads.remove')]);
  },
  'failed (grant)': () => {
    alert(text('uploads.failed', { reason: text('http.networkError') }));
    expect(buttons()).toEqual([named('uploads.retry'), named('uploads.cancel')]);
  },
  'failed (transfer)': () => {
    alert(text('uploads.failed', { reason: text('uploads.lost') }));
    bar(0);
    expect(buttons()).toEqual([named('uploads.retry'), named('uploads.cancel')]);
  },
  'failed 40%': () => {
    alert(text('uploads.failed', { reason: text('uploads.lost') }));
    bar(40);
    expect(buttons()).toEqual([named('uploads.retry'), named('uploads.cancel')]);
  },
  'failed (check)': () => {
    alert(text('uploads.failed', { reason: text('http.networkError') }));
    expect(buttons()).toEqual([named('uploads.retry'), named('uploads.cancel')]);
  },
  'refused (quota)': () => {
    alert(text('uploads.refusedBy', { reason: OVER_QUOTA }));
    noBar();
    expect(buttons()).toEqual([named('uploads.remove')]);
  },
  'refused (content)': () => {
    alert(text('uploads.refusedBy', { reason: NOT_A_VIDEO }));
    noBar();
    expect(buttons()).toEqual([named('uploads.remove')]);
  },
  cancelled: () => {
    status(text('uploads.cancelled'));
    noBar();
    expect(buttons()).toEqual([named('uploads.remove')]);
  },
  interrupted: () => {
    status(text('uploads.interrupted', { percent: '40%' }));
    bar(40);
    row().getByText(text('uploads.chooseAgainHint'));
    expect(buttons()).toEqual([named('uploads.chooseAgain'), named('uploads.cancel')]);
  },
  'interrupted, other file': () => {
    status(text('uploads.interrupted', { percent: '40%' }));
    row().getByText(text('uploads.notSameFile', { name: NAME }));
    expect(buttons()).toEqual([named('uploads.chooseAgain'), named('uploads.cancel')]);
  },
};

// ---------------------------------------------------------------------------------------------
// Paths

function events(s: { can: (e: never) => boolean; context: { failedAt: string | null } }) {
  return (
    [
      { type: 'START' },
      { type: 'PAUSE' },
      { type: 'RESUME' },
      { type: 'CANCEL' },
      { type: 'RETRY' },
      { type: 'FILE_CHOSEN', by: 'same', file: { name: NAME, size: SIZE, lastModified: MODIFIED } },
      {
        type: 'FILE_CHOSEN',
        by: 'other',
        file: { name: NAME, size: SIZE + 1, lastModified: MODIFIED },
      },
      { type: 'PROGRESS', sent: SENT, at: 1 },
      { type: 'TRANSFERRED' },
      { type: 'TRANSFER_FAILED', by: 'lost', failure: failures.transferLost },
      { type: 'TRANSFER_FAILED', by: 'refused', failure: failures.transferRefused },
      { type: 'xstate.done.actor.requestGrant', output: GRANT },
      { type: 'xstate.error.actor.requestGrant', by: 'lost', error: { msg: 'x', retry: true } },
      { type: 'xstate.error.actor.requestGrant', by: 'refused', error: { msg: 'x', retry: false } },
      { type: 'xstate.done.actor.addResource', output: RESOURCE },
      { type: 'xstate.error.actor.addResource', by: 'lost', error: { msg: 'x', retry: true } },
      { type: 'xstate.error.actor.addResource', by: 'refused', error: { msg: 'x', retry: false } },
    ] as never[]
  ).filter((e) => s.can(e));
}

/** `onlyTable`: keep only the paths whose every step is a row of the table. */
function paths(
  input: UploadInput,
  transitions: Record<string, string>,
  initial: string,
  onlyTable = false,
) {
  return withoutPrefixes(
    coverRows(
      getShortestPaths(uploadMachine, {
        input,
        events: events as never,
        serializeState: (s, e) =>
          JSON.stringify([
            s.value,
            s.context.sent > 0,
            s.context.grant !== null,
            s.context.failedAt,
            s.context.mismatch,
            e ? label(e as PathEvent) : null,
          ]),
      }),
      { initial, transitions, label },
    ).filter((p) => !onlyTable || inTable(p, initial, transitions)),
    (e) => label(e as PathEvent),
  );
}

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
});

const INPUT: UploadInput = {
  id: 'u1',
  file: { name: NAME, size: SIZE, lastModified: MODIFIED },
  resourceType: 'video',
  groupId: 3,
};

describe('uploading a file (a merchant; two other files hold both slots)', () => {
  const rows = rowsUsed();
  const all = paths(INPUT, TRANSITIONS, 'waiting');
  test.each(all.map((p) => [pathName(p, label), p] as const))(
    '%s',
    async (_, path) => {
      const world = uploadWorld();
      await world.fillSlots();
      await world.user.upload(world.picker(), file());
      world.effects.take();
      await runUiPath(
        path,
        {
          initial: 'waiting',
          transitions: TRANSITIONS,
          label,
          exec: exec(world),
          sees: SEES,
          effects: { take: world.effects.take, expected: EFFECTS },
        },
        rows.used,
      );
      world.dispose();
    },
    120_000,
  );

  test('every row of the table is taken by a path', () => {
    expect(rows.unused(TRANSITIONS)).toEqual([]);
  });
});

const RECORD: UploadRecord = {
  id: 'u1',
  name: NAME,
  size: SIZE,
  lastModified: MODIFIED,
  resourceType: 'video',
  groupId: 3,
  grant: GRANT,
  sent: SENT,
  checkpoint: null,
};

describe('after a page reload: the interrupted upload resumes once its file is chosen again', () => {
  const rows = rowsUsed();
  // Only the ways on from an interrupted upload: the rest are the paths above.
  const all = paths(
    { ...INPUT, restored: { grant: GRANT, sent: SENT, checkpoint: null } },
    RESTORED_TRANSITIONS,
    'interrupted',
    true,
  );
  test.each(all.map((p) => [pathName(p, label), p] as const))(
    '%s',
    async (_, path) => {
      const world = uploadWorld({ restored: [RECORD] });
      await runUiPath(
        path,
        {
          initial: 'interrupted',
          transitions: RESTORED_TRANSITIONS,
          label,
          exec: exec(world),
          sees: SEES,
          effects: { take: world.effects.take, expected: EFFECTS },
        },
        rows.used,
      );
      world.dispose();
    },
    120_000,
  );

  test('every row of the table is taken by a path', () => {
    expect(rows.unused(RESTORED_TRANSITIONS)).toEqual([]);
  });
});

/** Whether every step of the path is a row of the table. */
function inTable(
  path: { steps: { event: unknown }[] },
  initial: string,
  transitions: Record<string, string>,
) {
  let state = initial;
  for (const { event } of path.steps.slice(1)) {
    const next = transitions[`${state} ${label(event as PathEvent)}`];
    if (next === undefined) return false;
    state = next;
  }
  return true;
}

describe('the queue', () => {
  const grantsAsked = (world: World) =>
    world.endpoints.calls.filter((c) => c.name.startsWith('grant')).map((c) => c.name);

  test('at most two files upload at a time; the next starts when one is done', async () => {
    const world = uploadWorld();
    await settle();
    await world.user.upload(world.picker(), [
      file('a.mp4', 10),
      file('b.mp4', 10),
      file('c.mp4', 10),
    ]);
    expect(grantsAsked(world)).toEqual(['grant a.mp4', 'grant b.mp4']);
    await world.endpoints.settle('grant a.mp4', 'done', GRANT);
    world.transfers.at(-1)!.resolve();
    await settle();
    expect(grantsAsked(world)).toEqual(['grant a.mp4', 'grant b.mp4']);
    await world.endpoints.settle('addResource', 'done', { ...RESOURCE, name: 'a.mp4' });
    expect(grantsAsked(world)).toEqual(['grant a.mp4', 'grant b.mp4', 'grant c.mp4']);
    world.dispose();
  });

  test('an interrupted upload chosen again while a slot is free sends that file at once', async () => {
    const world = uploadWorld({ restored: [RECORD] });
    await settle();
    const input = screen.getByLabelText(text('uploads.chooseAgainFile', { name: NAME }));
    await world.user.upload(input as HTMLInputElement, file());
    expect(world.transfers.map((t) => t.job.file.size)).toEqual([SIZE]);
    world.dispose();
  });

  test('a file resumed while a slot is free uploads again at once', async () => {
    const world = uploadWorld();
    await settle();
    await world.user.upload(world.picker(), file());
    await world.endpoints.settle(`grant ${NAME}`, 'done', GRANT);
    await world.user.click(screen.getByRole('button', { name: named('uploads.pause') }));
    await world.user.click(screen.getByRole('button', { name: named('uploads.resume') }));
    expect(world.transfers).toHaveLength(2);
    status(text('uploads.uploading', { percent: '0%' }));
    world.dispose();
  });

  test("several files dropped on the zone are queued with the page's type and group", async () => {
    const world = uploadWorld();
    await settle();
    const zone = screen.getByRole('group', { name: text('uploads.dropZone') });
    fireEvent.drop(zone, { dataTransfer: { files: [file('a.mp4', 10), file('b.mp4', 10)] } });
    await settle();
    expect(screen.getAllByTestId('upload-item')).toHaveLength(2);
    const first = world.area().queue.getSnapshot().context.items[0].actor.getSnapshot().context;
    expect([first.resourceType, first.groupId]).toEqual(['video', 3]);
    world.dispose();
  });

  test('without a type filter the person chooses the type, and the picker offers its files', async () => {
    const world = uploadWorld({ typeFilter: false });
    await settle();
    await world.user.selectOptions(
      screen.getByRole('combobox', { name: text('uploads.type') }),
      text('uploads.typeImage'),
    );
    expect(world.picker().accept).toBe('.jpg,.jpeg,.png,.webp');
    await world.user.upload(world.picker(), new File(['x'], 'p.png', { type: 'image/png' }));
    const item = world.area().queue.getSnapshot().context.items[0].actor.getSnapshot().context;
    expect([item.resourceType, item.groupId]).toEqual(['image', null]);
    world.dispose();
  });

  test('a PNG dropped while "video" is chosen goes in as an image, and the person is told', async () => {
    const world = uploadWorld({ typeFilter: false });
    await settle();
    expect(
      (screen.getByRole('combobox', { name: text('uploads.type') }) as HTMLSelectElement).value,
    ).toBe('video');
    const zone = screen.getByRole('group', { name: text('uploads.dropZone') });
    const png = new File(['x'], 'photo.png', { type: 'image/png' });
    fireEvent.drop(zone, { dataTransfer: { files: [png, file('a.mp4', 10)] } });
    await settle();
    const types = world
      .area()
      .queue.getSnapshot()
      .context.items.map((i) => [
        i.actor.getSnapshot().context.file.name,
        i.actor.getSnapshot().context.resourceType,
      ]);
    expect(types).toEqual(
      expect.arrayContaining([
        ['photo.png', 'image'],
        ['a.mp4', 'video'],
      ]),
    );
    await vi.waitFor(
      () =>
        screen.getByText(
          text('uploads.classified', { name: 'photo.png', type: text('uploads.typeImage') }),
        ),
      { timeout: 5000 },
    );
    world.dispose();
  });

  test("the quota shows used and total storage in the viewer's units", async () => {
    const world = uploadWorld();
    await settle();
    expect(screen.getByTestId('upload-quota').textContent).toBe(
      text('uploads.quota', { used: '5 MB', quota: '10 GB' }),
    );
    world.dispose();
  });

  test('an unfinished upload is kept for a reload, and forgotten (and discarded) at logout', async () => {
    const world = uploadWorld();
    await settle();
    await world.user.upload(world.picker(), file());
    await world.endpoints.settle(`grant ${NAME}`, 'done', GRANT);
    world.transfers.at(-1)!.job.progress(SENT, SIZE);
    await settle();
    expect(world.records()).toEqual([{ ...RECORD, id: 'u1' }]);
    world.effects.take();
    areasOf(world.actors).reset();
    expect(world.records()).toEqual([]);
    expect(world.effects.take()).toEqual(['abort', 'discard']);
    world.dispose();
  });

  test('a kept upload whose grant has expired is not offered after a reload', async () => {
    const world = uploadWorld({ restored: [{ ...RECORD, grant: { ...GRANT, expire_at: 1 } }] });
    await settle();
    expect(screen.queryAllByTestId('upload-item')).toHaveLength(0);
    world.dispose();
  });

  test('a finished item can be taken off the list', async () => {
    const world = uploadWorld();
    await settle();
    await world.user.upload(world.picker(), file());
    await world.user.click(screen.getByRole('button', { name: named('uploads.cancel') }));
    await world.user.click(screen.getByRole('button', { name: named('uploads.remove') }));
    expect(screen.queryAllByTestId('upload-item')).toHaveLength(0);
    world.dispose();
  });
});
