import type { PlanStatus, PostStatus } from '../../api/contract/matrix-plans';
import type { MessageId } from '../../i18n/messages';

/** Each plan status's text and colour (a badge: readable in both themes). */
export const PLAN_STATUS: Record<PlanStatus, { label: MessageId; palette: string }> = {
  not_started: { label: 'matrixPlans.statusNotStarted', palette: 'gray' },
  running: { label: 'matrixPlans.statusRunning', palette: 'blue' },
  done: { label: 'matrixPlans.statusDone', palette: 'green' },
  paused: { label: 'matrixPlans.statusPaused', palette: 'orange' },
  cancelled: { label: 'matrixPlans.statusCancelled', palette: 'red' },
};

/** Each post status's text and colour. */
export const POST_STATUS: Record<PostStatus, { label: MessageId; palette: string }> = {
  waiting: { label: 'matrixPlans.postWaiting', palette: 'gray' },
  publishing: { label: 'matrixPlans.postPublishing', palette: 'blue' },
  under_review: { label: 'matrixPlans.postUnderReview', palette: 'purple' },
  published: { label: 'matrixPlans.postPublished', palette: 'green' },
  failed: { label: 'matrixPlans.postFailed', palette: 'red' },
  unconfirmed: { label: 'matrixPlans.postUnconfirmed', palette: 'orange' },
  skipped: { label: 'matrixPlans.postSkipped', palette: 'gray' },
  missed: { label: 'matrixPlans.postMissed', palette: 'orange' },
  cancelled: { label: 'matrixPlans.postCancelled', palette: 'gray' },
};

/** An instant as a date and time in a time zone (the plan's), in the person's language. */
export function formatInZone(locale: string, timeZone: string, ms: number): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(ms);
}
