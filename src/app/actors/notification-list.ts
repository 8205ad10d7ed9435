/**
 * The notifications' list (docs/domain.md §18), loaded with the bell's drawer (not with the
 * navbar): a paged list of the signed-in user's notifications, newest first, all or only the
 * unread. It follows the bell's actor (notifications.ts): after a mark it loads again, and when
 * the unread count grows (something new arrived) while it is on show it loads again too.
 */
import { createActor, fromPromise } from 'xstate';
import type { NotificationRow } from '../../api/contract/notifications';
import * as api from '../../api/notifications';
import { createListMachine } from '../../machines/list';
import { defineArea } from './areas';
import { notificationsArea } from './notifications';

export interface NotificationFilters {
  unread: boolean;
}

export interface NotificationListEndpoints {
  getNotifications: typeof api.getNotifications;
}

/** Notifications per page of the drawer. */
export const NOTIFICATION_PAGE_SIZE = 10;

const listMachine = createListMachine<NotificationFilters, NotificationRow>('notificationList');

export const notificationListArea = defineArea({
  key: 'notificationList',
  live: (): NotificationListEndpoints => ({ getNotifications: api.getNotifications }),
  create: (e: NotificationListEndpoints, areas) => {
    const { bell } = areas.get(notificationsArea);
    const list = createActor(
      listMachine.provide({
        actors: {
          fetchPage: fromPromise(({ input, signal }) =>
            e.getNotifications(
              {
                page: input.page,
                limit: input.limit,
                ...(input.filters.unread ? { unread: true } : {}),
              },
              { signal },
            ),
          ),
        },
      }),
      { input: { filters: { unread: false }, limit: NOTIFICATION_PAGE_SIZE } },
    );
    list.start();
    const marked = bell.on('marked', () => list.send({ type: 'RELOAD' }));
    let count = bell.getSnapshot().context.count;
    const arrivals = bell.subscribe((snapshot) => {
      const now = snapshot.context.count;
      if (now !== null && count !== null && now > count) list.send({ type: 'RELOAD' });
      count = now;
    });
    return {
      list,
      stop() {
        marked.unsubscribe();
        arrivals.unsubscribe();
        list.stop();
      },
    };
  },
});
