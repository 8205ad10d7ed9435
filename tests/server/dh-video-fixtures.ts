import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { DhVideoDetail } from '../../src/api/contract/digital-human';
import type { AppContext } from '../../server/context';
import type { Db } from '../../server/platform/db/schema';
import { mediaOf } from '../../server/modules/digital-human/video-job';
import { newFileKey } from '../../server/platform/storage/keys';
import { api, type TestApp } from './helpers';

const run = promisify(execFile);

/** What the fixtures need of an app (a TestApp, or the crash suite's own app and database). */
export interface DhFixtureApp {
  ctx: AppContext;
  db: Db;
  now: () => number;
}
export const fixtureApp = (t: TestApp): DhFixtureApp => ({
  ctx: t.app.ctx,
  db: t.db,
  now: t.clock,
});

/** A 4 s 640×360 H.264 "presenter" video with a tone (the embedded provider clones it). */
export async function presenterVideo(dir: string): Promise<string> {
  const file = path.join(dir, 'presenter.mp4');
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=360x640:rate=25:duration=4'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=220:duration=4'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...['-shortest', file],
  ]);
  return file;
}

async function putFile(f: DhFixtureApp, area: string, bytes: Buffer, contentType: string) {
  const key = newFileKey(area, f.now());
  await f.ctx.storage.put(key, bytes, { contentType });
  return key;
}

/**
 * A ready image clone of `ownerId`. `real`: the files are the provider's own result of cloning a
 * generated presenter video (what the clone job stores); else a few random bytes (for calls that
 * render nothing).
 */
export async function putAvatar(
  f: DhFixtureApp,
  ownerId: number,
  options: { real?: boolean; status?: string; name?: string } = {},
): Promise<number> {
  let posterKey: string;
  let loopKey: string;
  let width = 720;
  let height = 1280;
  let vendorRef: unknown = null;
  if (options.real) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-dh-avatar-'));
    try {
      const video = await presenterVideo(dir);
      // Stored, so that a vendor can fetch it (the app must be listening on PUBLIC_URL then).
      const videoKey = await putFile(f, 'uploads', await fs.readFile(video), 'video/mp4');
      const work = path.join(dir, 'work');
      await fs.mkdir(work);
      const result = await f.ctx.integrations.digitalHuman.cloneImage(
        { video: await mediaOf(f.ctx, videoKey), tier: 'standard' },
        { workDir: work },
      );
      posterKey = await putFile(f, 'dh', await fs.readFile(result.posterPath), 'image/jpeg');
      loopKey = await putFile(f, 'dh', await fs.readFile(result.loopPath), 'video/mp4');
      ({ width, height } = result);
      vendorRef = result.vendorRef;
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  } else {
    posterKey = await putFile(f, 'dh', randomBytes(64), 'image/jpeg');
    loopKey = await putFile(f, 'dh', randomBytes(64), 'video/mp4');
  }
  const now = f.now();
  const row = await f.db
    .insertInto('dh_image_clones')
    .values({
      owner_id: ownerId,
      name: options.name ?? `avatar ${randomBytes(2).toString('hex')}`,
      tier: 'standard',
      video_id: 1,
      consent_video_id: 1,
      poster_key: posterKey,
      loop_key: loopKey,
      width,
      height,
      vendor_ref: vendorRef === null ? null : JSON.stringify(vendorRef),
      status: options.status ?? 'ready',
      provider: f.ctx.integrations.digitalHuman.name,
      billing: 'settled',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * A ready voice: the caller's clone (`ownerId`) or a public voice (null). Its profile is the
 * provider's first public voice's (a real profile the provider speaks with), or `{}`.
 */
export async function putVoice(
  f: DhFixtureApp,
  ownerId: number | null,
  options: { status?: string; name?: string; profile?: Record<string, unknown> } = {},
): Promise<number> {
  const profile =
    options.profile ?? f.ctx.integrations.digitalHuman.publicVoices()[0]?.profile ?? {};
  const now = f.now();
  const row = await f.db
    .insertInto('dh_voice_clones')
    .values({
      owner_id: ownerId,
      public_key: ownerId === null ? `test:${randomBytes(4).toString('hex')}` : null,
      name: options.name ?? `voice ${randomBytes(2).toString('hex')}`,
      gender: 'female',
      profile: JSON.stringify(profile),
      status: options.status ?? 'ready',
      provider: f.ctx.integrations.digitalHuman.name,
      billing: 'settled',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function putFolder(f: DhFixtureApp, ownerId: number, name = 'videos') {
  const row = await f.db
    .insertInto('resource_groups')
    .values({ owner_id: ownerId, name, created_at: f.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface DhThings {
  avatar: number;
  voice: number;
  folder: number;
}

export async function putThings(
  f: DhFixtureApp,
  ownerId: number,
  options: { real?: boolean; profile?: Record<string, unknown> } = {},
): Promise<DhThings> {
  return {
    avatar: await putAvatar(f, ownerId, options),
    voice: await putVoice(f, ownerId, { profile: options.profile }),
    folder: await putFolder(f, ownerId),
  };
}

/** A video body (2–5 s of English speech by default). */
export function videoBody(things: DhThings, extra: Record<string, unknown> = {}) {
  return {
    name: '数字人_20261126 0600',
    text: 'Hello there. This is a short test.',
    avatar_id: things.avatar,
    voice_id: things.voice,
    speed: 1,
    volume: 1,
    subtitles: true,
    folder_id: things.folder,
    ...extra,
  };
}

/** The video's detail once done or failed (polls; fails after `timeoutMs`). */
export async function waitVideo(
  t: TestApp,
  token: string,
  id: number,
  timeoutMs = 120_000,
): Promise<DhVideoDetail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await t.call<DhVideoDetail>('GET', api('/digital_human/video_detail'), {
      token,
      query: { id: String(id) },
      headers: { lang: 'en-US' },
    });
    expect(reply.body.code, reply.raw).toBe(1);
    const video = reply.body.data;
    if (video.status === 'done' || video.status === 'failed') return video;
    if (Date.now() > deadline) throw new Error(`video ${id} still ${video.status}: ${reply.raw}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Every row of the tables a refused call must not change. */
export async function dhSnapshot(db: Db): Promise<Record<string, unknown[]>> {
  const tables = [
    'users',
    'ledger',
    'system_accounts',
    'system_ledger',
    'idempotency_keys',
    'jobs',
    'resource_refs',
    'dh_videos',
    'dh_image_clones',
    'dh_voice_clones',
  ] as const;
  const result: Record<string, unknown[]> = {};
  for (const table of tables) {
    const rows = await db.selectFrom(table).selectAll().execute();
    result[table] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return result;
}
