/**
 * Matrix distribution's release plans and their posts (`/matrix/plan_*`, `/matrix/post_*`) and the
 * AI titles of the plan form (`/matrix/ai_imitate_title`); contracts: ./contract/matrix-plans.ts,
 * ./contract/ai-text.ts (docs/domain.md §20). Another's plans and posts answer like missing ones.
 */
import type { ImitateTitleBody, ImitateTitleReply } from './contract/ai-text';
import type {
  PlanBody,
  PlanEditBody,
  PlanMediaItem,
  CreationMediaType,
  PlanPost,
  PlanPreview,
  PlanStatus,
  PostListParams,
  ReleasePlan,
  VideoData,
} from './contract/matrix-plans';
import { get, post, type RequestOptions } from './http';

export interface PlanPage {
  list: ReleasePlan[];
  total: number;
}
export interface PostPage {
  list: PlanPost[];
  total: number;
}

/** The schedule a plan would make (nothing saved). */
export function previewPlan(body: PlanBody, options?: RequestOptions): Promise<PlanPreview> {
  return post<PlanPreview>('/matrix/plan_preview', body, options);
}

/** Saves a plan and every post of its schedule. */
export function addPlan(
  body: PlanBody,
  options?: RequestOptions,
): Promise<{ id: number; posts: number }> {
  return post<{ id: number; posts: number }>('/matrix/plan_add', body, options);
}

/** Replaces a plan that has not started and all its posts (docs/domain.md §20). */
export function editPlan(body: PlanEditBody, options?: RequestOptions): Promise<ReleasePlan> {
  return post<ReleasePlan>('/matrix/plan_edit', body, options);
}

/** The caller's finished outputs or digital-human videos a plan may publish (or those of `ids`). */
export function getPlanMedia(
  query: { type: CreationMediaType; ids?: string; page: number; limit: number },
  options?: RequestOptions,
): Promise<{ list: PlanMediaItem[]; total: number }> {
  return get<{ list: PlanMediaItem[]; total: number }>(
    '/matrix/plan_media_list',
    { ...query },
    options,
  );
}

/** One page of the caller's plans, newest first. */
export function getPlans(
  query: { status?: PlanStatus; page: number; limit: number },
  options?: RequestOptions,
): Promise<PlanPage> {
  return get<PlanPage>('/matrix/plan_list', { ...query }, options);
}

export function pausePlan(body: { id: number }, options?: RequestOptions): Promise<ReleasePlan> {
  return post<ReleasePlan>('/matrix/plan_pause', body, options);
}

export function resumePlan(body: { id: number }, options?: RequestOptions): Promise<ReleasePlan> {
  return post<ReleasePlan>('/matrix/plan_resume', body, options);
}

/** Cancels the plan's waiting posts (posts already publishing finish). */
export function cancelPlan(body: { id: number }, options?: RequestOptions): Promise<ReleasePlan> {
  return post<ReleasePlan>('/matrix/plan_cancel', body, options);
}

/** One page of the caller's posts (a plan's, an account's, a status's). */
export function getPosts(
  query: Partial<PostListParams> & { page: number; limit: number },
  options?: RequestOptions,
): Promise<PostPage> {
  return get<PostPage>('/matrix/post_list', { ...query }, options);
}

/** Makes a waiting post due at once. */
export function publishPostNow(body: { id: number }, options?: RequestOptions): Promise<unknown> {
  return post<unknown>('/matrix/post_publish_now', body, options);
}

/** Makes a failed, retryable post wait again, due at once. */
export function retryPost(body: { id: number }, options?: RequestOptions): Promise<unknown> {
  return post<unknown>('/matrix/post_retry', body, options);
}

/** Marks an assisted account's waiting or missed post published by hand, with its share link. */
export function markPostPublished(
  body: { id: number; share_url: string },
  options?: RequestOptions,
): Promise<unknown> {
  return post<unknown>('/matrix/post_mark_published', body, options);
}

/** Titles in the manner of one (`demonstration`: from the embedded generator). */
export function imitateTitle(
  body: ImitateTitleBody,
  options?: RequestOptions,
): Promise<ImitateTitleReply> {
  return post<ImitateTitleReply>('/matrix/ai_imitate_title', body, options);
}

/** The published posts' numbers over a period (docs/domain.md §20 "Video data"). */
export function getVideoData(
  query: { account_id?: number; plan_id?: number; from: number; to: number },
  options?: RequestOptions,
): Promise<VideoData> {
  return get<VideoData>('/matrix/video_data', { ...query }, options);
}
