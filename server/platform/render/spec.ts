/**
 * What one output of a video task is made of, as the renderer takes it.
 * The task module (server/modules/video-tasks) turns a task's params and the combination an
 * output uses into a RenderSpec; server/platform/render/render.ts turns a RenderSpec into one ffmpeg run.
 * Every input is a path or URL ffmpeg can read (local disk: the file's path; S3: a presigned GET).
 */

export interface RenderInput {
  /** A local path or an http(s) URL. */
  source: string;
  /** Seconds (video, audio); null for images. */
  duration: number | null;
  /** Whether it has an audio stream (videos without sound get silence). */
  hasAudio: boolean;
}

/** One piece of the timeline: `length` seconds of `input` from `start` (a shorter source holds its last frame). */
export interface RenderSegment {
  input: RenderInput;
  start: number;
  length: number;
}

export interface RenderTitle {
  text: string;
  size: number;
  /** #RRGGBB */
  color: string;
  position: 'top' | 'center' | 'bottom';
}

export interface RenderSticker {
  input: RenderInput;
  /** Fractions of the frame (0–1): the sticker's left, top and width. */
  x: number;
  y: number;
  width: number;
}

export interface RenderSubtitles {
  /** Timed lines (seconds of the output), shown as given; else `text` spread over the video. */
  lines?: readonly { start: number; end: number; text: string }[] | null;
  text?: string;
  fontFile: string | null;
  /** Pixels of a 720-short-side frame. */
  size: number;
  color: string;
  /** Default bottom; inside the safe margins. */
  position?: 'top' | 'middle' | 'bottom';
  /** Outline width (pixels of a 720-short-side frame); default size ÷ 16. */
  outline?: number;
}

export interface RenderSpec {
  width: number;
  height: number;
  fps: number;
  bitrateKbps: number;
  /**
   * A segment whose shape differs from the frame's: `crop` (default) fills the frame, centred;
   * `blur` shows it whole over a blurred, frame-filling copy of itself.
   */
  fit?: 'crop' | 'blur';
  /** In play order: intro, one shot per group, outro (a clip: its one trimmed segment). */
  segments: RenderSegment[];
  /** Keep the segments' own sound (else only music, or silence). */
  keepOriginalSound: boolean;
  /** Background music, looped or cut to the video's length, mixed at volume 0–10 (5 = as is). */
  music: RenderInput | null;
  musicVolume: number;
  titles: RenderTitle[];
  /** Timed subtitles (libass). */
  subtitles: RenderSubtitles | null;
  stickers: RenderSticker[];
  /**
   * A voice-over from the video's start (cut at its end), mixed over everything; the music is
   * ducked under it (sidechain compression keyed by the speech).
   */
  narration?: RenderInput | null;
  /** Between segments: `cut` (default) or a short dip through black. */
  transition?: 'cut' | 'fade';
  /** A half-transparent text in a corner, inside the safe margins. */
  watermark?: {
    text: string;
    corner: 'top_left' | 'top_right' | 'bottom_left' | 'bottom_right';
  } | null;
  /** x264 preset: tests use `ultrafast`. */
  preset: 'ultrafast' | 'veryfast' | 'fast' | 'medium';
}

export interface RenderResult {
  /** Seconds, as ffprobe reads the file. */
  duration: number;
  size: number;
  width: number;
  height: number;
}

export interface RenderOptions {
  /** Aborting stops ffmpeg (the output file is removed). */
  signal?: AbortSignal;
  /** 0–1 as ffmpeg reports its time (`-progress pipe:1`). */
  onProgress?: (fraction: number) => void;
  /** A directory for the run's temporary files (subtitle script…); default the OS's. */
  tmpDir?: string;
  /**
   * Also write a JPEG poster here, from the same ffmpeg run (no second decode): the frame at
   * 0.5 s (the middle of a shorter video), at most 360 px wide, as makePoster makes. Removed too
   * when the render fails.
   */
  posterPath?: string;
}

/** The output's planned length: the sum of its segments' lengths. */
export function plannedDuration(spec: Pick<RenderSpec, 'segments'>): number {
  return spec.segments.reduce((sum, s) => sum + s.length, 0);
}
