import { Badge, Stack, Text } from '@chakra-ui/react';
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
    </Stack>
  );
}
