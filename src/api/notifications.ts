/**
 * Notifications (`/notification/*`, docs/domain.md §18); contract: ./contract/notifications.ts.
 * Only the caller's own exist for it.
 */
import type {
  NotificationCount,
  NotificationListQuery,
  NotificationPage,
  NotificationReadBody,
  NotificationReadReply,
} from './contract/notifications';
import { get, post, type RequestOptions } from './http';

/** How many of the caller's notifications are unread. */
export function getUnreadCount(options?: RequestOptions): Promise<NotificationCount> {
  return get<NotificationCount>('/notification/unread_count', undefined, options);
}

/** One page of the caller's notifications, newest first (`unread`: only the unread ones). */
export function getNotifications(
  query: NotificationListQuery,
  options?: RequestOptions,
): Promise<NotificationPage> {
  return get<NotificationPage>('/notification/list', { ...query }, options);
}

/** Marks the caller's notifications read: the ids named, or all. */
export function markNotificationsRead(
  body: NotificationReadBody,
  options?: RequestOptions,
): Promise<NotificationReadReply> {
  return post<NotificationReadReply>('/notification/read', body, options);
}
