/**
 * The uploads area: a queue of file uploads that lives across tabs and routes (the
 * area registry keeps it until the signed-in user changes: logout stops every upload and forgets
 * the unfinished ones). Each file is an actor of the upload machine; the area starts queued items
 * (at most MAX_ACTIVE at a time), keeps a record of each unfinished upload in the browser's
 * storage so that after a reload the queue shows it and resumes once the person chooses the same
 * file, reloads the storage quota after a change and tells listeners (the resource library) about
 * each new resource — events between actors, never view effects.
 */
import { createActor, fromCallback, fromPromise, fromTransition, type Subscription } from 'xstate';
import type { Resource, ResourceType, UploadTokenReply } from '../../api/contract/resources';
import * as api from '../../api/uploads';
import {
  percentOf,
  uploadMachine,
  type UploadCheckpoint,
  type UploadEvent,
  type UploadFailure,
  type UploadInput,
  type TransferInput,
} from '../../machines/upload';
import { defineArea, lazyActors } from './areas';
import { loadActor } from './factories';

/** A record of an unfinished upload, kept in the browser's storage across a reload. */
export interface UploadRecord {
  id: string;
  name: string;
  size: number;
  lastModified: number;
  resourceType: ResourceType;
  groupId: number | null;
  grant: UploadTokenReply;
  sent: number;
  checkpoint: UploadCheckpoint | null;
}

export interface UploadsEndpoints {
  requestUploadGrant: typeof api.requestUploadGrant;
  transfer: typeof api.transfer;
  discardTransfer: typeof api.discardTransfer;
  addResource: typeof api.addResource;
  getQuota: typeof api.getQuota;
  records: { load(): UploadRecord[]; save(records: UploadRecord[]): void };
  /** Epoch ms (progress rates, a restored grant's expiry). */
  now: () => number;
}

/** Uploads running at a time (requesting, uploading or finishing); the rest wait. */
export const MAX_ACTIVE = 2;

/** The person's events to the queue. */
export type UploadsEvent =
  | { type: 'ADD_FILES'; files: readonly File[]; resourceType: ResourceType; groupId?: number }
  /** An interrupted item's file, chosen again after a reload. */
  | { type: 'CHOOSE_AGAIN'; id: string; file: File }
  /** Takes a finished (done, refused, cancelled) item off the list. */
  | { type: 'REMOVE'; id: string };

export type UploadActor = ReturnType<typeof createItemActor>;
export interface QueueItem {
  id: string;
  actor: UploadActor;
}

/**
 * Failures of calls (http.ts's ApiError) and transfers: a refusal by the server is final; no reply
 * (or a 5xx) may be retried.
 */
export function failureOf(error: unknown): UploadFailure {
  const e = error as { msg?: unknown; retry?: unknown; kind?: unknown; status?: unknown } | null;
  if (typeof e?.msg !== 'string') return { msg: 'uploads.lost', retry: true };
  if (typeof e.kind === 'string') {
    const status = typeof e.status === 'number' ? e.status : null;
    return { msg: e.msg, retry: e.kind === 'transport' && (status === null || status >= 500) };
  }
  return { msg: e.msg, retry: e.retry === true };
}

const FINISHED = ['done', 'refused', 'cancelled'] as const;

function createItemActor(e: UploadsEndpoints, files: Map<string, Blob>, input: UploadInput) {
  const machine = uploadMachine.provide({
    actors: {
      requestGrant: fromPromise(({ input: query, signal }) =>
        e.requestUploadGrant(query, { signal, quiet: true }).catch((error: unknown) => {
          throw failureOf(error);
        }),
      ),
      transfer: fromCallback<UploadEvent, TransferInput>(({ input: job, sendBack }) => {
        let stopped = false;
        let settled = false;
        const control = e.transfer({
          file: files.get(job.id) ?? new Blob([]),
          grant: job.grant,
          parts: job.checkpoint?.parts ?? [],
          progress: (sent) => sendBack({ type: 'PROGRESS', sent, at: e.now() }),
          checkpoint: (parts) => sendBack({ type: 'CHECKPOINT', checkpoint: { parts } }),
        });
        control.done.then(
          () => {
            settled = true;
            if (!stopped) sendBack({ type: 'TRANSFERRED' });
          },
          (error: unknown) => {
            settled = true;
            if (!stopped) sendBack({ type: 'TRANSFER_FAILED', failure: failureOf(error) });
          },
        );
        return () => {
          stopped = true;
          // Paused or cancelled mid-transfer: stop sending (a settled one has nothing to stop).
          if (!settled) control.abort();
        };
      }),
      addResource: fromPromise(({ input: body, signal }) =>
        e.addResource(body, { signal, quiet: true }).catch((error: unknown) => {
          throw failureOf(error);
        }),
      ),
    },
  });
  return createActor(machine, { input });
}

function createUploadsActors(e: UploadsEndpoints) {
  const files = new Map<string, Blob>();
  const listeners = new Set<(resource: Resource) => void>();
  const subscriptions = new Map<string, Subscription[]>();
  let items: QueueItem[] = [];
  let made = 0;

  const actors = lazyActors({
    /** The storage quota (`GET /upload/quota`): reloaded after each new resource. */
    quota: () => loadActor('uploadQuota', (signal) => e.getQuota({ signal, quiet: true })),
  });
  /** The list the views show: items in the order they were added. */
  const queue = createActor(
    fromTransition(
      (_: { items: QueueItem[] }, event: { type: 'SET'; items: QueueItem[] }) => ({
        items: event.items,
      }),
      { items: [] as QueueItem[] },
    ),
  ).start();
  const publish = () => queue.send({ type: 'SET', items });

  /**
   * Starts waiting items, oldest first, while fewer than MAX_ACTIVE run. Counted afresh for each
   * start (a START to another item runs this again from its subscription); an item that is busy
   * with an event of its own (a RESUME whose subscriber called this) takes the START after it, so
   * the items sent START here count as running until then.
   */
  const schedule = () => {
    const started = new Set<UploadActor>();
    for (;;) {
      const running = items.filter(
        (i) => started.has(i.actor) || i.actor.getSnapshot().hasTag('active'),
      ).length;
      const next = items.find(
        (i) => !started.has(i.actor) && i.actor.getSnapshot().hasTag('waiting'),
      );
      if (running >= MAX_ACTIVE || !next) return;
      started.add(next.actor);
      next.actor.send({ type: 'START' });
    }
  };

  let saved = '';
  /** Keeps a record of every unfinished upload that has a grant (what a reload can resume). */
  const persist = () => {
    const records: UploadRecord[] = [];
    for (const { id, actor } of items) {
      const s = actor.getSnapshot();
      const c = s.context;
      if (c.grant === null || s.status !== 'active' || s.matches('finishing')) continue;
      records.push({
        id,
        name: c.file.name,
        size: c.file.size,
        lastModified: c.file.lastModified,
        resourceType: c.resourceType,
        groupId: c.groupId,
        grant: c.grant,
        // Whole percents: a record is written about a hundred times per upload, not per chunk.
        sent: Math.floor((percentOf(c) * c.file.size) / 100),
        checkpoint: c.checkpoint,
      });
    }
    const text = JSON.stringify(records);
    if (text === saved) return;
    saved = text;
    e.records.save(records);
  };

  const add = (item: QueueItem) => {
    const { actor } = item;
    let last = actor.getSnapshot().value;
    subscriptions.set(item.id, [
      actor.on('added', ({ resource }) => {
        actors.quota.send({ type: 'RELOAD' });
        listeners.forEach((listener) => listener(resource));
      }),
      actor.subscribe((snapshot) => {
        persist();
        if (snapshot.value === last) return;
        last = snapshot.value;
        if (snapshot.matches('cancelled')) {
          const { grant } = snapshot.context;
          if (grant) void e.discardTransfer(grant).catch(() => {});
        }
        if (snapshot.status === 'done') files.delete(item.id);
        schedule();
      }),
    ]);
    items = [...items, item];
    actor.start();
  };

  // The uploads a reload interrupted (grants still valid), waiting for their files.
  const now = e.now();
  for (const r of e.records.load()) {
    if (!r?.grant || r.grant.expire_at <= now) continue;
    const id = `u${++made}`;
    add({
      id,
      actor: createItemActor(e, files, {
        id,
        file: { name: r.name, size: r.size, lastModified: r.lastModified },
        resourceType: r.resourceType,
        ...(r.groupId !== null ? { groupId: r.groupId } : {}),
        restored: { grant: r.grant, sent: r.sent, checkpoint: r.checkpoint },
      }),
    });
  }
  persist();
  publish();

  const send = (event: UploadsEvent) => {
    switch (event.type) {
      case 'ADD_FILES':
        for (const file of event.files) {
          const id = `u${++made}`;
          files.set(id, file);
          add({
            id,
            actor: createItemActor(e, files, {
              id,
              file: { name: file.name, size: file.size, lastModified: file.lastModified },
              resourceType: event.resourceType,
              ...(event.groupId !== undefined ? { groupId: event.groupId } : {}),
            }),
          });
        }
        publish();
        schedule();
        return;
      case 'CHOOSE_AGAIN': {
        const item = items.find((i) => i.id === event.id);
        if (!item) return;
        const { file } = event;
        const chosen = { name: file.name, size: file.size, lastModified: file.lastModified };
        if (!item.actor.getSnapshot().matches('interrupted')) return;
        // Given before the event: a free slot starts the transfer as the machine takes it.
        files.set(event.id, file);
        item.actor.send({ type: 'FILE_CHOSEN', file: chosen });
        // Another file (the machine decides): not kept.
        if (item.actor.getSnapshot().matches('interrupted')) files.delete(event.id);
        return;
      }
      case 'REMOVE': {
        const item = items.find((i) => i.id === event.id);
        if (!item || !FINISHED.some((s) => item.actor.getSnapshot().matches(s))) return;
        subscriptions.get(item.id)?.forEach((sub) => sub.unsubscribe());
        subscriptions.delete(item.id);
        item.actor.stop();
        items = items.filter((i) => i !== item);
        files.delete(item.id);
        publish();
        return;
      }
    }
  };

  return {
    queue,
    get quota() {
      return actors.quota;
    },
    send,
    /** Each upload that became a resource (the library reloads its list). */
    onResourceAdded(listener: (resource: Resource) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      subscriptions.forEach((subs) => subs.forEach((sub) => sub.unsubscribe()));
      subscriptions.clear();
      for (const { actor } of items) {
        const snapshot = actor.getSnapshot();
        actor.stop();
        // Signed out: nothing of this user's uploads stays in the browser or runs on.
        const { grant } = snapshot.context;
        if (grant && snapshot.status === 'active' && !snapshot.matches('finishing')) {
          void e.discardTransfer(grant).catch(() => {});
        }
      }
      items = [];
      files.clear();
      listeners.clear();
      e.records.save([]);
      queue.stop();
      actors.stop();
    },
  };
}

export type UploadsActors = ReturnType<typeof createUploadsActors>;

export const uploadsArea = defineArea<UploadsEndpoints, UploadsActors>({
  key: 'uploads',
  live: () => ({
    requestUploadGrant: api.requestUploadGrant,
    transfer: api.transfer,
    discardTransfer: api.discardTransfer,
    addResource: api.addResource,
    getQuota: api.getQuota,
    records: api.uploadRecordStore<UploadRecord>(),
    now: () => Date.now(),
  }),
  create: (endpoints) => createUploadsActors(endpoints),
});
