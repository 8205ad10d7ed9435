import { Badge, Box, Stack, Text } from '@chakra-ui/react';
import type { TaskStatus, VideoTask } from '../../api/contract/video-tasks';
import type { T } from '../shared/use-t';
import { TASK_STATUS_LABEL, TASK_STATUS_PALETTE, wholePercent } from './video-task-format';

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
      <Box
        role="progressbar"
        aria-label={t('videoTasks.progressOf', { name: task.name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={t('videoTasks.doneOfTotal', { done: task.done, total: task.total })}
        height="1.5"
        bg="bg.muted"
        borderRadius="full"
        overflow="hidden"
      >
        <Box
          height="full"
          width={`${percent}%`}
          bg={task.failed > 0 ? 'orange.solid' : 'blue.solid'}
        />
      </Box>
      <Text fontSize="xs" color="fg.muted" data-testid="task-progress">
        {t('videoTasks.doneOfTotal', { done: task.done, total: task.total })}
        {task.failed > 0 && ` · ${t('videoTasks.failedCount', { count: task.failed })}`}
      </Text>
    </Stack>
  );
}
