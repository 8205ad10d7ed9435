import type { Resource } from '../../api/contract/resources';
import type { VideoTaskSource } from '../../api/contract/video-task-presets';
import type { ClipTaskBody, MixedTaskBody, VideoTitle } from '../../api/contract/video-tasks';
import { freshClipDraft, type ClipDraft } from '../../machines/clip-editor';
import { freshMixedDraft, type MixedDraft } from '../../machines/mixed-task-form';
import { COMMON, picked, type CommonDraft, type Picked } from '../../machines/task-form';

/**
 * A create form's draft from a body (a preset's, an earlier task's: docs/domain.md §9 "Presets,
 * batches and previews"): every field the body sets, the rest as a fresh form has them; a
 * resource that is no longer the person's (not among `resources`) is left out.
 */
type Body = Partial<MixedTaskBody> & Partial<Pick<ClipTaskBody, 'resource_id' | 'trim'>>;

const text = (n: unknown, fallback: string) => (typeof n === 'number' ? String(n) : fallback);

function pickerOf(resources: readonly Resource[]) {
  const byId = new Map(resources.map((r) => [r.id, picked(r)]));
  const one = (id: unknown): Picked | null =>
    typeof id === 'number' ? (byId.get(id) ?? null) : null;
  const many = (ids: unknown): Picked[] =>
    Array.isArray(ids) ? ids.map(one).filter((p): p is Picked => p !== null) : [];
  return { one, many };
}

function commonOf(body: Body, resources: readonly Resource[]): CommonDraft {
  const { one, many } = pickerOf(resources);
  const titles = (body.titles ?? []) as VideoTitle[];
  const stickers = (body.stickers ?? []).flatMap((s, i) => {
    const resource = one(s.resource_id);
    return resource
      ? [{ key: i + 1, resource, x: String(s.x), y: String(s.y), width: String(s.width) }]
      : [];
  });
  return {
    ...COMMON,
    name: typeof body.name === 'string' ? body.name : '',
    ratio: body.ratio ?? COMMON.ratio,
    resolution: body.resolution ?? COMMON.resolution,
    fit: body.fit ?? COMMON.fit,
    fps: text(body.fps, COMMON.fps),
    bitrate: text(body.bitrate, COMMON.bitrate),
    music: many(body.music_ids),
    musicVolume: typeof body.music_volume === 'number' ? body.music_volume : COMMON.musicVolume,
    keepOriginalSound:
      typeof body.keep_original_sound === 'boolean'
        ? body.keep_original_sound
        : COMMON.keepOriginalSound,
    titles: titles.map((t, i) => ({
      key: i + 1,
      text: t.text,
      size: String(t.size),
      color: t.color,
      position: t.position,
    })),
    subtitleText: body.subtitles?.text ?? '',
    subtitleSize: text(body.subtitles?.size, COMMON.subtitleSize),
    subtitleColor: body.subtitles?.color ?? COMMON.subtitleColor,
    // A font no longer the person's is left out: the platform's font then.
    subtitleFont: one(body.subtitles?.font),
    stickers,
  };
}

/** The mixed-cut draft of a source (its shot groups, intro, outro, mode, count, length). */
export function mixedDraftOf(source: VideoTaskSource): MixedDraft {
  const body = source.body as Body;
  const { one, many } = pickerOf(source.resources);
  const fresh = freshMixedDraft();
  const groups = (body.shot_groups ?? []).map((g, i) => ({
    key: i + 1,
    shots: many(g.resource_ids),
    duration: text(g.duration, ''),
  }));
  return {
    ...fresh,
    ...commonOf(body, source.resources),
    mode: body.mode ?? fresh.mode,
    count: text(body.count, fresh.count),
    groups: groups.length ? groups : fresh.groups,
    intro: one(body.intro_id),
    outro: one(body.outro_id),
    duration: text(body.duration, ''),
  };
}

/** The clip editor's draft of a source (its video and the part kept). */
export function clipDraftOf(source: VideoTaskSource): ClipDraft {
  const body = source.body as Body;
  const { one } = pickerOf(source.resources);
  const fresh = freshClipDraft();
  const video = one(body.resource_id);
  return {
    ...fresh,
    ...commonOf(body, source.resources),
    video,
    // A video no longer the person's: the part kept goes with it.
    start: video ? text(body.trim?.start, fresh.start) : fresh.start,
    end: video ? text(body.trim?.end, fresh.end) : fresh.end,
  };
}
