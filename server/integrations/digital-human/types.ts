import type { TemplateLayout } from '../../../src/api/contract/dh-templates';
import type {
  ImageCloneTier,
  SpeechLanguage,
  VoiceGender,
} from '../../../src/api/contract/digital-human';
import { IntegrationError, type IntegrationErrorKind } from '../errors';

/**
 * The AI work of the digital human: one small interface, two implementations chosen by config
 * (`DH_PROVIDER`, server/integrations/registry.ts):
 * - `embedded` (default; no network, deterministic): espeak-ng speech, a voice "clone" that is a
 *   voice profile fitted to the sample, an image "clone" that is a poster frame and a short loop
 *   cut from the source video, and an ffmpeg video (avatar with a loudness-driven mouth overlay,
 *   subtitles, music). Its results are demonstration output, not lip-sync (`demonstration`).
 * - `http`: a vendor speaking the JSON protocol of docs/digital-human-vendor.md (submit, status,
 *   result URL, signed callback), at `DH_BASE_URL`; its API key and callback secret are read at
 *   the time of use from the sealed settings (`/integration/set_secret`), else from `DH_API_KEY`
 *   and `DH_CALLBACK_SECRET`.
 *
 * Every operation is asynchronous the same way: it is submitted (the vendor answers a job id,
 * handed to `run.onSubmitted`, which the caller records before anything else), then waited for —
 * polled, or woken early by a callback — reporting queue position and progress through
 * `run.onProgress`, and resolves with files written into `run.workDir`. A caller that restarts
 * after a crash passes the recorded id as `run.vendorJobId`: the provider resumes waiting for that
 * job and never submits the work twice. The embedded provider does its work inside the call (its
 * job id is local and resuming simply does the work again: it is deterministic).
 *
 * Failures reject with a {@link ProviderError} of a kind (server/integrations/errors.ts):
 * `permanent` (the input is unusable, the vendor refused or failed the job) fails the work at once
 * and refunds it; `reauthorize` (the vendor refuses our API key, or none is configured) does the
 * same, and an admin must set the key; `transient` (network, timeouts, 5xx) is retried by the job
 * runner.
 */
export interface DigitalHumanProvider {
  readonly name: 'embedded' | 'http';
  /** True when results are demonstration output (the embedded provider). */
  readonly demonstration: boolean;
  /** The built-in voices every user may use (the `public` scope), synced into the voices table. */
  publicVoices(): readonly PublicVoice[];
  cloneImage(request: ImageCloneRequest, run: ProviderRun): Promise<ImageCloneResult>;
  cloneVoice(request: VoiceCloneRequest, run: ProviderRun): Promise<VoiceCloneResult>;
  synthesize(request: SpeechRequest, run: ProviderRun): Promise<SpeechResult>;
  renderVideo(request: VideoRequest, run: ProviderRun): Promise<VideoResult>;
  /**
   * A vendor callback (the `http` provider; the embedded one answers null): checks its signature
   * over the raw body and answers the job it is about, or null when the signature is wrong or the
   * body is not a callback.
   */
  parseCallback(
    rawBody: string,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ): Promise<VendorCallback | null>;
}

/** An input file: a local path (embedded, local storage) and/or a URL the vendor can fetch. */
export interface MediaRef {
  path?: string;
  url?: string;
}

export interface ProviderRun {
  /** A directory the caller made (and removes): results are written here. */
  workDir: string;
  signal?: AbortSignal;
  onProgress?(update: ProviderProgress): void;
  /** The vendor job id an earlier attempt recorded: resume it, do not submit again. */
  vendorJobId?: string | null;
  /** Called once the vendor accepted the work, before waiting; the caller records the id. */
  onSubmitted?(vendorJobId: string): Promise<void>;
  /**
   * A key naming this attempt of the work (e.g. `dh_videos:42:1`: the row and its attempt): the
   * http provider sends it with the submit, so a submit retried after a lost answer returns the
   * vendor job the first one made. Without it each call uses a fresh random key.
   */
  idempotencyKey?: string;
}

export interface ProviderProgress {
  /** 0–1 while working. */
  progress?: number;
  /** Jobs ahead of this one at the vendor (0: working on it); null when unknown. */
  queuePosition?: number | null;
}

/** A voice as the provider describes it (JSON, stored with the clone); opaque to callers. */
export type VoiceProfile = Record<string, unknown>;

export interface PublicVoice {
  /** Stable key (unique per provider), e.g. `embedded:zh-female`. */
  key: string;
  /** Names in both languages. */
  name: { 'zh-CN': string; 'en-US': string };
  gender: VoiceGender;
  profile: VoiceProfile;
}

export interface ImageCloneRequest {
  video: MediaRef;
  tier: ImageCloneTier;
}
export interface ImageCloneResult {
  /** A still frame (JPEG) and a short silent loop (MP4) of the presenter, in `workDir`. */
  posterPath: string;
  loopPath: string;
  width: number;
  height: number;
  /** The vendor's handle of the avatar (JSON-able); null for the embedded provider. */
  vendorRef: unknown;
}

export interface VoiceCloneRequest {
  audio: MediaRef;
  gender: VoiceGender;
}
export interface VoiceCloneResult {
  profile: VoiceProfile;
}

export interface SpeechRequest {
  text: string;
  language: SpeechLanguage;
  voice: VoiceProfile;
  /** 0.5–2.0 and 0–2.0. */
  speed: number;
  volume: number;
}
export interface SpeechResult {
  /** The speech (WAV or M4A) in `workDir`, and its length in seconds. */
  audioPath: string;
  duration: number;
}

export interface VideoRequest {
  /** The avatar: its clone's files and vendor handle. */
  avatar: { poster: MediaRef; loop: MediaRef; vendorRef: unknown; width: number; height: number };
  /** The speech made by `synthesize` (the embedded provider composes the video from it). */
  speech: MediaRef & { duration: number };
  /** The spoken text, for subtitles (split at sentence ends, timed by length). */
  text: string;
  subtitles: boolean;
  music?: MediaRef;
  /**
   * The template's background picture (JPEG, PNG or WebP): scaled to cover the frame, over the
   * layout's background colour, under the presenter. Absent: the colour alone.
   */
  background?: MediaRef;
  /** The frame: size and where the avatar and subtitles sit. */
  width: number;
  height: number;
  layout: TemplateLayout;
}
export interface VideoResult {
  /** The video (H.264 + AAC MP4) and its poster (JPEG), in `workDir`. */
  videoPath: string;
  posterPath: string;
  duration: number;
  width: number;
  height: number;
}

export type VendorState = 'queued' | 'running' | 'done' | 'failed';
export interface VendorCallback {
  vendorJobId: string;
  state: VendorState;
}

/** A digital-human provider's failure; only `transient` ones are retried (`permanent` is false). */
export class ProviderError extends IntegrationError {
  constructor(
    message: string,
    kind: IntegrationErrorKind,
    reasonId = 'digitalHuman.reason.providerFailed',
    reasonParams: Record<string, string | number> = {},
  ) {
    super(message, kind, reasonId, reasonParams);
    this.name = 'ProviderError';
  }
}
