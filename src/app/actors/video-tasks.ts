/**
 * The video tasks area: the task lists of /creation/mixed-task and /creation/clip (one
 * list per kind: filters status and keyword, pages), the open task's detail per kind (the drawer),
 * the task actions (retry the failed outputs, cancel the queued ones, delete a finished task:
 * confirmations on the dialog machine) and the progress watch (src/machines/video-tasks/
 * task-watch.ts). The area, not a view, owns the watch: it lives as long as the area (until the
 * signed-in user changes), so switching tabs or pages neither restarts nor loses it. It checks
 * every POLL_MS while any task on show (a list's rows, an open detail) is pending or running,
 * stops when none is, and waits longer after failed checks. A check asks the list page on show
 * again (one call per kind with an active row, quietly) and the open detail if it is active; the
 * rows are shown as the watch last knew them (its `tasks` by id), so progress moves without a
 * reload. After an action the area reloads the task's list and detail itself (events between
 * actors).
 *
 * Integration with the create forms (the video-task-forms area, another module): each task a form
 * added goes to this area's `taskAdded(kind, id)`, which reloads that kind's list and opens the
 * new task's detail (its pending status starts the watch). Wired at merge from the forms area's
 * `onTaskAdded(listener)`, in `videoTasksArea.create` below:
 *
 *   const actors = createVideoTaskActors(endpoints);
 *   const off = areas.get(videoTaskFormsArea).onTaskAdded(actors.taskAdded);
 *   const stop = actors.stop;
 *   return Object.assign(actors, { stop: () => (off(), stop()) });
 */
import { createActor, fromPromise } from 'xstate';
import {
  FINISHED_TASK_STATUSES,
  type TaskStatus,
  type VideoTask,
  type VideoTaskCancelReply,
  type VideoTaskDeleteBody,
  type VideoTaskDeleteReply,
  type VideoTaskDetail,
  type VideoTaskIdBody,
  type VideoTaskKind,
  type VideoTaskListParams,
  type VideoTaskRetryReply,
} from '../../api/contract/video-tasks';
import * as api from '../../api/video-tasks';
import { taskDetailMachine } from '../../machines/video-tasks/task-detail';
import {
  isActive,
  taskWatchMachine,
  type CheckOutput,
} from '../../machines/video-tasks/task-watch';
import { defineArea, lazyActors } from './areas';
import { balanceNewsArea, whenFinished, type BalanceNews } from './balance-news';
import {
  dialogActor,
  listActor,
  toast,
  whenChanged,
  type DialogActor,
  type ListActor,
} from './factories';

export interface VideoTasksEndpoints {
  getVideoTasks: typeof api.getVideoTasks;
  getVideoTask: typeof api.getVideoTask;
  retryVideoTask: typeof api.retryVideoTask;
  cancelVideoTask: typeof api.cancelVideoTask;
  deleteVideoTasks: typeof api.deleteVideoTasks;
}

export interface TaskFilters {
  /** '' all. */
  status: TaskStatus | '';
  keyword: string;
}
export const NO_TASK_FILTERS: TaskFilters = { status: '', keyword: '' };

/** Tasks per page. */
export const TASK_PAGE_SIZE = 10;

/** The list call's query of the page's filters. */
export function taskQuery(f: TaskFilters): Partial<VideoTaskListParams> {
  return {
    ...(f.status ? { status: f.status } : {}),
    ...(f.keyword.trim() ? { keyword: f.keyword.trim() } : {}),
  };
}

/** Retry the failed outputs: when some failed (the others may still be rendering). */
export const canRetry = (t: VideoTask) => t.failed > 0;
/** Cancel: while outputs are still to make. */
export const canCancel = (t: VideoTask) => isActive(t.status);
/** Delete: a finished task (nothing queued or rendering). */
export const canDelete = (t: VideoTask) => FINISHED_TASK_STATUSES.includes(t.status);

const KINDS = ['mixed', 'clip'] as const;
const detailKey = (kind: VideoTaskKind) => (kind === 'mixed' ? 'mixedDetail' : 'clipDetail');

function createVideoTaskActors(e: VideoTasksEndpoints, news: Pick<BalanceNews, 'moved'>) {
  const list = (kind: VideoTaskKind) => () =>
    listActor<TaskFilters, VideoTask>(
      `${kind}Tasks`,
      ({ filters, page, limit }, signal) =>
        e.getVideoTasks({ kind, ...taskQuery(filters), page, limit }, { signal }),
      NO_TASK_FILTERS,
      TASK_PAGE_SIZE,
    );
  const detail = () =>
    createActor(
      taskDetailMachine.provide({
        actors: { load: fromPromise(({ input, signal }) => e.getVideoTask(input, { signal })) },
      }),
    );
  /** The watch's check, set once the actors are wired (it reads what is on show). */
  let check: (signal: AbortSignal) => Promise<CheckOutput> = () =>
    Promise.resolve({ tasks: [], details: [] });

  const actors = lazyActors(
    {
      mixed: list('mixed'),
      clip: list('clip'),
      mixedDetail: detail,
      clipDetail: detail,
      watch: () =>
        createActor(
          taskWatchMachine.provide({
            actors: { check: fromPromise(({ signal }) => check(signal)) },
          }),
        ),
      retry: () =>
        dialogActor<VideoTask, VideoTaskIdBody, VideoTaskRetryReply>('videoTaskRetry', (_t, body) =>
          e.retryVideoTask(Number(body.id)),
        ),
      cancel: () =>
        dialogActor<VideoTask, VideoTaskIdBody, VideoTaskCancelReply>(
          'videoTaskCancel',
          (_t, body) => e.cancelVideoTask(Number(body.id)),
        ),
      remove: () =>
        dialogActor<VideoTask, VideoTaskDeleteBody, VideoTaskDeleteReply>(
          'videoTaskDelete',
          (_t, body) => e.deleteVideoTasks(body),
        ),
    },
    (all, started) => {
      /** A task as the watch last knew it (a row loaded earlier may be behind). */
      const known = (task: VideoTask) =>
        started('watch')?.getSnapshot().context.tasks[task.id] ?? task;
      const activeRows = (kind: VideoTaskKind) => {
        const s = started(kind)?.getSnapshot();
        return s && s.context.rows.some((r) => isActive(known(r).status)) ? s : null;
      };
      const activeDetail = (kind: VideoTaskKind) => {
        const s = started(detailKey(kind))?.getSnapshot();
        const data = s?.matches('ready') ? s.context.data : null;
        return data && isActive(known(data).status) ? data : null;
      };
      /** Works out whether anything on show is active, and tells the watch when that changes. */
      const recompute = () => {
        const active = KINDS.some((k) => activeRows(k) !== null || activeDetail(k) !== null);
        const watch = all.watch;
        if (watch.getSnapshot().context.active !== active) watch.send({ type: 'ACTIVE', active });
      };
      check = async (signal) => {
        const pages: Promise<VideoTask[]>[] = [];
        const details: Promise<VideoTaskDetail>[] = [];
        for (const kind of KINDS) {
          const rows = activeRows(kind);
          if (rows) {
            const { filters, page, limit } = rows.context.query;
            pages.push(
              e
                .getVideoTasks(
                  { kind, ...taskQuery(filters), page, limit },
                  { signal, quiet: true },
                )
                .then((reply) => reply.list),
            );
          }
          const data = activeDetail(kind);
          if (data) details.push(e.getVideoTask(data.id, { signal, quiet: true }));
        }
        const [lists, got] = await Promise.all([Promise.all(pages), Promise.all(details)]);
        return { tasks: [...lists.flat(), ...got], details: got };
      };
      const followList = (actor: ListActor<TaskFilters, VideoTask>) => {
        let rows: VideoTask[] | null = null;
        return [
          actor.subscribe((s) => {
            if (!s.matches('ready') || s.context.rows === rows) return;
            rows = s.context.rows;
            all.watch.send({ type: 'SEEN', tasks: rows });
            recompute();
          }),
        ];
      };
      const followDetail = (actor: ReturnType<typeof detail>) => {
        let data: VideoTaskDetail | null = null;
        let value: unknown = null;
        return [
          actor.subscribe((s) => {
            if (s.context.data === data && s.value === value) return;
            const fresh = s.context.data !== data;
            data = s.context.data;
            value = s.value;
            if (fresh && data) all.watch.send({ type: 'SEEN', tasks: [data] });
            recompute();
          }),
        ];
      };
      /** After an action on a task: its list and its open detail load again (delete: closes). */
      const reloadFor = (task: VideoTask, gone = false) => {
        started(task.kind)?.send({ type: 'RELOAD' });
        const open = started(detailKey(task.kind));
        if (open && open.getSnapshot().context.id === task.id) {
          open.send(gone ? { type: 'CLOSE' } : { type: 'RELOAD' });
        }
      };
      const afterDone = <P, R>(
        actor: DialogActor<VideoTask, P, R>,
        then: (task: VideoTask, result: R | null) => void,
      ) => [
        whenChanged(
          actor,
          (s) => s.context.completed,
          () => {
            const { target, result } = actor.getSnapshot().context;
            if (target) then(target, result);
          },
        ),
      ];
      return {
        mixed: followList,
        clip: followList,
        mixedDetail: followDetail,
        clipDetail: followDetail,
        watch: (watch) => [
          // What the watch learnt changes what is active; an open detail takes its newer copy.
          watch.subscribe(() => recompute()),
          watch.on('detail', ({ detail: d }) =>
            started(detailKey(d.kind))?.send({ type: 'REFRESHED', detail: d }),
          ),
          // A task finished: its outputs settled or refunded.
          whenFinished(
            watch,
            (s) => Object.values(s.context.tasks),
            (t) => isActive(t.status),
            news.moved,
          ),
        ],
        // A retry freezes the failed outputs' price again; a cancel refunds the queued ones.
        retry: (retry) =>
          afterDone(retry, (task, result) => {
            toast('success', 'videoTasks.retried', { count: result?.count ?? 0 });
            reloadFor(task);
            news.moved();
          }),
        cancel: (cancel) =>
          afterDone(cancel, (task, result) => {
            toast('success', 'videoTasks.cancelledNotice', { count: result?.count ?? 0 });
            reloadFor(task);
            news.moved();
          }),
        remove: (remove) =>
          afterDone(remove, (task) => {
            toast('success', 'videoTasks.deleted', { name: task.name });
            reloadFor(task, true);
          }),
      };
    },
  );

  return Object.assign(actors, {
    /** The task list of a kind (made, and loading, on first use). */
    list: (kind: VideoTaskKind): ListActor<TaskFilters, VideoTask> => actors[kind],
    /** The open task's detail (the drawer) of a kind. */
    detail: (kind: VideoTaskKind) => actors[detailKey(kind)],
    /**
     * A task the create forms just added: its kind's list loads again and its detail opens (its
     * pending status starts the watch).
     */
    taskAdded(kind: VideoTaskKind, id: number) {
      actors[kind].send({ type: 'RELOAD' });
      actors[detailKey(kind)].send({ type: 'OPEN', id });
    },
  });
}

export type VideoTasksActors = ReturnType<typeof createVideoTaskActors>;

export const videoTasksArea = defineArea<VideoTasksEndpoints, VideoTasksActors>({
  key: 'videoTasks',
  live: () => ({
    getVideoTasks: api.getVideoTasks,
    getVideoTask: api.getVideoTask,
    retryVideoTask: api.retryVideoTask,
    cancelVideoTask: api.cancelVideoTask,
    deleteVideoTasks: api.deleteVideoTasks,
  }),
  create: (endpoints, areas) => createVideoTaskActors(endpoints, areas.get(balanceNewsArea)),
});
