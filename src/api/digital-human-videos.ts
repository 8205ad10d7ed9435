/**
 * Digital-human videos (`/digital_human/video_*`; templates: ./digital-human-templates.ts) and what their create
 * form picks from (ready image clones, ready voices, a voice's preview); contract:
 * ./contract/digital-human.ts. Only the caller's own videos and clones exist for it.
 */
import type {
  DhAddReply,
  DhDeleteReply,
  DhVideo,
  DhVideoBody,
  DhVideoDeleteBody,
  DhVideoDetail,
  DhVideoEstimate,
  DhVideoListParams,
  DhVideoPage,
  DhVideoRenameBody,
  ImageClonePage,
  VoiceClonePage,
  VoiceScope,
} from './contract/digital-human';
import { getImageClones, getVoiceClones } from './digital-human-clones';
import { get, post, type RequestOptions } from './http';

/** A short sample of a text in a voice (a signed URL; free, cached by the server). */
export { previewVoice } from './digital-human-clones';

/** The seconds a video body would take and freeze, and the caller's balance, before submit. */
export function estimateDhVideo(
  body: DhVideoBody,
  options?: RequestOptions,
): Promise<DhVideoEstimate> {
  return post<DhVideoEstimate>('/digital_human/video_estimate', body, options);
}

/**
 * Adds a video: its estimated seconds are frozen and it is queued. Paid, so it carries an
 * idempotency key: the same submission sent again (a lost reply) adds it at most once.
 */
export function addDhVideo(
  body: DhVideoBody,
  idempotencyKey: string | null,
  options?: RequestOptions,
): Promise<DhAddReply> {
  const headers = idempotencyKey
    ? { ...options?.headers, 'Idempotency-Key': idempotencyKey }
    : options?.headers;
  return post<DhAddReply>('/digital_human/video_add', body, { ...options, headers });
}

/** One page of the caller's videos, newest first. */
export function getDhVideos(
  query: Partial<DhVideoListParams>,
  options?: RequestOptions,
): Promise<DhVideoPage> {
  return get<DhVideoPage>('/digital_human/video_list', { ...query }, options);
}

/** A video with its queue position, progress, reason, body and signed URLs. */
export function getDhVideo(id: number, options?: RequestOptions): Promise<DhVideoDetail> {
  return get<DhVideoDetail>('/digital_human/video_detail', { id }, options);
}

export function renameDhVideo(body: DhVideoRenameBody, options?: RequestOptions): Promise<DhVideo> {
  return post<DhVideo>('/digital_human/video_rename', body, options);
}

/** Deletes videos that are done or failed (with their files). */
export function deleteDhVideos(
  body: DhVideoDeleteBody,
  options?: RequestOptions,
): Promise<DhDeleteReply> {
  return post<DhDeleteReply>('/digital_human/video_delete', body, options);
}

/** A new video with the same body (frozen again). */
export function resubmitDhVideo(id: number, options?: RequestOptions): Promise<DhAddReply> {
  return post<DhAddReply>('/digital_human/video_resubmit', { id }, options);
}

/** The caller's ready image clones (the avatars a video can use). */
export function getReadyAvatars(
  query: { page: number; limit: number; keyword?: string },
  options?: RequestOptions,
): Promise<ImageClonePage> {
  return getImageClones({ ...query, status: 'ready' }, options);
}

/** Ready voices: the caller's clones (`mine`) or the platform's (`public`). */
export function getReadyVoices(
  query: { scope: VoiceScope; page: number; limit: number; keyword?: string },
  options?: RequestOptions,
): Promise<VoiceClonePage> {
  return getVoiceClones({ ...query, status: 'ready' }, options);
}
