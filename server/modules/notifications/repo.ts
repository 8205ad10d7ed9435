import type {
  NotificationListParams,
  NotificationPage,
  NotificationRow,
} from '../../../src/api/contract/notifications';
import type { Locale } from '../../../src/api/contract/messages';
import { rowCount } from '../../platform/db/conditions';
import type { Executor } from '../../platform/db/schema';
import { isMessageId, t } from '../../platform/i18n';

/**
 * The caller's own notifications (docs/domain.md §18): every query is bound to `userId`, so
 * nobody reads or marks another's rows.
 */

const parseParams = (text: string): Record<string, string | number> => {
  try {
    return JSON.parse(text) as Record<string, string | number>;
  } catch {
    return {};
  }
};

/** One page, newest first, with each text in the reader's locale. */
export async function listNotifications(
  db: Executor,
  userId: number,
  query: NotificationListParams,
  locale: Locale,
): Promise<NotificationPage> {
  const mine = db
    .selectFrom('notifications')
    .where('user_id', '=', userId)
    .$if(query.unread === true, (q) => q.where('read_at', 'is', null));
  const rows = await mine
    .selectAll()
    .orderBy('id', 'desc')
    .limit(rowCount(query.limit))
    .offset(rowCount((query.page - 1) * query.limit))
    .execute();
  const { n } = await mine
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  // A `reason` param is a message id (a failed post's): shown in the reader's language too.
  const shown = (params: Record<string, string | number>) =>
    typeof params.reason === 'string' && isMessageId(params.reason)
      ? { ...params, reason: t(locale, params.reason) }
      : params;
  const list = rows.map((row): NotificationRow => {
    const params = parseParams(row.params);
    return {
      id: Number(row.id),
      kind: row.kind as NotificationRow['kind'],
      message_id: row.message_id,
      params,
      text: isMessageId(row.message_id) ? t(locale, row.message_id, shown(params)) : row.message_id,
      subject_type: row.subject_type as NotificationRow['subject_type'],
      subject_id: Number(row.subject_id),
      created_at: Number(row.created_at),
      read_at: row.read_at === null ? null : Number(row.read_at),
    };
  });
  return { list, total: Number(n) };
}

export async function unreadCount(db: Executor, userId: number): Promise<number> {
  const { n } = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Marks the caller's unread rows read: the ids named (ids of other people's rows, or of none,
 * change nothing) or all of them. Answers how many changed.
 */
export async function markRead(
  db: Executor,
  userId: number,
  which: { ids: readonly number[] } | 'all',
  now: number,
): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .$if(typeof which === 'object', (q) =>
      q.where('id', 'in', typeof which === 'object' ? which.ids : []),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
