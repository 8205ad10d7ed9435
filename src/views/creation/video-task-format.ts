/**
 * How the video task pages name and colour statuses (docs/decisions.md "Video task pages"): a
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

/** A 0–100 figure as a whole percent within bounds. */
export function wholePercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** Seconds with one decimal ("2.5 s" style figures): 2 → "2.0", 2.46 → "2.5". */
export function formatSeconds(seconds: number): string {
  return (Math.round(Math.max(0, seconds) * 10) / 10).toFixed(1);
}
