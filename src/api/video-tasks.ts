/**
 * Video tasks: batch mixed-cut and smart clip (`/video_task/*`); contract:
 * ./contract/video-tasks.ts. Only the caller's own tasks exist for it (another's answers like a
 * missing one).
 */
import type {
  VideoTaskAddReply,
  VideoTaskBody,
  VideoTaskCancelReply,
  VideoTaskDeleteBody,
  VideoTaskDeleteReply,
  VideoTaskDetail,
  VideoTaskEstimate,
  VideoTaskListParams,
  VideoTaskPage,
  VideoTaskRetryReply,
} from './contract/video-tasks';
import type { VideoPreview } from './contract/video-task-preview';
import { get, post, type RequestOptions } from './http';

/** Combinations, outputs and price of a task body, before anything is charged. */
export function estimateVideoTask(
  body: VideoTaskBody,
  options?: RequestOptions,
): Promise<VideoTaskEstimate> {
  return post<VideoTaskEstimate>('/video_task/estimate', body, options);
}

/** Adds a task: its price is frozen from the balance and every output is queued. */
export function addVideoTask(
  body: VideoTaskBody,
  options?: RequestOptions,
): Promise<VideoTaskAddReply> {
  return post<VideoTaskAddReply>('/video_task/add', body, options);
}

/** One page of the caller's tasks of a kind, newest first. */
export function getVideoTasks(
  query: Pick<VideoTaskListParams, 'kind'> & Partial<VideoTaskListParams>,
  options?: RequestOptions,
): Promise<VideoTaskPage> {
  return get<VideoTaskPage>('/video_task/list', { ...query }, options);
}

/** A task with every output (status, reason, signed play and download URLs). */
export function getVideoTask(id: number, options?: RequestOptions): Promise<VideoTaskDetail> {
  return get<VideoTaskDetail>('/video_task/detail', { id }, options);
}

/** Queues the failed outputs again (charged again for those only). */
export function retryVideoTask(id: number, options?: RequestOptions): Promise<VideoTaskRetryReply> {
  return post<VideoTaskRetryReply>('/video_task/retry', { id }, options);
}

/** Cancels the queued outputs (refunded); rendering ones finish. */
export function cancelVideoTask(
  id: number,
  options?: RequestOptions,
): Promise<VideoTaskCancelReply> {
  return post<VideoTaskCancelReply>('/video_task/cancel', { id }, options);
}

/** Deletes finished tasks and their files. */
export function deleteVideoTasks(
  body: VideoTaskDeleteBody,
  options?: RequestOptions,
): Promise<VideoTaskDeleteReply> {
  return post<VideoTaskDeleteReply>('/video_task/delete', body, options);
}

/**
 * Asks for a free preview of a body (its first combination, short and small): queued, then
 * rendered ahead of paid outputs. Throttled per person (HTTP 429); contract:
 * ./contract/video-task-preview.ts.
 */
export function previewVideoTask(
  body: VideoTaskBody,
  options?: RequestOptions,
): Promise<VideoPreview> {
  return post<VideoPreview>('/video_task/preview', body, options);
}

/** A preview's state, and its signed URL once done. */
export function getVideoPreview(id: number, options?: RequestOptions): Promise<VideoPreview> {
  return get<VideoPreview>('/video_task/preview_detail', { id }, options);
}
