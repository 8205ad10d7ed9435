// @vitest-environment jsdom -- axe runs in jsdom (vitest.config.ts)
/**
 * The notifications bell (src/app/shell/notification-bell.tsx, its drawer and the document title,
 * over the notifications area's machine, docs/domain.md §18) driven as a person would, against a
 * hand-written oracle: the machine's shortest paths only propose event sequences; each step is
 * executed on the rendered bell and drawer (Mark all as read, following an unread notification),
 * on the page (hidden, shown again), on the clock (the next poll) or by the fake count and mark
 * calls settling, and what the person sees after it comes from TRANSITIONS / `sees` below: the
 * bell's name and badge, the title's "(3)", whether a count call is under way — and none while
 * the page is hidden, however long.
 */
import { act, screen, within } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type {
  NotificationCount,
  NotificationListQuery,
  NotificationPage,
  NotificationReadBody,
  NotificationReadReply,
  NotificationRow,
} from '../../src/api/contract/notifications';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { balanceNewsArea } from '../../src/app/actors/balance-news';
import { notificationListArea } from '../../src/app/actors/notification-list';
import {
  documentVisibility,
  notificationsArea,
  type NotificationsEndpoints,
} from '../../src/app/actors/notifications';
import { NotificationBell } from '../../src/app/shell/notification-bell';
import { DocumentTitle } from '../../src/app/shell/shell';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { linkOf } from '../../src/views/shared/deep-links';
import {
  MAX_POLL_MS,
  POLL_MS,
  notificationsMachine,
  pollDelay,
  type NotificationsSnapshot,
} from '../../src/machines/notifications';
import { replyError } from './fixtures';
import { shopAuth } from './video-task-fixtures';
import { person, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));
const bellName = (count: number) =>
  count === 0 ? 'Notifications, none unread' : `Notifications, ${count} unread`;

// ---------------------------------------------------------------------------------------------
// The oracle, from docs/domain.md §18: the count is asked at once and every 30 s while the page
// is shown; a hidden page asks nothing, and asks at once when shown again; a failed ask waits
// twice as long; marking (one followed notification, or all) shows the new count at once and
// asks again; a failed mark keeps the count and says so.

const TRANSITIONS: Record<string, string> = {
  'asking done count': 'shown 3',
  'asking error count': 'unknown, waiting longer',
  'asking HIDE': 'asking, hidden',
  'asking, hidden done count': 'paused 3',
  'asking, hidden error count': 'unknown, paused',
  'unknown, waiting longer TICK_LONG': 'asking',
  'shown 3 TICK': 'shown 3, asking',
  'shown 3, asking done count': 'shown 3',
  'shown 3 HIDE': 'paused 3',
  'paused 3 SHOW': 'shown 3, asking',
  'shown 3 MARK_ALL_READ': 'marking all',
  'marking all done markRead': 'none unread, asking',
  'marking all error markRead': 'mark failed',
  'none unread, asking done count': 'none unread',
  'shown 3 MARK_READ': 'marking one',
  'marking one done markRead': 'two unread, asking',
  'two unread, asking done count': 'two unread',
};

type PathEvent = {
  type: string;
  output?: unknown;
  long?: boolean;
  visible?: boolean;
  ids?: number[];
};

const label = (e: PathEvent) => {
  if (e.type.startsWith('xstate.after.')) return e.long ? 'TICK_LONG' : 'TICK';
  if (e.type === 'VISIBILITY') return e.visible ? 'SHOW' : 'HIDE';
  return e.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');
};

const AFTER = 'xstate.after.next.notifications.poll.waiting';

/** The proposals: what the page, the clock, a person or the server does in a state. */
function events(s: NotificationsSnapshot): PathEvent[] {
  const { count, failures, visible } = s.context;
  const poll = (s.value as { poll: string }).poll;
  const mark = (s.value as { mark: string }).mark;
  const list: PathEvent[] = [];
  if (mark === 'marking') {
    list.push({ type: 'xstate.done.actor.markRead', output: { count: count === 3 ? 1 : 3 } });
    if (s.context.marking && 'all' in s.context.marking) {
      list.push({ type: 'xstate.error.actor.markRead' });
    }
    return list;
  }
  if (poll === 'checking') {
    list.push({ type: 'xstate.done.actor.count', output: count ?? 3 });
    if (count === null && visible && failures === 0 && !s.context.markError) {
      list.push({ type: 'xstate.error.actor.count' }, { type: 'VISIBILITY', visible: false });
    }
    if (count === null && !visible && failures === 0) {
      list.push({ type: 'xstate.error.actor.count' });
    }
    return list;
  }
  if (poll === 'waiting') {
    // Only the count of 3 (none marked yet) is polled, hidden and marked in these paths.
    if (failures > 0) list.push({ type: AFTER, long: true });
    if (count === 3 && !s.context.markError) {
      list.push(
        { type: AFTER },
        { type: 'VISIBILITY', visible: false },
        { type: 'MARK_ALL_READ' },
        { type: 'MARK_READ', ids: [3] },
      );
    }
    return list;
  }
  if (poll === 'paused' && count === 3) list.push({ type: 'VISIBILITY', visible: true });
  return list;
}

/** Three notifications of the merchant's, newest first. */
function rowOf(id: number, read: boolean): NotificationRow {
  return {
    id,
    kind: 'video_task.done',
    message_id: 'notice.videoTask.done',
    params: { name: `Sale ${id}`, task_kind: 'mixed', done: 2, failed: 0, total: 2 },
    text: `Video task “Sale ${id}” is finished: 2 videos ready`,
    subject_type: 'video_task',
    subject_id: 100 + id,
    created_at: Date.UTC(2026, 10, 28, 8, id),
    read_at: read ? Date.UTC(2026, 10, 28, 9) : null,
  };
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function world(options: { mayMark?: boolean } = {}) {
  const unread = new Set([1, 2, 3]);
  const counts: { resolve: (v: NotificationCount) => void; reject: (e: unknown) => void }[] = [];
  const marks: {
    body: NotificationReadBody;
    resolve: (v: NotificationReadReply) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const listed: NotificationListQuery[] = [];
  const endpoints: NotificationsEndpoints = {
    // An aborted call (a check the machine dropped) is no longer under way.
    getUnreadCount: (options) =>
      new Promise<NotificationCount>((resolve, reject) => {
        const call = { resolve, reject };
        counts.push(call);
        options?.signal?.addEventListener('abort', () => counts.splice(counts.indexOf(call), 1));
      }),
    markNotificationsRead: (body) =>
      new Promise<NotificationReadReply>((resolve, reject) =>
        marks.push({ body, resolve, reject }),
      ),
    visibility: documentVisibility,
    mayMark: () => options.mayMark ?? true,
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, notificationsArea, endpoints);
  provideArea(actors, notificationListArea, {
    getNotifications: async (query): Promise<NotificationPage> => {
      listed.push(query);
      const all = [3, 2, 1].map((id) => rowOf(id, !unread.has(id)));
      const list = query.unread ? all.filter((r) => r.read_at === null) : all;
      return { list, total: list.length };
    },
  });
  renderAt(
    actors,
    <>
      <NotificationBell />
      <DocumentTitle />
      <Where />
    </>,
    '/home/index',
  );
  const user = person();
  const tick = async (ms = 0) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  const setVisible = async (visible: boolean) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (visible ? 'visible' : 'hidden'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
    await tick();
  };
  // The drawer hides the page behind it from assistive tech: the bell is found hidden or not.
  const bell = () => screen.getByRole('button', { name: /^Notifications,/, hidden: true });
  const drawer = () => {
    const d = screen.queryAllByTestId('notification-drawer').filter(isOpen)[0];
    return d ? within(d) : null;
  };
  const openDrawer = async () => {
    if (drawer()) return;
    await user.click(bell());
    await vi.waitFor(() => expect(drawer()).not.toBeNull(), { timeout: 5000 });
    await vi.waitFor(() => drawer()!.getAllByRole('link'));
  };
  const settleCount = async (outcome: 'done' | 'error') => {
    expect(counts, 'one count call under way').toHaveLength(1);
    const call = counts.pop();
    if (outcome === 'done') call!.resolve({ count: unread.size });
    else call!.reject(replyError('offline', 'transport'));
    await tick();
  };

  let asked = 0;
  const exec = async (e: PathEvent) => {
    switch (label(e)) {
      case 'done count':
        return settleCount('done');
      case 'error count':
        return settleCount('error');
      case 'TICK':
        return tick(POLL_MS);
      case 'TICK_LONG':
        // Twice the wait after a failure: nothing is asked at the usual time.
        await tick(POLL_MS);
        expect(counts, 'asked at the usual time after a failure').toHaveLength(0);
        return tick(POLL_MS);
      case 'HIDE':
        await setVisible(false);
        asked = counts.length;
        // However long the page stays hidden.
        return tick(10 * MAX_POLL_MS);
      case 'SHOW':
        return setVisible(true);
      case 'MARK_ALL_READ':
        await openDrawer();
        return user.click(
          drawer()!.getByRole('button', { name: text('notifications.markAllRead') }),
        );
      case 'MARK_READ':
        await openDrawer();
        return user.click(drawer()!.getByRole('link', { name: /^Unread:\s*Video task “Sale 3”/ }));
      case 'done markRead': {
        const call = marks.shift()!;
        const ids = 'ids' in call.body ? (call.body.ids as number[]) : [...unread];
        const changed = ids.filter((id) => unread.delete(id)).length;
        call.resolve({ count: changed });
        return tick();
      }
      case 'error markRead':
        marks.shift()!.reject(replyError('Try again later'));
        return tick();
      default:
        throw new Error(`a person cannot cause ${label(e)}`);
    }
  };

  const shows = (count: number) => {
    expect(bell().getAttribute('aria-label')).toBe(bellName(count));
    const badge = screen.queryByTestId('notification-count');
    expect(badge?.textContent ?? null).toBe(count > 0 ? String(count) : null);
    expect(document.title.startsWith(`(${count})`)).toBe(count > 0);
  };
  const asking = (yes: boolean) => expect(counts.length > 0, 'a count call under way').toBe(yes);
  const sees: Record<string, () => void | Promise<void>> = {
    asking: () => {
      shows(0);
      asking(true);
    },
    'asking, hidden': () => {
      shows(0);
      // Only the call asked before the page was hidden.
      expect(counts).toHaveLength(asked);
    },
    'unknown, waiting longer': () => {
      shows(0);
      asking(false);
    },
    'shown 3': () => {
      shows(3);
      asking(false);
      expect(marks, 'mark calls under way').toEqual([]);
    },
    'shown 3, asking': () => {
      shows(3);
      asking(true);
    },
    'unknown, paused': async () => {
      shows(0);
      asking(false);
      // A failed check of a hidden page does not try again until the page is shown.
      await tick(10 * MAX_POLL_MS);
      asking(false);
    },
    'paused 3': async () => {
      shows(3);
      asking(false);
      // However long the page stays hidden, nothing is asked.
      await tick(10 * MAX_POLL_MS);
      asking(false);
    },
    'marking all': () => {
      shows(3);
      expect(marks.map((m) => m.body)).toEqual([{ all: true }]);
    },
    'mark failed': () => {
      shows(3);
      expect(
        drawer()!
          .getByRole('button', { name: text('notifications.markAllRead') })
          .hasAttribute('disabled'),
      ).toBe(false);
      expect(drawer()!.getByText(text('notifications.markFailed'))).toBeTruthy();
      expect(marks).toEqual([]);
    },
    'none unread, asking': () => {
      shows(0);
      asking(true);
      expect(marks).toEqual([]);
    },
    'none unread': () => {
      shows(0);
      asking(false);
      expect(marks, 'mark calls under way').toEqual([]);
      // The list was loaded again after the mark: nothing unread on show.
      expect(drawer()!.queryAllByText(/^Unread:/)).toEqual([]);
    },
    'marking one': () => {
      shows(3);
      expect(marks.map((m) => m.body)).toEqual([{ ids: [3] }]);
      // Following it closed the drawer and went to the task's drawer on its list page.
      expect(drawer()).toBeNull();
      expect(screen.getByTestId('where').textContent).toBe('/creation/mixed-task?task=103');
    },
    'two unread, asking': () => {
      shows(2);
      asking(true);
      expect(marks, 'mark calls under way').toEqual([]);
    },
    'two unread': async () => {
      shows(2);
      asking(false);
      expect(marks, 'mark calls under way').toEqual([]);
      // Marking is over: all the rest may be marked.
      await openDrawer();
      const all = drawer()!.getByRole('button', { name: text('notifications.markAllRead') });
      expect(all.hasAttribute('disabled')).toBe(false);
    },
  };
  return {
    exec,
    sees,
    user,
    bell,
    drawer,
    openDrawer,
    settleCount,
    marks,
    counts,
    listed,
    tick,
    actors,
    setVisible,
    dispose: () => actors.dispose(),
  };
}

viewPathHooks({
  after: () => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => 'visible',
    });
  },
});

describe('the notifications bell', () => {
  uiPaths({
    oracle: { initial: 'asking', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(notificationsMachine, {
      input: { visible: true, canMark: true },
      events: (s) => events(s) as never[],
      serializeState: (s) =>
        JSON.stringify([
          s.value,
          s.context.count,
          s.context.failures,
          s.context.visible,
          s.context.markError,
          s.context.marking,
        ]),
    }) as never,
    // Shown again, the page asks at once (the state it reaches is reached sooner by a tick).
    more: [
      {
        steps: [
          { event: { type: 'xstate.init' } },
          { event: { type: 'xstate.done.actor.count', output: 3 } },
          { event: { type: 'VISIBILITY', visible: false } },
          { event: { type: 'VISIBILITY', visible: true } },
          { event: { type: 'xstate.done.actor.count', output: 3 } },
        ],
      },
    ] as never,
    run: async (_, walk) => {
      const w = world();
      await walk({ exec: w.exec as never, sees: w.sees });
      w.dispose();
    },
    timeout: 30_000,
  });

  test('waits twice as long after each failed check, at most 5 minutes', () => {
    expect([0, 1, 2, 3, 4, 10].map(pollDelay)).toEqual([
      30_000, 60_000, 120_000, 240_000, 300_000, 300_000,
    ]);
  });

  test('paid work seen finishing elsewhere, or the drawer opened, asks the count at once', async () => {
    const w = world();
    await w.settleCount('done');
    expect(w.counts).toHaveLength(0);
    // A watch of another area saw work finish (balance news): no wait for the next poll.
    areasOf(w.actors).get(balanceNewsArea).moved();
    await w.tick();
    expect(w.counts).toHaveLength(1);
    await w.settleCount('done');
    await w.openDrawer();
    expect(w.counts).toHaveLength(1);
    w.dispose();
  });

  test('a page hidden from the start asks nothing until it is shown', async () => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => 'hidden',
    });
    const w = world();
    await w.tick(10 * MAX_POLL_MS);
    expect(w.counts).toHaveLength(0);
    await w.setVisible(true);
    expect(w.counts).toHaveLength(1);
    await w.settleCount('done');
    expect(w.bell().getAttribute('aria-label')).toBe(bellName(3));
    w.dispose();
  });

  test('each kind of notification leads to its page', () => {
    const row = (subject_type: NotificationRow['subject_type'], task_kind?: string) => ({
      subject_type,
      subject_id: 7,
      params: (task_kind ? { task_kind } : {}) as Record<string, string>,
    });
    expect(
      [
        row('video_task', 'mixed'),
        row('video_task', 'clip'),
        row('dh_video'),
        row('dh_image_clone'),
        row('dh_voice_clone'),
      ].map(linkOf),
    ).toEqual([
      '/creation/mixed-task?task=7',
      '/creation/clip?task=7',
      '/digital-human/digital-video?video=7',
      '/digital-human/image-clone',
      '/digital-human/sound-clone',
    ]);
  });

  test('a login-as session sees the notifications but marks nothing read', async () => {
    const w = world({ mayMark: false });
    await w.settleCount('done');
    await w.openDrawer();
    const d = w.drawer()!;
    expect(d.queryByRole('button', { name: text('notifications.markAllRead') })).toBeNull();
    expect(d.getByText(text('notifications.lookOnly'))).toBeTruthy();
    await w.user.click(d.getAllByRole('link')[1]);
    expect(w.marks).toEqual([]);
    expect(screen.getByTestId('where').textContent).toBe('/creation/mixed-task?task=102');
    w.dispose();
  });

  test('the drawer filters the unread, links each kind to its page, and axe finds nothing', async () => {
    const w = world();
    await w.settleCount('done');
    await w.openDrawer();
    const d = w.drawer()!;
    expect(d.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/creation/mixed-task?task=103',
      '/creation/mixed-task?task=102',
      '/creation/mixed-task?task=101',
    ]);
    await w.user.click(d.getByRole('button', { name: text('notifications.unreadOnly') }));
    await vi.waitFor(() => expect(w.listed.at(-1)).toEqual({ page: 1, limit: 10, unread: true }));
    vi.useRealTimers();
    try {
      const axe = (await import('axe-core')).default;
      const result = await axe.run(document.body);
      expect(result.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
    } finally {
      vi.useFakeTimers();
    }
    w.dispose();
  });
});
