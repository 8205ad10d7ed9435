/**
 * How the video task pages name and colour statuses (docs/decisions.md "Video tasks"): a
 * task's status tag and an output's, in both locales.
 */
import type { OutputStatus, TaskStatus } from '../../api/contract/video-tasks';
import type { MessageId } from '../../i18n/messages';

export const TASK_STATUS_LABEL: Record<TaskStatus, MessageId> = {
  pending: 'videoTasks.statusPending',
  running: 'videoTasks.statusRunning',
  done: 'videoTasks.statusDone',
  partly_done: 'videoTasks.statusPartlyDone',
  failed: 'videoTasks.statusFailed',
  cancelled: 'videoTasks.statusCancelled',
};

/** Waiting grey, under way blue, done green, partly done orange, failed red, cancelled grey. */
export const TASK_STATUS_PALETTE: Record<TaskStatus, string> = {
  pending: 'gray',
  running: 'blue',
  done: 'green',
  partly_done: 'orange',
  failed: 'red',
  cancelled: 'gray',
};

export const OUTPUT_STATUS_LABEL: Record<OutputStatus, MessageId> = {
  queued: 'videoTasks.outputQueued',
  rendering: 'videoTasks.outputRendering',
  done: 'videoTasks.outputDone',
  failed: 'videoTasks.outputFailed',
  cancelled: 'videoTasks.outputCancelled',
};

export const OUTPUT_STATUS_PALETTE: Record<OutputStatus, string> = {
  queued: 'gray',
  rendering: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'gray',
};
