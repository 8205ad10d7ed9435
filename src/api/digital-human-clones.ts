/**
 * Digital-human clones (`/digital_human/image_clone_*`, `voice_clone_*`, `voice_preview`, issue
 * 14) and the admin's voice clone list (`/platform/platform_voice_clone_list`); contract:
 * ./contract/digital-human.ts. Another user's clone answers like a missing one.
 */
import type {
  CloneDeleteBody,
  DhAddReply,
  DhDeleteReply,
  ImageCloneAddBody,
  ImageCloneListParams,
  ImageClonePage,
  PlatformVoiceCloneListParams,
  VoiceCloneAddBody,
  VoiceCloneListParams,
  VoiceClonePage,
  VoicePreviewBody,
  VoicePreviewReply,
} from './contract/digital-human';
import { get, post, type RequestOptions } from './http';

/** One page of the caller's image clones (admin: everyone's), newest first. */
export function getImageClones(
  query: Partial<ImageCloneListParams>,
  options?: RequestOptions,
): Promise<ImageClonePage> {
  return get<ImageClonePage>('/digital_human/image_clone_list', { ...query }, options);
}

/** Clones a presenter's image: one `image_clone` is charged, given back if it fails. */
export function addImageClone(
  body: ImageCloneAddBody,
  options?: RequestOptions,
): Promise<DhAddReply> {
  return post<DhAddReply>('/digital_human/image_clone_add', body, options);
}

/** Deletes ready or failed image clones. */
export function deleteImageClones(
  body: CloneDeleteBody,
  options?: RequestOptions,
): Promise<DhDeleteReply> {
  return post<DhDeleteReply>('/digital_human/image_clone_delete', body, options);
}

/** One page of voices: the caller's clones (`mine`) or the platform's (`public`). */
export function getVoiceClones(
  query: Partial<VoiceCloneListParams>,
  options?: RequestOptions,
): Promise<VoiceClonePage> {
  return get<VoiceClonePage>('/digital_human/voice_clone_list', { ...query }, options);
}

/** Clones a voice from 10–30 s of audio: one `digital_voice` is charged, given back on failure. */
export function addVoiceClone(
  body: VoiceCloneAddBody,
  options?: RequestOptions,
): Promise<DhAddReply> {
  return post<DhAddReply>('/digital_human/voice_clone_add', body, options);
}

/** Deletes ready or failed voice clones. */
export function deleteVoiceClones(
  body: CloneDeleteBody,
  options?: RequestOptions,
): Promise<DhDeleteReply> {
  return post<DhDeleteReply>('/digital_human/voice_clone_delete', body, options);
}

/** A short text spoken by a ready voice: a signed URL of the sample (free). */
export function previewVoice(
  body: VoicePreviewBody,
  options?: RequestOptions,
): Promise<VoicePreviewReply> {
  return post<VoicePreviewReply>('/digital_human/voice_preview', body, options);
}

/** Admin: every user's voice clones. */
export function getPlatformVoiceClones(
  query: Partial<PlatformVoiceCloneListParams>,
  options?: RequestOptions,
): Promise<VoiceClonePage> {
  return get<VoiceClonePage>('/platform/platform_voice_clone_list', { ...query }, options);
}
