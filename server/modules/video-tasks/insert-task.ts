import type { VideoTaskParams } from '../../../src/api/contract/video-tasks';
import type { Trx } from '../ledger';
import { RELATED } from './billing';
import type { TaskPlan } from './check-body';

export interface NewTask {
  ownerId: number;
  params: VideoTaskParams;
  plan: TaskPlan;
  /** Cents per output, fixed at add. */
  unit: number;
  /** `digital_man` seconds per second of narration, fixed at add (0: none or free). */
  narrationPrice: number;
  /**
   * The hold that already pays every output (a CSV batch's, batch.ts): the outputs carry its id
   * and the task's `frozen` is their price. Absent: the caller freezes the price (`freeze` sets
   * both).
   */
  holdId?: number;
  now: number;
}

/**
 * A new task's rows, in the caller's transaction (`add` in service.ts, each row of a CSV batch in
 * batch.ts): the task, its outputs (queued, billing held) and its resource references (the files
 * stay while the task exists). Money moves in the caller's hold, not here.
 */
export async function insertTask(
  trx: Trx,
  task: NewTask,
): Promise<{ id: number; outputIds: number[] }> {
  const { ownerId, params, plan, unit, holdId, now } = task;
  const row = await trx
    .insertInto('video_tasks')
    .values({
      owner_id: ownerId,
      kind: params.kind,
      name: params.name,
      status: 'pending',
      params: JSON.stringify(params),
      total: plan.count,
      unit_price: unit,
      narration_price: task.narrationPrice,
      ...(holdId === undefined ? {} : { frozen: unit * plan.count }),
      progress_at: now,
      created_at: now,
      updated_at: now,
      finished_at: null,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  const outputs = await trx
    .insertInto('video_outputs')
    .values(
      plan.pick(id).map((combination, i) => ({
        task_id: id,
        idx: i + 1,
        status: 'queued',
        combination: JSON.stringify(combination),
        planned_ms: plan.plannedMs(combination),
        billing: 'held' as const,
        price: unit,
        hold_id: holdId ?? null,
        job_id: null,
        storage_key: null,
        poster_key: null,
        duration_ms: null,
        size: null,
        width: null,
        height: null,
        reason_id: null,
        reason_params: null,
        reason_detail: null,
        started_at: null,
        finished_at: null,
        updated_at: now,
      })),
    )
    .returning('id')
    .execute();
  await trx
    .insertInto('resource_refs')
    .values(
      plan.resourceIds.map((resourceId) => ({
        resource_id: resourceId,
        task_kind: RELATED,
        task_id: id,
        created_at: now,
      })),
    )
    .execute();
  return { id, outputIds: outputs.map((o) => Number(o.id)) };
}
