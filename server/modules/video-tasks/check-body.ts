import type { ResourceType } from '../../../src/api/contract/resources';
import type { VideoTaskParams } from '../../../src/api/contract/video-tasks';
import type { Executor, ResourcesTable } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import type { Selectable } from 'kysely';
import { checkVoice } from './narration';
import { combinationCount, distinctGroups, pickCombinations, type Combination } from './plan';

export type TaskResource = Pick<
  Selectable<ResourcesTable>,
  'id' | 'owner_id' | 'type' | 'name' | 'storage_key' | 'duration_ms' | 'content_type' | 'has_audio'
>;

/** Resource types each place of a task takes. */
export const VIDEO_TYPES: readonly ResourceType[] = ['video', 'intro', 'outro'];
const MUSIC_TYPES: readonly ResourceType[] = ['bgm', 'audio'];
const IMAGE_TYPES: readonly ResourceType[] = ['image', 'sticker'];
const FONT_TYPES: readonly ResourceType[] = ['font'];

/** One piece of an output's timeline: `length` seconds of a resource from `start`. */
export interface Piece {
  resourceId: number;
  start: number;
  length: number;
}

/** What a valid body makes: the combinations it allows, its outputs' shots and lengths. */
export interface TaskPlan {
  combinations: number;
  count: number;
  /** Every resource the task uses (its `resource_refs`). */
  resourceIds: number[];
  /** Seconds of the shortest and the longest output the groups allow. */
  durationMin: number;
  durationMax: number;
  /** The outputs' combinations (random picks are seeded by the task's id). */
  pick(seed: number): Combination[];
  /** Milliseconds an output with this combination lasts. */
  plannedMs(combination: Combination): number;
}

/** The resources of `ids` the owner has (live ones only unless `withDeleted`), by id. */
export async function loadResources(
  db: Executor,
  ownerId: number,
  ids: readonly number[],
  withDeleted = false,
): Promise<Map<number, TaskResource>> {
  if (ids.length === 0) return new Map();
  let query = db
    .selectFrom('resources')
    .select(['id', 'owner_id', 'type', 'name', 'storage_key', 'duration_ms', 'content_type'])
    .select('has_audio')
    .where('owner_id', '=', ownerId)
    .where('id', 'in', [...new Set(ids)])
    .where('file_deleted_at', 'is', null);
  if (!withDeleted) query = query.where('deleted_at', 'is', null);
  const rows = await query.execute();
  return new Map(rows.map((row) => [Number(row.id), row]));
}

const seconds = (row: TaskResource) =>
  row.duration_ms === null ? null : Number(row.duration_ms) / 1000;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Every place of a body that takes a resource: its id and the types it takes, in body order. */
export function placesOf(
  params: VideoTaskParams,
): { id: number; allowed: readonly ResourceType[] }[] {
  const places: { id: number; allowed: readonly ResourceType[] }[] = [];
  const add = (id: number | undefined, allowed: readonly ResourceType[]) => {
    if (id !== undefined) places.push({ id, allowed });
  };
  if (params.kind === 'mixed') {
    add(params.intro_id, VIDEO_TYPES);
    for (const group of params.shot_groups)
      for (const id of group.resource_ids) add(id, VIDEO_TYPES);
    add(params.outro_id, VIDEO_TYPES);
  } else {
    add(params.resource_id, VIDEO_TYPES);
  }
  for (const id of params.music_ids ?? []) add(id, MUSIC_TYPES);
  for (const sticker of params.stickers ?? []) add(sticker.resource_id, IMAGE_TYPES);
  add(params.subtitles?.font, FONT_TYPES);
  return places;
}

/** The refusal for a resource of the wrong type, by the place it was given for. */
function wrongType(row: TaskResource, allowed: readonly ResourceType[]) {
  const name = row.name;
  if (allowed === MUSIC_TYPES) return refuse('videoTask.notMusic', { name });
  if (allowed === IMAGE_TYPES) return refuse('videoTask.notImage', { name });
  if (allowed === FONT_TYPES) return refuse('videoTask.notFont', { name });
  return refuse('videoTask.notVideo', { name });
}

/**
 * The pieces of one output: intro, a shot per group, outro (a clip: its trimmed part). In
 * advanced mode (`duration`) the time after intro and outro is shared equally by the groups;
 * else a group lasts its `duration`, or its shot's own length.
 */
export function piecesOf(
  params: VideoTaskParams,
  combination: Combination,
  lengthOf: (resourceId: number) => number,
): Piece[] {
  if (params.kind === 'clip') {
    return [
      {
        resourceId: params.resource_id,
        start: params.trim.start,
        length: params.trim.end - params.trim.start,
      },
    ];
  }
  const intro = params.intro_id;
  const outro = params.outro_id;
  const edges = (intro ? lengthOf(intro) : 0) + (outro ? lengthOf(outro) : 0);
  const shared =
    params.duration !== undefined ? (params.duration - edges) / params.shot_groups.length : null;
  const pieces: Piece[] = [];
  if (intro) pieces.push({ resourceId: intro, start: 0, length: lengthOf(intro) });
  combination.shots.forEach((id, g) => {
    const length = shared ?? params.shot_groups[g].duration ?? lengthOf(id);
    pieces.push({ resourceId: id, start: 0, length });
  });
  if (outro) pieces.push({ resourceId: outro, start: 0, length: lengthOf(outro) });
  return pieces;
}

const totalMs = (pieces: readonly Piece[]) =>
  Math.round(pieces.reduce((sum, p) => sum + p.length, 0) * 1000);

/**
 * Checks a task body against the caller's library (every check `add` runs but the balance) and
 * plans it; refuses with a localised message: a resource missing, deleted or not the caller's
 * (all alike), of the wrong type, subtitles with no words, a narration's voice not ready nor the
 * caller's nor public, intro + outro not shorter than the duration, a trim past the
 * video's end, more outputs than combinations.
 */
export async function planTask(
  db: Executor,
  ownerId: number,
  params: VideoTaskParams,
): Promise<TaskPlan> {
  if (params.subtitles && !params.subtitles.lines?.length && !params.subtitles.text) {
    if (!params.narration) throw refuse('videoTask.subtitlesEmpty');
  }
  if (params.narration) await checkVoice(db, ownerId, params.narration.voice_id);
  const places = placesOf(params);
  const ids = places.map((p) => p.id);
  const rows = await loadResources(db, ownerId, ids);
  for (const id of ids) {
    if (!rows.has(id)) throw refuse('videoTask.resourceMissing', { id });
  }
  for (const { id, allowed } of places) {
    const row = rows.get(id)!;
    const ok = allowed.includes(row.type as ResourceType);
    // A video's length plans the output: a video without one cannot be used.
    if (!ok || (allowed === VIDEO_TYPES && seconds(row) === null)) throw wrongType(row, allowed);
  }
  const lengthOf = (id: number) => seconds(rows.get(id)!) ?? 0;
  const refIds = [...new Set(ids)];

  if (params.kind === 'clip') {
    const length = lengthOf(params.resource_id);
    if (params.trim.end > length + 0.05) {
      throw refuse('videoTask.trimBeyond', { length: round2(length) });
    }
    const only: Combination = { shots: [params.resource_id], music: params.music_ids?.[0] ?? null };
    const ms = totalMs(piecesOf(params, only, lengthOf));
    return {
      combinations: 1,
      count: 1,
      resourceIds: refIds,
      durationMin: ms / 1000,
      durationMax: ms / 1000,
      pick: () => [only],
      plannedMs: (c) => totalMs(piecesOf(params, c, lengthOf)),
    };
  }

  if (params.duration !== undefined) {
    const edges =
      (params.intro_id ? lengthOf(params.intro_id) : 0) +
      (params.outro_id ? lengthOf(params.outro_id) : 0);
    if (edges >= params.duration) {
      throw refuse('videoTask.introOutroTooLong', {
        seconds: round2(edges),
        duration: params.duration,
      });
    }
  }
  const groups = distinctGroups(params.shot_groups.map((g) => g.resource_ids));
  const combinations = combinationCount(groups);
  if (params.count > combinations) throw refuse('videoTask.tooManyOutputs', { combinations });
  // The shortest and longest outputs: each group's shortest and longest piece.
  const pieceLengths = groups.map((ids, g) =>
    ids.map((id) => {
      const shots = params.shot_groups.map((_, i) => (i === g ? id : groups[i][0]));
      return piecesOf(params, { shots, music: null }, lengthOf)[g + (params.intro_id ? 1 : 0)]
        .length;
    }),
  );
  const edges =
    (params.intro_id ? lengthOf(params.intro_id) : 0) +
    (params.outro_id ? lengthOf(params.outro_id) : 0);
  const sum = (pick: (lengths: number[]) => number) =>
    Math.round((edges + pieceLengths.reduce((s, lengths) => s + pick(lengths), 0)) * 1000) / 1000;
  return {
    combinations,
    count: params.count,
    resourceIds: refIds,
    durationMin: sum((l) => Math.min(...l)),
    durationMax: sum((l) => Math.max(...l)),
    pick: (seed) =>
      pickCombinations(
        groups,
        [...new Set(params.music_ids ?? [])],
        params.count,
        params.mode,
        seed,
      ),
    plannedMs: (c) => totalMs(piecesOf(params, c, lengthOf)),
  };
}
