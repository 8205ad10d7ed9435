/**
 * Mixed-cut tasks from a CSV file (`/video_task/batch_estimate`, `/video_task/batch_add`);
 * contract: ./contract/video-task-batch.ts.
 */
import type {
  VideoTaskBatchAddReply,
  VideoTaskBatchBody,
  VideoTaskBatchEstimate,
} from './contract/video-task-batch';
import { post, type RequestOptions } from './http';

/** Every error of the file by row and column, or the whole batch's tasks and price. */
export function estimateVideoTaskBatch(
  body: VideoTaskBatchBody,
  options?: RequestOptions,
): Promise<VideoTaskBatchEstimate> {
  return post<VideoTaskBatchEstimate>('/video_task/batch_estimate', body, options);
}

/**
 * Adds the batch: one hold of its whole price, a task per row. The key makes a repeated call
 * (a lost reply, sent again) add it once.
 */
export function addVideoTaskBatch(
  body: VideoTaskBatchBody,
  idempotencyKey: string,
  options?: RequestOptions,
): Promise<VideoTaskBatchAddReply> {
  return post<VideoTaskBatchAddReply>('/video_task/batch_add', body, {
    ...options,
    headers: { ...options?.headers, 'Idempotency-Key': idempotencyKey },
  });
}
