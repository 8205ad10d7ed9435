/**
 * The notifications area (docs/domain.md §18): the bell's actor, which keeps the signed-in
 * user's unread count live and marks notifications read. The area, not a view, owns the polling:
 * it lives as long as the area (until the signed-in user changes, when the registry stops it), is
 * paused while the page is hidden (`document.visibilityState`), and asks at once when the page is
 * shown again or when a watch of another area saw paid work finish (balance news); a count that
 * rises is balance news itself (work finished while no watch ran). The list of
 * notifications is a lazily loaded area of its own (notification-list.ts), so the bell in the
 * navbar carries no list code.
 */
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { tokenStore } from '../../api/http';
import * as api from '../../api/notifications';
import { notificationsMachine } from '../../machines/notifications';
import { defineArea } from './areas';
import { balanceNewsArea } from './balance-news';
import { inspection } from './inspection';

/** Whether the page is shown, and a way to hear when that changes. */
export interface PageVisibility {
  visible(): boolean;
  subscribe(listener: (visible: boolean) => void): () => void;
}

export interface NotificationsEndpoints {
  getUnreadCount: typeof api.getUnreadCount;
  markNotificationsRead: typeof api.markNotificationsRead;
  visibility: PageVisibility;
  /** A login-as session looks at the merchant's notifications without marking them read. */
  mayMark: () => boolean;
}

/** The document's visibility (`visibilitychange`). */
export const documentVisibility: PageVisibility = {
  visible: () => typeof document === 'undefined' || document.visibilityState !== 'hidden',
  subscribe(listener) {
    if (typeof document === 'undefined') return () => {};
    const changed = () => listener(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', changed);
    return () => document.removeEventListener('visibilitychange', changed);
  },
};

export interface NotificationsActors {
  bell: ActorRefFrom<typeof notificationsMachine>;
  stop(): void;
}

export const notificationsArea = defineArea<NotificationsEndpoints, NotificationsActors>({
  key: 'notifications',
  live: () => ({
    getUnreadCount: api.getUnreadCount,
    markNotificationsRead: api.markNotificationsRead,
    visibility: documentVisibility,
    mayMark: () => tokenStore.kind() !== 'session',
  }),
  create: (e, areas) => {
    const bell = createActor(
      notificationsMachine.provide({
        actors: {
          // Quiet: a failed poll shows no toast (the bell keeps its last count and tries later).
          count: fromPromise(async ({ signal }) => {
            const reply = await e.getUnreadCount({ signal, quiet: true });
            return reply.count;
          }),
          markRead: fromPromise(({ input, signal }) => e.markNotificationsRead(input, { signal })),
        },
      }),
      {
        ...inspection(),
        systemId: 'notifications',
        input: { visible: e.visibility.visible(), canMark: e.mayMark() },
      },
    );
    bell.start();
    const stopVisibility = e.visibility.subscribe((visible) =>
      bell.send({ type: 'VISIBILITY', visible }),
    );
    const balanceNews = areas.get(balanceNewsArea);
    const news = balanceNews.onMoved(() => bell.send({ type: 'REFRESH' }));
    // A new notification is news of paid work finished on the server (a task done, partly done or
    // failed, a video, a clone: settled or refunded), seen by the bell's poll even when no watch
    // runs (the work bench shown, no task on screen): the balances shown reload. The REFRESH that
    // balance news sends back finds the same count, so this tells once per new notification.
    let known: number | null = null;
    const arrivals = bell.subscribe(({ context: { count } }) => {
      if (count === null) return;
      const rose = known !== null && count > known;
      known = count;
      if (rose) balanceNews.moved();
    });
    return {
      bell,
      stop() {
        arrivals.unsubscribe();
        news.unsubscribe();
        stopVisibility();
        bell.stop();
      },
    };
  },
});
