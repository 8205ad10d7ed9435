import type {
  NotificationKind,
  NotificationSubject,
} from '../../../src/api/contract/notifications';
import type { Executor } from '../../platform/db/schema';
import type { ServerMessageId } from '../../platform/i18n';
import { wantsNotification } from '../system';

/**
 * The events that write a notification (docs/domain.md §18). Each is called once by the feature
 * code, in the transaction that writes the unit's final status, so the notification commits with
 * the status or not at all. A unit that finishes again later (a retried task) writes another;
 * the same finish written twice (a re-run, a repeated callback) writes one (`event_key`).
 */

type Params = Record<string, string | number>;

interface NewNotification {
  userId: number;
  kind: NotificationKind;
  messageId: ServerMessageId;
  params: Params;
  subject: NotificationSubject;
  subjectId: number;
  /** Names the event once: the same key is never written twice. */
  eventKey: string;
  now: number;
}

async function write(db: Executor, n: NewNotification): Promise<void> {
  // The user's own notification settings (docs/domain.md §12 "The caller's own settings").
  if (!(await wantsNotification(db, n.userId, n.kind))) return;
  await db
    .insertInto('notifications')
    .values({
      user_id: n.userId,
      kind: n.kind,
      message_id: n.messageId,
      params: JSON.stringify(n.params),
      subject_type: n.subject,
      subject_id: n.subjectId,
      event_key: n.eventKey,
      created_at: n.now,
    })
    .onConflict((oc) => oc.column('event_key').doNothing())
    .execute();
}

const TASK_MESSAGES = {
  done: 'notice.videoTask.done',
  partly_done: 'notice.videoTask.partlyDone',
  failed: 'notice.videoTask.failed',
} as const satisfies Record<string, ServerMessageId>;

/**
 * A video task's status was just written (billing.ts `refreshTask`, in its transaction): a task
 * that is now done, partly done or failed tells its owner (a cancelled one does not: its owner
 * cancelled it). Params: the task's name and kind, its outputs done and failed, and their total.
 */
export async function notifyVideoTaskStatus(
  db: Executor,
  taskId: number,
  status: string,
): Promise<void> {
  if (!Object.hasOwn(TASK_MESSAGES, status)) return;
  const outcome = status as keyof typeof TASK_MESSAGES;
  const task = await db
    .selectFrom('video_tasks')
    .select(['owner_id', 'name', 'kind', 'total', 'finished_at'])
    .where('id', '=', taskId)
    .executeTakeFirst();
  if (!task || task.finished_at === null) return;
  const counts = await db
    .selectFrom('video_outputs')
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere('status', '=', 'done').as('done'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'failed').as('failed'),
    ])
    .where('task_id', '=', taskId)
    .executeTakeFirstOrThrow();
  const finishedAt = Number(task.finished_at);
  await write(db, {
    userId: Number(task.owner_id),
    kind: `video_task.${outcome}`,
    messageId: TASK_MESSAGES[outcome],
    params: {
      name: task.name,
      task_kind: task.kind,
      done: Number(counts.done),
      failed: Number(counts.failed),
      total: Number(task.total),
    },
    subject: 'video_task',
    subjectId: taskId,
    eventKey: `video_task:${taskId}:${outcome}:${finishedAt}`,
    now: finishedAt,
  });
}

/** The digital-human tables and what their rows are. */
const DH_SUBJECTS = {
  dh_image_clones: 'dh_image_clone',
  dh_voice_clones: 'dh_voice_clone',
  dh_videos: 'dh_video',
} as const satisfies Record<string, NotificationSubject>;
type DhTable = keyof typeof DH_SUBJECTS;

const DH_MESSAGES = {
  'dh_image_clone.ready': 'notice.imageClone.ready',
  'dh_image_clone.failed': 'notice.imageClone.failed',
  'dh_voice_clone.ready': 'notice.voiceClone.ready',
  'dh_voice_clone.failed': 'notice.voiceClone.failed',
  'dh_video.done': 'notice.dhVideo.done',
  'dh_video.failed': 'notice.dhVideo.failed',
} as const satisfies Partial<Record<NotificationKind, ServerMessageId>>;

/**
 * A clone or a digital-human video reached its final status (digital-human billing.ts
 * `finishHeld`, in its transaction): ready / done or failed tells its owner. Params: its name.
 */
export async function notifyDhFinished(
  db: Executor,
  table: DhTable,
  id: number,
  status: string,
): Promise<void> {
  const kind = `${DH_SUBJECTS[table]}.${status}`;
  if (!Object.hasOwn(DH_MESSAGES, kind)) return;
  const row = await db
    .selectFrom(table)
    .select(['owner_id', 'name', 'finished_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.owner_id === null || row.finished_at === null) return;
  const finishedAt = Number(row.finished_at);
  await write(db, {
    userId: Number(row.owner_id),
    kind: kind as keyof typeof DH_MESSAGES,
    messageId: DH_MESSAGES[kind as keyof typeof DH_MESSAGES],
    params: { name: row.name },
    subject: DH_SUBJECTS[table],
    subjectId: id,
    eventKey: `${kind}:${id}:${finishedAt}`,
    now: finishedAt,
  });
}

const ACCOUNT_MESSAGES = {
  expiring: 'notice.matrixAccount.expiring',
  expired: 'notice.matrixAccount.expired',
  revoked: 'notice.matrixAccount.revoked',
} as const satisfies Record<string, ServerMessageId>;

/**
 * A social account needs authorising again (matrix `tokens.ts`, in the transaction that writes its
 * status): expiring (no renewal left, the refresh token ends soon), expired or revoked tells its
 * owner once per state (`since`: when the refresh token ends, or when the state began). Params:
 * its nickname.
 */
export async function notifyAccountAttention(
  db: Executor,
  account: { id: number; owner_id: number; nickname: string },
  status: keyof typeof ACCOUNT_MESSAGES,
  since: number,
  now: number,
): Promise<void> {
  await write(db, {
    userId: account.owner_id,
    kind: `matrix_account.${status}`,
    messageId: ACCOUNT_MESSAGES[status],
    params: { name: account.nickname },
    subject: 'matrix_account',
    subjectId: account.id,
    eventKey: `matrix_account:${account.id}:${status}:${since}`,
    now,
  });
}

/**
 * A post of a release plan failed or was skipped (matrix `publish.ts`, in the transaction that
 * writes it): its plan's owner is told, once per post and outcome. Params: the plan's name, the
 * account's nickname and the reason's message id (rendered in the reader's locale).
 */
export async function notifyPostTrouble(
  db: Executor,
  postId: number,
  outcome: 'failed' | 'skipped',
  now: number,
): Promise<void> {
  const row = await db
    .selectFrom('matrix_posts as p')
    .innerJoin('matrix_plans as pl', 'pl.id', 'p.plan_id')
    .innerJoin('matrix_accounts as a', 'a.id', 'p.account_id')
    .select(['p.owner_id', 'p.plan_id', 'p.reason_id', 'pl.name', 'a.nickname'])
    .where('p.id', '=', postId)
    .executeTakeFirst();
  if (!row) return;
  await write(db, {
    userId: Number(row.owner_id),
    kind: `matrix_post.${outcome}`,
    messageId: outcome === 'failed' ? 'notice.matrixPost.failed' : 'notice.matrixPost.skipped',
    params: { name: row.name, account: row.nickname, reason: row.reason_id ?? '' },
    subject: 'matrix_plan',
    subjectId: Number(row.plan_id),
    eventKey: `matrix_post:${postId}:${outcome}:${now}`,
    now,
  });
}
