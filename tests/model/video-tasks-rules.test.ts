// @vitest-environment node
/** The pure rules of the video task pages: the watch's waits, the actions a task allows, formats. */
import { describe, expect, test } from 'vitest';
import type { VideoTask } from '../../src/api/contract/video-tasks';
import { canCancel, canDelete, canRetry, taskQuery } from '../../src/app/actors/video-tasks';
import {
  MAX_POLL_MS,
  POLL_MS,
  isActive,
  pollDelay,
} from '../../src/machines/video-tasks/task-watch';
import { formatSeconds, wholePercent } from '../../src/views/shared/format';

const task = (status: VideoTask['status'], failed = 0) => ({ status, failed }) as VideoTask;

describe('the watch', () => {
  test('waits POLL_MS, doubled per failed check in a row, at most MAX_POLL_MS', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map(pollDelay)).toEqual([
      2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(POLL_MS).toBe(2000);
    expect(MAX_POLL_MS).toBe(30000);
    expect(pollDelay(-1)).toBe(POLL_MS);
  });
  test('watches pending and running tasks only', () => {
    expect(
      (['pending', 'running', 'done', 'partly_done', 'failed', 'cancelled'] as const).filter(
        isActive,
      ),
    ).toEqual(['pending', 'running']);
  });
});

describe('the actions a task allows', () => {
  test('retry: some failed; cancel: while running; delete: finished', () => {
    expect(canRetry(task('partly_done', 1))).toBe(true);
    expect(canRetry(task('failed', 3))).toBe(true);
    expect(canRetry(task('done', 0))).toBe(false);
    expect(canRetry(task('running', 1))).toBe(true);
    expect(canRetry(task('running', 0))).toBe(false);
    expect(canCancel(task('pending'))).toBe(true);
    expect(canCancel(task('running'))).toBe(true);
    expect(canCancel(task('cancelled'))).toBe(false);
    expect(canDelete(task('running'))).toBe(false);
    expect(canDelete(task('cancelled'))).toBe(true);
  });
});

describe('formats and queries', () => {
  test('the list query leaves out empty filters and trims the keyword', () => {
    expect(taskQuery({ status: '', keyword: '  ' })).toEqual({});
    expect(taskQuery({ status: 'failed', keyword: ' spring ' })).toEqual({
      status: 'failed',
      keyword: 'spring',
    });
  });
  test('percent and seconds', () => {
    expect([-5, 0, 33.4, 66.6, 100, 140, Number.NaN].map(wholePercent)).toEqual([
      0, 0, 33, 67, 100, 100, 0,
    ]);
    expect([0, 2, 2.46, 6.04, -1].map(formatSeconds)).toEqual(['0.0', '2.0', '2.5', '6.0', '0.0']);
  });
});
