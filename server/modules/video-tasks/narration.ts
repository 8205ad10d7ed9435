import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { estimateSpeechSeconds, speechLanguageOf } from '../../../src/api/contract/digital-human';
import type { VideoNarration } from '../../../src/api/contract/video-tasks';
import type { AppContext } from '../../context';
import { ProviderError } from '../../integrations/digital-human/types';
import type { Executor } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import { runNiced } from '../../platform/jobs/child-process';
import { PermanentWorkFailure } from '../../platform/jobs/outside-work';
import { splitSentences, type SubtitleLine } from '../../platform/render/subtitles';
import {
  balanceOf,
  closeHold,
  extendHold,
  holdsOf,
  openHold,
  refundPart,
  settlePart,
  type Trx,
} from '../ledger';
import { MAX_INT4 } from '../resources';

/**
 * Narration of mixed-cut and clip tasks (docs/domain.md §9 "Narration"): a script spoken by a
 * voice clone of the caller's or a public voice, through the digital-human provider.
 * - Money: `digital_man` seconds like a digital-human video's speech, through a hold of the task
 *   (asset `digital_man`, related `video_task`, part `narration`) beside its money hold: the
 *   estimate (speech seconds × `digital_man_cost`, fixed at add as `narration_price`) is held at
 *   add; when the task finishes with an output done the real length is settled (an overrun held
 *   first, up to the balance; the unused part returned as the hold closes); when none is done
 *   everything goes back. A retry of a task whose narration was returned holds it again.
 * - Speech: made once per task by the first output that renders: each sentence of the script is
 *   synthesised on its own, then the pieces are joined with a short pause into one file, so every
 *   sentence's time in the speech is known exactly (the subtitles' times). Stored with the task
 *   (`narration_key`, `narration_ms`, `narration_lines`); the other outputs (and runs after a
 *   crash) reuse it. Two outputs racing store one: the loser removes its file.
 */

/** The hold's part and related row. */
const PART = 'narration';
const RELATED = 'video_task';
/** Silence after each sentence, seconds. */
export const SENTENCE_PAUSE = 0.25;

/** The task's narration estimate: whole seconds of speech. */
export const narrationSeconds = (narration: VideoNarration) =>
  estimateSpeechSeconds(narration.text, narration.speed);

/** Refuses a voice that is not a ready clone of the caller's nor a public voice. */
export async function checkVoice(db: Executor, ownerId: number, voiceId: number): Promise<void> {
  const voice =
    voiceId <= MAX_INT4
      ? await db
          .selectFrom('dh_voice_clones')
          .select('id')
          .where('id', '=', voiceId)
          .where((eb) => eb.or([eb('owner_id', '=', ownerId), eb('owner_id', 'is', null)]))
          .where('status', '=', 'ready')
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      : undefined;
  if (!voice) throw refuse('dhVideo.voiceMissing', { id: voiceId });
}

/** Holds `amount` `digital_man` seconds for the task's narration; refuses when short. */
export async function freezeNarration(
  ctx: AppContext,
  trx: Trx,
  task: { id: number; ownerId: number; name: string },
  amount: number,
): Promise<void> {
  const balance = await balanceOf(trx, task.ownerId, 'digital_man');
  if (balance < amount) {
    throw refuse('digitalHuman.insufficient.digital_man', {
      amount: String(amount),
      balance: String(balance),
    });
  }
  await openHold(ctx, trx, {
    userId: task.ownerId,
    asset: 'digital_man',
    relatedType: RELATED,
    relatedId: task.id,
    amount,
    memo: { id: 'memo.dhFreeze', params: { name: task.name } },
  });
}

/**
 * A retried task: when its narration was returned (no narration hold settled anything), holds it
 * again (the real length when the speech is stored, else the estimate).
 */
export async function freezeNarrationAgain(
  ctx: AppContext,
  trx: Trx,
  task: { id: number; ownerId: number; name: string },
): Promise<void> {
  const row = await trx
    .selectFrom('video_tasks')
    .select(['params', 'narration_ms', 'narration_price'])
    .where('id', '=', task.id)
    .executeTakeFirstOrThrow();
  const narration = (JSON.parse(row.params) as { narration?: VideoNarration }).narration;
  if (!narration) return;
  const holds = (await holdsOf(trx, RELATED, task.id)).filter((h) => h.asset === 'digital_man');
  if (holds.some((h) => !h.closed || h.settled > 0)) return;
  const seconds =
    row.narration_ms !== null
      ? Math.ceil(Number(row.narration_ms) / 1000 - 1e-6)
      : narrationSeconds(narration);
  await freezeNarration(ctx, trx, task, seconds * Number(row.narration_price));
}

/**
 * Settles or returns the task's open narration holds once it is finished (in the transaction
 * of the change that finished it, before its money holds close): with an output done and the
 * speech made, its real whole seconds × price are settled and the rest returned; else all is
 * returned.
 */
export async function settleNarration(ctx: AppContext, trx: Trx, taskId: number): Promise<void> {
  const holds = (await holdsOf(trx, RELATED, taskId)).filter(
    (h) => h.asset === 'digital_man' && !h.closed,
  );
  if (holds.length === 0) return;
  const task = await trx
    .selectFrom('video_tasks')
    .select(['name', 'owner_id', 'narration_ms', 'narration_price'])
    .where('id', '=', taskId)
    .executeTakeFirstOrThrow();
  const done = await trx
    .selectFrom('video_outputs')
    .select('id')
    .where('task_id', '=', taskId)
    .where('status', '=', 'done')
    .executeTakeFirst();
  const name = task.name;
  for (const hold of holds) {
    if (!done || task.narration_ms === null) {
      await refundPart(ctx, trx, hold.id, PART, hold.held, {
        id: 'memo.dhRefund',
        params: { name },
      });
      await closeHold(ctx, trx, hold.id);
      continue;
    }
    const used = Math.ceil(Number(task.narration_ms) / 1000 - 1e-6) * Number(task.narration_price);
    let held = hold.held;
    if (used > held) {
      const extra = Math.min(
        used - held,
        await balanceOf(trx, Number(task.owner_id), 'digital_man'),
      );
      if (extra > 0) {
        await extendHold(ctx, trx, hold.id, extra, { id: 'memo.dhExtra', params: { name } });
        held += extra;
      }
    }
    await settlePart(ctx, trx, hold.id, PART, Math.min(used, held));
    await closeHold(ctx, trx, hold.id, { id: 'memo.dhUnused', params: { name } });
  }
}

/** The task's speech: a file ffmpeg reads, and each sentence's time in it. */
export interface Speech {
  key: string;
  lines: SubtitleLine[];
}

/**
 * The task's speech, made (and stored) by the first output that needs it; a voice gone or a
 * provider's permanent refusal fails the output (refunded), a passing fault is retried.
 */
export async function taskSpeech(
  ctx: AppContext,
  taskId: number,
  ownerId: number,
  narration: VideoNarration,
  workDir: string,
  signal: AbortSignal,
): Promise<Speech> {
  const stored = await storedSpeech(ctx, taskId);
  if (stored) return stored;
  const voice = await ctx.db
    .selectFrom('dh_voice_clones')
    .select(['profile', 'status'])
    .where('id', '=', narration.voice_id)
    .where((eb) => eb.or([eb('owner_id', '=', ownerId), eb('owner_id', 'is', null)]))
    .executeTakeFirst();
  if (!voice?.profile || voice.status !== 'ready') {
    throw new PermanentWorkFailure({ reasonId: 'dhVideo.reason.voiceGone', reasonParams: {} });
  }
  const dir = path.join(workDir, 'narration');
  await fs.mkdir(dir, { recursive: true });
  const sentences = splitSentences(narration.text);
  const pieces: { file: string; duration: number }[] = [];
  try {
    for (const [i, sentence] of sentences.entries()) {
      const pieceDir = path.join(dir, `s${i}`);
      await fs.mkdir(pieceDir);
      const speech = await ctx.integrations.digitalHuman.synthesize(
        {
          text: sentence,
          language: speechLanguageOf(narration.text),
          voice: JSON.parse(voice.profile) as Record<string, unknown>,
          speed: narration.speed,
          volume: narration.volume,
        },
        { workDir: pieceDir, signal, idempotencyKey: `video_task:${taskId}:narration:${i}` },
      );
      pieces.push({ file: speech.audioPath, duration: speech.duration });
    }
  } catch (error) {
    if (error instanceof ProviderError && error.permanent) {
      throw new PermanentWorkFailure(
        { reasonId: error.reasonId, reasonParams: error.reasonParams, detail: error.message },
        { cause: error },
      );
    }
    throw error;
  }
  const lines: SubtitleLine[] = [];
  let at = 0;
  for (const [i, piece] of pieces.entries()) {
    lines.push({ start: round3(at), end: round3(at + piece.duration), text: sentences[i]! });
    at += piece.duration + SENTENCE_PAUSE;
  }
  const joined = path.join(dir, 'narration.m4a');
  await joinPieces(pieces, joined, signal);
  const key = `videos/u${ownerId}/t${taskId}/narration-${Date.now().toString(36)}.m4a`;
  await ctx.storage.storeFile(key, joined, { contentType: 'audio/mp4' });
  const updated = await ctx.db
    .updateTable('video_tasks')
    .set({
      narration_key: key,
      narration_ms: Math.round((at - SENTENCE_PAUSE) * 1000),
      narration_lines: JSON.stringify(lines),
    })
    .where('id', '=', taskId)
    .where('narration_key', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return { key, lines };
  // Another output stored its speech first: that one is used.
  await ctx.storage.delete(key);
  const winner = await storedSpeech(ctx, taskId);
  if (!winner) throw new Error('narration not recorded');
  return winner;
}

async function storedSpeech(ctx: AppContext, taskId: number): Promise<Speech | null> {
  const row = await ctx.db
    .selectFrom('video_tasks')
    .select(['narration_key', 'narration_lines'])
    .where('id', '=', taskId)
    .executeTakeFirstOrThrow();
  if (row.narration_key === null || row.narration_lines === null) return null;
  return { key: row.narration_key, lines: JSON.parse(row.narration_lines) as SubtitleLine[] };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const MONO = 'aformat=sample_fmts=fltp:sample_rates=44100:channel_layouts=mono';

/**
 * The sentences' speech as one AAC file: each piece cut or padded to exactly its reported length
 * plus the pause (so the times computed from the lengths are the file's), mono, 44.1 kHz.
 */
async function joinPieces(
  pieces: readonly { file: string; duration: number }[],
  out: string,
  signal: AbortSignal,
): Promise<void> {
  const inputs = pieces.flatMap((p) => ['-i', p.file]);
  const last = pieces.length - 1;
  const graph = pieces.map(
    (p, i) =>
      `[${i}:a]aresample=44100,${MONO},apad,` +
      `atrim=duration=${round3(p.duration + (i < last ? SENTENCE_PAUSE : 0))},asetpts=PTS-STARTPTS[p${i}]`,
  );
  graph.push(`${pieces.map((_, i) => `[p${i}]`).join('')}concat=n=${pieces.length}:v=0:a=1[out]`);
  await runNiced(
    'ffmpeg',
    [
      ...['-nostdin', '-hide_banner', '-v', 'error', '-y', ...inputs],
      ...['-filter_complex', graph.join(';'), '-map', '[out]', '-ac', '1'],
      ...['-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', out],
    ],
    { signal },
  );
}

/** The stored speech of tasks (removed with them). */
export async function speechKeysOf(db: Executor, taskIds: readonly number[]): Promise<string[]> {
  if (taskIds.length === 0) return [];
  const rows = await db
    .selectFrom('video_tasks')
    .select('narration_key')
    .where('id', 'in', [...taskIds])
    .where(sql<boolean>`narration_key is not null`)
    .execute();
  return rows.map((r) => r.narration_key!);
}
