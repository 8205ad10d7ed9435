import {
  type DhAddReply,
  type DhVideoBody,
  type DhVideoEstimate,
  type VoiceGender,
  type VoiceScope,
} from '../../api/contract/digital-human';
import { createTaskFormMachine, type CheckedDraft, type Picked } from '../task-form';

/**
 * The digital-human video create form (/digital-human/create-video, docs/domain.md §10): its
 * draft (name, text, the avatar and voice picked, speed, volume, subtitles, music, folder,
 * template), the body it makes, and its task-form machine (a page: open from the start, a fresh
 * draft once the video is added; the live estimate of seconds and cost, debounced, an older call
 * aborted; the submission carries an idempotency key kept while the draft is unchanged).
 */

/** An avatar (a ready image clone) as the form shows it. */
export interface PickedAvatar {
  id: number;
  name: string;
  cover: string | null;
  preview_url: string | null;
  demonstration: boolean;
}

/** A voice (the caller's clone or a public one) as the form shows it. */
export interface PickedVoice {
  id: number;
  name: string;
  scope: VoiceScope;
  gender: VoiceGender;
  demo_url: string | null;
}

export interface DhVideoDraft {
  name: string;
  text: string;
  avatar: PickedAvatar | null;
  voice: PickedVoice | null;
  speed: number;
  volume: number;
  subtitles: boolean;
  music: Picked | null;
  /** A resource group of the caller's (required). */
  folderId: number | null;
  /** Null: no template (the avatar's own frame, 9:16). */
  templateId: number | null;
}

const two = (n: number) => String(n).padStart(2, '0');

/** `YYYYMMDD HHmm` of a local time: the default name's stamp (docs/domain.md §10). */
export function nameStamp(at: Date): string {
  return (
    `${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())} ` +
    `${two(at.getHours())}${two(at.getMinutes())}`
  );
}

/** A fresh draft named `name` (the area gives the localised `数字人_YYYYMMDD HHmm`). */
export const freshDhVideoDraft = (name: string): DhVideoDraft => ({
  name,
  text: '',
  avatar: null,
  voice: null,
  speed: 1,
  volume: 1,
  subtitles: true,
  music: null,
  folderId: null,
  templateId: null,
});

/** Speed and volume move in tenths. */
export const SPEED_STEP = 0.1;
export const VOLUME_STEP = 0.1;

/** The body of a draft (the name given: the estimate prices without it). Missing picks: NaN. */
export function dhVideoBody(d: DhVideoDraft, name = d.name): DhVideoBody {
  return {
    name,
    text: d.text,
    avatar_id: d.avatar?.id ?? Number.NaN,
    voice_id: d.voice?.id ?? Number.NaN,
    speed: d.speed,
    volume: d.volume,
    subtitles: d.subtitles,
    ...(d.music ? { music_id: d.music.id } : {}),
    folder_id: d.folderId ?? Number.NaN,
    ...(d.templateId !== null ? { template_id: d.templateId } : {}),
  };
}

/** The form's machine with the contract's check, the fresh draft and the key maker (the area's). */
export const createDhVideoFormMachine = (rules: {
  check: (d: DhVideoDraft) => CheckedDraft<DhVideoBody>;
  fresh: () => DhVideoDraft;
  newKey: () => string;
}) =>
  createTaskFormMachine<DhVideoDraft, DhVideoBody, DhVideoEstimate, DhAddReply>('dhVideoForm', {
    ...rules,
    page: true,
  });

export type DhVideoFormMachine = ReturnType<typeof createDhVideoFormMachine>;
