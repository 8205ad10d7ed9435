import type { TemplateLayout, TemplateRatio } from '../../../src/api/contract/dh-templates';
import type { Executor } from '../../platform/db/schema';
import { templateOf, type TemplateRow } from './templates';

/**
 * What a video keeps of its template (docs/domain.md §10 "Video templates"): the frame, the
 * layout and the background and music as they were when it was submitted, stored with the video
 * (`dh_videos.template_settings`), so that editing or deleting the template later changes no
 * video — queued, being made, or made again from a finished one (resubmit takes the template as
 * it is then). The files they name are held for the video by `resource_refs` rows of its own.
 */
export interface TemplateSettings {
  /** The template it came from (null: the default, for a video that named none). */
  template_id: number | null;
  ratio: TemplateRatio;
  width: number;
  height: number;
  layout: TemplateLayout;
  /** The background picture: a resource of the owner's, or a platform image's address. */
  background: { resource_id: number } | { image_url: string } | null;
  /** The template's music (a resource of the owner's): used when the video has none. */
  music_resource_id: number | null;
}

/** The settings of a template (the row as it is now). */
export function settingsOf(row: TemplateRow, named: boolean): TemplateSettings {
  return {
    template_id: named ? Number(row.id) : null,
    ratio: row.ratio as TemplateRatio,
    width: Number(row.width),
    height: Number(row.height),
    layout: JSON.parse(row.layout) as TemplateLayout,
    background:
      row.background_resource_id !== null
        ? { resource_id: Number(row.background_resource_id) }
        : row.background_url !== null
          ? { image_url: row.background_url }
          : null,
    music_resource_id: row.music_resource_id === null ? null : Number(row.music_resource_id),
  };
}

/**
 * The settings a video renders with: those kept at submit, or (a video submitted before they
 * were kept, migration 0035) its template's as it is now.
 */
export async function settingsOfVideo(
  db: Executor,
  video: { template_id: number | null; template_settings: string | null },
): Promise<TemplateSettings> {
  if (video.template_settings !== null) {
    return JSON.parse(video.template_settings) as TemplateSettings;
  }
  const templateId = video.template_id === null ? null : Number(video.template_id);
  return settingsOf(await templateOf(db, templateId), templateId !== null);
}

/** The resources the settings name (the video holds them while it lives). */
export function resourcesOf(settings: TemplateSettings): number[] {
  const ids: number[] = [];
  if (settings.background && 'resource_id' in settings.background) {
    ids.push(settings.background.resource_id);
  }
  if (settings.music_resource_id !== null) ids.push(settings.music_resource_id);
  return ids;
}
