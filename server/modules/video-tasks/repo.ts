import { sql, type Selectable, type SqlBool } from 'kysely';
import type { VideoTaskListParams } from '../../../src/api/contract/video-tasks';
import { allOf, rowCount } from '../../platform/db/conditions';
import type { Executor, VideoOutputsTable, VideoTasksTable } from '../../platform/db/schema';

export type TaskRow = Selectable<VideoTasksTable>;
export type OutputRow = Selectable<VideoOutputsTable>;

/** The owner's live task (another's, or a deleted one, is not found: undefined). */
export function findTask(db: Executor, ownerId: number, id: number): Promise<TaskRow | undefined> {
  return db
    .selectFrom('video_tasks')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function outputsOf(db: Executor, taskIds: readonly number[]): Promise<OutputRow[]> {
  if (taskIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('video_outputs')
    .selectAll()
    .where('task_id', 'in', taskIds)
    .orderBy('task_id')
    .orderBy('idx')
    .execute();
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A page of the owner's live tasks of a kind, newest first. */
export async function listTasks(
  db: Executor,
  ownerId: number,
  query: VideoTaskListParams,
): Promise<{ rows: TaskRow[]; total: number }> {
  const conditions = [
    sql<SqlBool>`owner_id = ${ownerId}`,
    sql<SqlBool>`kind = ${query.kind}`,
    sql<SqlBool>`deleted_at is null`,
  ];
  if (query.status) conditions.push(sql<SqlBool>`status = ${query.status}`);
  if (query.keyword) {
    const pattern = `%${escapeLike(query.keyword.toLowerCase())}%`;
    conditions.push(sql<SqlBool>`lower(name) like ${pattern} escape '\\'`);
  }
  const where = allOf(conditions);
  const [rows, count] = await Promise.all([
    db
      .selectFrom('video_tasks')
      .selectAll()
      .where(where)
      .orderBy('id', 'desc')
      .limit(rowCount(query.limit))
      .offset(rowCount((query.page - 1) * query.limit))
      .execute(),
    db
      .selectFrom('video_tasks')
      .select(sql<number>`count(*)`.as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
