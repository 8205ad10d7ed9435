import { Button, HStack, Stack } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  TASK_STATUSES,
  type TaskStatus,
  type VideoTask,
  type VideoTaskCancelReply,
  type VideoTaskDeleteBody,
  type VideoTaskDeleteReply,
  type VideoTaskIdBody,
  type VideoTaskKind,
  type VideoTaskRetryReply,
} from '../../api/contract/video-tasks';
import { useArea } from '../../app/actors/areas';
import { taskPresetsArea } from '../../app/actors/task-presets';
import type { DialogActor } from '../../app/actors/factories';
import {
  canCancel,
  canDelete,
  canRetry,
  NO_TASK_FILTERS,
  videoTasksArea,
  type TaskFilters,
} from '../../app/actors/video-tasks';
import { useListActor } from '../../app/hooks/use-list';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { formatDateTime } from '../../components/dates';
import { isActive } from '../../machines/video-tasks/task-watch';
import { ConfirmRowDialog } from '../shared/call-dialog';
import { formatMoney } from '../shared/amounts';
import { TASK_PARAM, useDeepLink } from '../shared/deep-links';
import { VideoTaskDrawer } from './video-task-detail';
import { TASK_STATUS_LABEL } from './video-task-format';
import { DownloadAllLink, TaskProgress, TaskStatusTag, useT, type T } from './video-task-parts';

/** The retry, cancel and delete confirmations of a kind's tasks. */
export function TaskActionDialogs(props: {
  kind: VideoTaskKind;
  retry: DialogActor<VideoTask, VideoTaskIdBody, VideoTaskRetryReply>;
  cancel: DialogActor<VideoTask, VideoTaskIdBody, VideoTaskCancelReply>;
  remove: DialogActor<VideoTask, VideoTaskDeleteBody, VideoTaskDeleteReply>;
}) {
  const t = useT();
  // Each kind's page shows the dialogs of its own tasks (both pages may be kept in tabs).
  const shows = (task: VideoTask) => task.kind === props.kind;
  return (
    <>
      <ConfirmRowDialog
        actor={props.retry}
        shows={shows}
        title={(task) => t('videoTasks.retryTitle', { name: task.name })}
        what={(task) => t('videoTasks.retryWhat', { count: task.failed })}
        submitLabel={t('videoTasks.retry')}
        payload={(task) => ({ id: task.id })}
      />
      <ConfirmRowDialog
        actor={props.cancel}
        shows={shows}
        title={(task) => t('videoTasks.cancelTitle', { name: task.name })}
        what={() => t('videoTasks.cancelWhat')}
        submitLabel={t('videoTasks.cancelTask')}
        payload={(task) => ({ id: task.id })}
      />
      <ConfirmRowDialog
        actor={props.remove}
        shows={shows}
        title={(task) => t('videoTasks.deleteTitle', { name: task.name })}
        what={() => t('videoTasks.deleteWhat')}
        submitLabel={t('videoTasks.delete')}
        payload={(task) => ({ ids: [task.id] })}
      />
    </>
  );
}

function TaskFilterBar(props: {
  applied: TaskFilters;
  onApply: (filters: TaskFilters) => void;
  t: T;
}) {
  const { t } = props;
  const [draft, setDraft] = useState<TaskFilters>(props.applied);
  return (
    <FilterBar
      label={t('videoTasks.filters')}
      onApply={() => props.onApply(draft)}
      onReset={() => {
        setDraft(NO_TASK_FILTERS);
        props.onApply(NO_TASK_FILTERS);
      }}
    >
      <FilterSelect
        label={t('videoTasks.status')}
        value={draft.status}
        onChange={(status) => setDraft((d) => ({ ...d, status: status as TaskStatus | '' }))}
        options={TASK_STATUSES.map((s) => ({ value: s, label: t(TASK_STATUS_LABEL[s]) }))}
      />
      <FilterText
        label={t('videoTasks.keyword')}
        value={draft.keyword}
        onChange={(keyword) => setDraft((d) => ({ ...d, keyword }))}
      />
    </FilterBar>
  );
}

/**
 * A kind's task list (/creation/mixed-task, /creation/clip): filters, the table (name, status,
 * done/total, cost, created, actions) with each row as the progress watch last knew it, the
 * confirmations and the detail drawer. The video tasks area owns the calls, the watch and the
 * reloads; this view selects and sends.
 */
export function VideoTaskList(props: { kind: VideoTaskKind }) {
  const { kind } = props;
  const t = useT();
  const moneyName = useMoneyName();
  const area = useArea(videoTasksArea);
  const listActor = area.list(kind);
  const list = useListActor(listActor);
  const known = useSelector(area.watch, (s) => s.context.tasks);
  const rows = useMemo(() => list.rows.map((r) => known[r.id] ?? r), [list.rows, known]);
  const detail = area.detail(kind);
  const applied = list.query.filters;
  // A notification's link (`?task=12`) opens the task's drawer (docs/domain.md §18).
  useDeepLink(TASK_PARAM, (id) => detail.send({ type: 'OPEN', id }));
  // "Duplicate" fills a create form with a task's body (docs/domain.md §9): the mixed-cut form on
  // this page, or the clip editor, which it then opens.
  const presets = useArea(taskPresetsArea);
  const navigate = useNavigate();
  const duplicate = useCallback(
    (task: VideoTask) => {
      presets[kind].send({ type: 'DUPLICATE', id: task.id });
      if (kind === 'clip') void navigate('/creation/mixedshear');
    },
    [kind, presets, navigate],
  );

  const columns = useMemo<Column<VideoTask>[]>(
    () => [
      { key: 'name', header: t('videoTasks.name'), cell: (row) => row.name },
      {
        key: 'status',
        header: t('videoTasks.status'),
        cell: (row) => <TaskStatusTag status={row.status} t={t} />,
      },
      {
        key: 'progress',
        header: t('videoTasks.progress'),
        cell: (row) => <TaskProgress task={row} t={t} />,
      },
      {
        key: 'cost',
        header: t('videoTasks.cost', { moneyName }),
        align: 'end',
        // What was charged once the task is over; while it runs, the price frozen for it.
        cell: (row) =>
          isActive(row.status)
            ? t('videoTasks.costFrozenCell', { amount: formatMoney(row.cost) })
            : formatMoney(row.settled),
      },
      {
        key: 'created',
        header: t('videoTasks.created'),
        cell: (row) => formatDateTime(row.created_at),
      },
      {
        key: 'actions',
        header: t('videoTasks.actions'),
        pinned: 'end',
        cell: (row) => (
          <HStack gap="1">
            <Button
              size="xs"
              variant="ghost"
              aria-label={t('videoTasks.detailOf', { name: row.name })}
              onClick={() => detail.send({ type: 'OPEN', id: row.id })}
            >
              {t('videoTasks.detail')}
            </Button>
            <Button
              size="xs"
              variant="ghost"
              aria-label={t('videoTasks.duplicateOf', { name: row.name })}
              onClick={() => duplicate(row)}
            >
              {t('videoTasks.duplicate')}
            </Button>
            {canRetry(row) && (
              <Button
                size="xs"
                variant="ghost"
                aria-label={t('videoTasks.retryOf', { name: row.name })}
                onClick={() => area.retry.send({ type: 'OPEN', target: row })}
              >
                {t('videoTasks.retry')}
              </Button>
            )}
            {canCancel(row) && (
              <Button
                size="xs"
                variant="ghost"
                aria-label={t('videoTasks.cancelOf', { name: row.name })}
                onClick={() => area.cancel.send({ type: 'OPEN', target: row })}
              >
                {t('videoTasks.cancelTask')}
              </Button>
            )}
            <DownloadAllLink task={row} t={t} size="xs" />
            {canDelete(row) && (
              <Button
                size="xs"
                variant="ghost"
                colorPalette="red"
                aria-label={t('videoTasks.deleteOf', { name: row.name })}
                onClick={() => area.remove.send({ type: 'OPEN', target: row })}
              >
                {t('videoTasks.delete')}
              </Button>
            )}
          </HStack>
        ),
      },
    ],
    [t, moneyName, area, detail, duplicate],
  );

  return (
    <Stack gap="4">
      <TaskFilterBar
        key={`${applied.status}:${applied.keyword}`}
        applied={applied}
        onApply={list.setFilters}
        t={t}
      />
      <DataTable
        label={t(kind === 'mixed' ? 'videoTasks.mixedList' : 'videoTasks.clipList')}
        testId="video-tasks"
        columns={columns}
        rowKey={(r) => r.id}
        emptyText={t('videoTasks.empty')}
        {...list.table}
        rows={rows}
      />
      <TaskActionDialogs kind={kind} retry={area.retry} cancel={area.cancel} remove={area.remove} />
      <VideoTaskDrawer
        kind={kind}
        detail={detail}
        onRetry={(task) => area.retry.send({ type: 'OPEN', target: task })}
        onCancel={(task) => area.cancel.send({ type: 'OPEN', target: task })}
        onDuplicate={duplicate}
      />
    </Stack>
  );
}
