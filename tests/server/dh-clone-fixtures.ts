import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type {
  ImageClone,
  ImageClonePage,
  VoiceClone,
  VoiceClonePage,
} from '../../src/api/contract/digital-human';
import type { ResourceType } from '../../src/api/contract/resources';
import type { Database } from '../../server/platform/db/schema';
import {
  makeConsentClip,
  makeContinuousTake,
  makeTwoShots,
  makeVoiceSample,
} from '../../server/modules/digital-human/clone-media';
import { addResource } from '../../server/modules/resources/add-resource';
import { api, snapshot, type TestApp } from './helpers';
import { putUpload } from './resource-fixtures';

/**
 * Real media for the clone tests, made once per run and kept in the temp dir (made again when
 * missing): small (160×120, 10 fps) so that making and checking them takes a fraction of a second.
 */
const DIR = path.join(os.tmpdir(), 'vc-dh-clone-fixtures-v1');
const SMALL = { size: '160x120' };

const RECIPES = {
  /** 30 s, one continuous take (the shortest source allowed). */
  'take.mp4': (file: string) => makeContinuousTake(file, { ...SMALL, seconds: 30 }),
  /** 30 s: two shots with a cut between them. */
  'two-shots.mp4': (file: string) => makeTwoShots(file, { ...SMALL, seconds: 30 }),
  /** 5 s: too short for a source video. */
  'short.mp4': (file: string) => makeContinuousTake(file, { ...SMALL, seconds: 5 }),
  /** 3 s: a consent clip. */
  'consent.mp4': (file: string) => makeConsentClip(file, 3),
  /** 12 s of speech: a voice sample. */
  'sample.mp3': (file: string) => makeVoiceSample(file, 12),
  /** 5 s of speech: too short for a voice sample. */
  'short.mp3': (file: string) => makeVoiceSample(file, 5),
} as const;

export type CloneFixture = keyof typeof RECIPES;

const making = new Map<CloneFixture, Promise<string>>();

export function cloneFixture(name: CloneFixture): Promise<string> {
  let promise = making.get(name);
  if (!promise) {
    promise = (async () => {
      const file = path.join(DIR, name);
      try {
        await fs.access(file);
        return file;
      } catch {
        await fs.mkdir(DIR, { recursive: true });
        const temp = path.join(DIR, `${process.pid}-${Date.now()}-${name}`);
        await RECIPES[name](temp);
        await fs.rename(temp, file);
        return file;
      }
    })();
    making.set(name, promise);
  }
  return promise;
}

const TYPES: Record<CloneFixture, { type: ResourceType; contentType: string }> = {
  'take.mp4': { type: 'video', contentType: 'video/mp4' },
  'two-shots.mp4': { type: 'video', contentType: 'video/mp4' },
  'short.mp4': { type: 'video', contentType: 'video/mp4' },
  'consent.mp4': { type: 'video', contentType: 'video/mp4' },
  'sample.mp3': { type: 'audio', contentType: 'audio/mpeg' },
  'short.mp3': { type: 'audio', contentType: 'audio/mpeg' },
};

/**
 * A resource of `ownerId` made from a fixture through `resource/add`'s own checks (type sniffed,
 * ffprobe's duration and size recorded): the facts the clone calls check.
 */
export async function addMedia(
  t: TestApp,
  ownerId: number,
  name: CloneFixture,
  as?: ResourceType,
): Promise<number> {
  const { type, contentType } = TYPES[name];
  const bytes = await fs.readFile(await cloneFixture(name));
  const { uploadKey } = await putUpload(t, ownerId, {
    type: as ?? type,
    name,
    bytes,
    contentType,
  });
  const resource = await addResource(t.app.ctx, ownerId, { upload_key: uploadKey, name });
  return resource.id;
}

/** The tables a clone call writes, with snapshot()'s: a refused call leaves them all alike. */
const DH_TABLES: readonly (keyof Database)[] = [
  'dh_image_clones',
  'dh_voice_clones',
  'resources',
  'resource_refs',
];

export async function fullSnapshot(t: TestApp): Promise<Record<string, unknown[]>> {
  const result = await snapshot(t.db);
  for (const table of DH_TABLES) {
    const rows = await t.db.selectFrom(table).selectAll().execute();
    result[table] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return result;
}

const FINISHED = ['ready', 'failed'];

/** Polls a clone list until the clone is ready or failed (fails after `timeoutMs`). */
export async function waitImageClone(
  t: TestApp,
  token: string,
  id: number,
  timeoutMs = 60_000,
): Promise<ImageClone> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const reply = await t.call<ImageClonePage>('GET', api('/digital_human/image_clone_list'), {
      token,
      query: { limit: '100' },
      headers: { lang: 'en-US' },
    });
    expect(reply.body.code, reply.raw).toBe(1);
    const clone = reply.body.data.list.find((c) => c.id === id);
    if (clone && FINISHED.includes(clone.status)) return clone;
    if (Date.now() > until)
      throw new Error(`image clone ${id} not finished: ${JSON.stringify(clone)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function waitVoiceClone(
  t: TestApp,
  token: string,
  id: number,
  timeoutMs = 60_000,
): Promise<VoiceClone> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const reply = await t.call<VoiceClonePage>('GET', api('/digital_human/voice_clone_list'), {
      token,
      query: { scope: 'mine', limit: '100' },
      headers: { lang: 'en-US' },
    });
    expect(reply.body.code, reply.raw).toBe(1);
    const clone = reply.body.data.list.find((c) => c.id === id);
    if (clone && FINISHED.includes(clone.status)) return clone;
    if (Date.now() > until)
      throw new Error(`voice clone ${id} not finished: ${JSON.stringify(clone)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
