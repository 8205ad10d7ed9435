import type { Resource } from '../api/contract/resources';
import type {
  ClipTaskBody,
  MixedTaskBody,
  MixMode,
  TitlePosition,
  VideoRatio,
  VideoResolution,
} from '../api/contract/video-tasks';

/**
 * The drafts of the two create forms (the task-form machine's `D`) and the bodies they make: what
 * a person typed stays text until the contract's rules read it (an empty number field is refused
 * with the field's own message, never silently 0).
 */

/** A resource the person picked, as the form shows it. */
export type Picked = Pick<Resource, 'id' | 'name' | 'type' | 'cover' | 'url' | 'duration'>;

export const picked = (r: Picked): Picked => ({
  id: r.id,
  name: r.name,
  type: r.type,
  cover: r.cover,
  url: r.url,
  duration: r.duration,
});

export interface TitleDraft {
  key: number;
  text: string;
  size: string;
  color: string;
  position: TitlePosition;
}

export interface StickerDraft {
  key: number;
  resource: Picked;
  x: string;
  y: string;
  width: string;
}

/** The look, the sound and the words both forms share. */
export interface CommonDraft {
  name: string;
  ratio: VideoRatio;
  resolution: VideoResolution;
  fps: string;
  bitrate: string;
  music: Picked[];
  musicVolume: number;
  keepOriginalSound: boolean;
  titles: TitleDraft[];
  subtitleText: string;
  subtitleSize: string;
  subtitleColor: string;
  stickers: StickerDraft[];
}

export interface ShotGroupDraft {
  key: number;
  shots: Picked[];
  duration: string;
}

export interface MixedDraft extends CommonDraft {
  mode: MixMode;
  count: string;
  groups: ShotGroupDraft[];
  intro: Picked | null;
  outro: Picked | null;
  /** Advanced mode: every output this long (seconds); empty: the shots' own lengths. */
  duration: string;
}

export interface ClipDraft extends CommonDraft {
  video: Picked | null;
  start: string;
  end: string;
}

const COMMON: CommonDraft = {
  name: '',
  ratio: '9:16',
  resolution: '720p',
  fps: '30',
  bitrate: '1200',
  music: [],
  musicVolume: 5,
  keepOriginalSound: true,
  titles: [],
  subtitleText: '',
  subtitleSize: '36',
  subtitleColor: '#ffffff',
  stickers: [],
};

export const freshMixedDraft = (): MixedDraft => ({
  ...COMMON,
  mode: 'random',
  count: '3',
  groups: [{ key: 1, shots: [], duration: '' }],
  intro: null,
  outro: null,
  duration: '',
});

export const freshClipDraft = (): ClipDraft => ({ ...COMMON, video: null, start: '0', end: '' });

/** A fresh title (the next key of the list). */
export const newTitle = (titles: readonly TitleDraft[]): TitleDraft => ({
  key: Math.max(0, ...titles.map((t) => t.key)) + 1,
  text: '',
  size: '48',
  color: '#ffffff',
  position: 'top',
});

export const nextKey = (items: readonly { key: number }[]) =>
  Math.max(0, ...items.map((i) => i.key)) + 1;

/** A typed number ('' and anything not a number stay NaN: the rules refuse them). */
const num = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));
const optionalNum = (s: string) => (s.trim() === '' ? undefined : num(s));

function common(d: CommonDraft, name: string) {
  const subtitles = d.subtitleText.trim()
    ? {
        subtitles: {
          text: d.subtitleText,
          size: num(d.subtitleSize),
          color: d.subtitleColor,
        },
      }
    : {};
  return {
    name,
    ratio: d.ratio,
    resolution: d.resolution,
    fps: num(d.fps),
    bitrate: num(d.bitrate),
    ...(d.music.length ? { music_ids: d.music.map((m) => m.id) } : {}),
    music_volume: d.musicVolume,
    keep_original_sound: d.keepOriginalSound,
    ...(d.titles.length
      ? {
          titles: d.titles.map((t) => ({
            text: t.text,
            size: num(t.size),
            color: t.color,
            position: t.position,
          })),
        }
      : {}),
    ...subtitles,
    ...(d.stickers.length
      ? {
          stickers: d.stickers.map((s) => ({
            resource_id: s.resource.id,
            x: num(s.x),
            y: num(s.y),
            width: num(s.width),
          })),
        }
      : {}),
  };
}

/** The mixed-cut body of a draft (the name given: the estimate prices without it). */
export function mixedBody(d: MixedDraft, name = d.name): MixedTaskBody {
  const duration = optionalNum(d.duration);
  return {
    kind: 'mixed',
    ...common(d, name),
    mode: d.mode,
    count: num(d.count),
    ...(d.intro ? { intro_id: d.intro.id } : {}),
    ...(d.outro ? { outro_id: d.outro.id } : {}),
    shot_groups: d.groups.map((g) => {
      const seconds = optionalNum(g.duration);
      return {
        resource_ids: g.shots.map((s) => s.id),
        ...(seconds === undefined ? {} : { duration: seconds }),
      };
    }),
    ...(duration === undefined ? {} : { duration }),
  };
}

/** The clip body of a draft (the name given: the estimate prices without it). */
export function clipBody(d: ClipDraft, name = d.name): ClipTaskBody {
  return {
    kind: 'clip',
    ...common(d, name),
    resource_id: d.video?.id ?? Number.NaN,
    trim: { start: num(d.start), end: num(d.end) },
  };
}
