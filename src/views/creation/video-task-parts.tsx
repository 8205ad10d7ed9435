import { Badge, Link, Stack, Text } from '@chakra-ui/react';
import { formatDateTime } from '../../components/dates';
import type { TaskStatus, VideoTask } from '../../api/contract/video-tasks';
import type { T } from '../shared/use-t';
import { TASK_STATUS_LABEL, TASK_STATUS_PALETTE } from './video-task-format';
import { wholePercent } from '../shared/format';
import { PercentBar } from '../../components/percent-bar';

export { useT, type T } from '../shared/use-t';

/** A task's status tag, coloured (video-task-format.ts). */
export function TaskStatusTag(props: { status: TaskStatus; t: T }) {
  return (
    <Badge colorPalette={TASK_STATUS_PALETTE[props.status]} data-testid="task-status">
      {props.t(TASK_STATUS_LABEL[props.status])}
    </Badge>
  );
}

/** Done / total as a bar, with the failed count when some failed. */
export function TaskProgress(props: { task: VideoTask; t: T }) {
  const { task, t } = props;
  const percent = wholePercent(task.progress);
  return (
    <Stack gap="1" minWidth="32">
      <PercentBar
        label={t('videoTasks.progressOf', { name: task.name })}
        percent={percent}
        valueText={t('videoTasks.doneOfTotal', { done: task.done, total: task.total })}
        fill={task.failed > 0 ? 'orange.solid' : 'blue.solid'}
      />
      <Text fontSize="xs" color="fg.muted" data-testid="task-progress">
        {t('videoTasks.doneOfTotal', { done: task.done, total: task.total })}
        {task.failed > 0 && ` · ${t('videoTasks.failedCount', { count: task.failed })}`}
      </Text>
      <QueueSpot spot={task} t={t} />
    </Stack>
  );
}

/** "Number n in the queue · starts about hh:mm" of a queued task or output (else nothing). */
export function QueueSpot(props: {
  spot: { queue_position: number | null; estimated_start: number | null };
  t: T;
}) {
  const { spot, t } = props;
  if (spot.queue_position === null) return null;
  return (
    <Text fontSize="xs" color="fg.muted" data-testid="queue-spot">
      {t('videoTasks.queuePosition', { position: spot.queue_position })}
      {spot.estimated_start !== null &&
        ` · ${t('videoTasks.estimatedStart', { time: formatDateTime(spot.estimated_start) })}`}
    </Text>
  );
}

/**
 * "Download all": the task's signed ZIP link (docs/domain.md §9), opened by the browser itself
 * (no session token in it); shown once an output is done.
 */
export function DownloadAllLink(props: {
  task: Pick<VideoTask, 'name' | 'download_all_url'>;
  t: T;
  size: 'xs' | 'sm';
}) {
  const { task, t } = props;
  if (!task.download_all_url) return null;
  return (
    <Link
      href={task.download_all_url}
      download
      fontSize={props.size}
      paddingX="2"
      aria-label={t('videoTasks.downloadAllOf', { name: task.name })}
    >
      {t('videoTasks.downloadAll')}
    </Link>
  );
}
