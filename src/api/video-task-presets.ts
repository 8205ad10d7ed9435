/**
 * Presets and duplicates of video tasks (`/video_task_preset/*`, `/video_task/source`);
 * contract: ./contract/video-task-presets.ts. Only the caller's own exist for it.
 */
import type {
  VideoTaskPreset,
  VideoTaskPresetDetail,
  VideoTaskPresetPage,
  VideoTaskPresetSaveBody,
  VideoTaskSource,
} from './contract/video-task-presets';
import type { VideoTaskKind } from './contract/video-tasks';
import { get, post, type RequestOptions } from './http';

/** Saves the body under the name (a preset of that name is replaced). */
export function saveVideoTaskPreset(
  body: VideoTaskPresetSaveBody,
  options?: RequestOptions,
): Promise<VideoTaskPreset> {
  return post<VideoTaskPreset>('/video_task_preset/save', body, options);
}

/** The caller's presets of a kind, by name. */
export function getVideoTaskPresets(
  kind: VideoTaskKind,
  options?: RequestOptions,
): Promise<VideoTaskPresetPage> {
  return get<VideoTaskPresetPage>('/video_task_preset/list', { kind }, options);
}

/** A preset's body and the resources it names. */
export function getVideoTaskPreset(
  id: number,
  options?: RequestOptions,
): Promise<VideoTaskPresetDetail> {
  return get<VideoTaskPresetDetail>('/video_task_preset/detail', { id }, options);
}

export function deleteVideoTaskPreset(id: number, options?: RequestOptions): Promise<unknown> {
  return post('/video_task_preset/delete', { id }, options);
}

/** The body an earlier task was added with, to fill the form again. */
export function getVideoTaskSource(id: number, options?: RequestOptions): Promise<VideoTaskSource> {
  return get<VideoTaskSource>('/video_task/source', { id }, options);
}
