import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { Resource } from '../api/contract/resources';
import type {
  SubtitlePosition,
  TitlePosition,
  VideoFit,
  VideoTransition,
  VideoWatermark,
  VideoRatio,
  VideoResolution,
  VideoTaskAddReply,
  VideoTaskEstimate,
} from '../api/contract/video-tasks';

/**
 * A video task's create form (the mixed-cut drawer, the clip editor page): a draft the
 * person edits, a live estimate and the submission. Two regions while open:
 * - `form`: editing → submitting → (success) the drawer closes, or the page starts a fresh draft;
 *   a refusal returns to editing with the server's sentence. SUBMIT with a draft the contract's
 *   rules refuse stays in editing and shows the messages (then every edit checks again).
 *   CANCEL (the form's Cancel, the drawer's close) with something typed asks first
 *   (confirmingDiscard: KEEP goes back, DISCARD starts a fresh draft); with nothing typed it
 *   closes the drawer at once. A page counts its cancels (`cancelled`: its view leaves).
 * - `estimate`: blank (the draft cannot be priced yet) | waiting (a change; the debounce runs) →
 *   loading (the call) → shown | failed. A change of anything that prices the task (the name does
 *   not) starts the wait again and cancels a call under way; RETRY_ESTIMATE asks again after a
 *   failed call, not after the server refused the draft (asking again would be refused again:
 *   an edit of the draft asks anew).
 * The rules (a fresh draft, the contract's check) are given by the area; `estimate` and `submit`
 * are placeholder actors (`.provide()`), their input `{ body }`.
 */
export type TaskFormEvent<D> =
  | { type: 'OPEN' }
  | { type: 'CLOSE' }
  | { type: 'CANCEL' }
  | { type: 'KEEP' }
  | { type: 'DISCARD' }
  | { type: 'EDIT'; patch: Partial<D> }
  | { type: 'SUBMIT' }
  | { type: 'RETRY_ESTIMATE' };

/** What the contract makes of a draft. */
export interface CheckedDraft<B> {
  /** The body `add` takes; null when a rule refuses the draft. */
  body: B | null;
  /** Field path (`count`, `shot_groups.0.duration`, …) → message id. */
  errors: Record<string, string>;
  /** The body the price is asked for (the name aside); null while it cannot be priced. */
  estimate: B | null;
}

export interface TaskFormRules<D, B> {
  fresh: () => D;
  check: (draft: D) => CheckedDraft<B>;
  /** A page: open from the start, a fresh draft after a success. Else a drawer that closes. */
  page: boolean;
  /**
   * Makes an idempotency key for a submission (a paid call that takes one: the digital-human
   * video). The key is kept while the draft is unchanged, so sending the same draft again after
   * a lost reply never adds it twice; an edit or a success forgets it. Absent: no key.
   */
  newKey?: () => string;
}

/** The debounce of the estimate after a change, ms. */
export const ESTIMATE_DEBOUNCE_MS = 400;

export interface TaskFormContext<D, B, E = VideoTaskEstimate, R = VideoTaskAddReply> {
  draft: D;
  /** Shown once a SUBMIT was refused by the rules (message ids by field path). */
  errors: Record<string, string>;
  submitted: boolean;
  /** The body being priced or last priced, and its key (its JSON; '' for none). */
  estimateBody: B | null;
  estimateKey: string;
  estimate: E | null;
  estimateError: string | null;
  /** The server refused the draft (not a failed call): nothing to retry until an edit. */
  estimateRefused: boolean;
  /** The server's refusal of the submission (a sentence or a message id). */
  error: string | null;
  result: R | null;
  /** The idempotency key of the draft as it is (rules with `newKey`); null until a submission. */
  key: string | null;
  /** Successful submissions: a change means "a task was added". */
  completed: number;
  /** Something was typed or picked since the draft was fresh. */
  edited: boolean;
  /** Cancels of a page's form (a change: its view leaves the page). */
  cancelled: number;
}

/** The server answered with a refusal of what was sent (ApiError kind 'reply'). */
const isRefusal = (error: unknown) => (error as { kind?: unknown } | null)?.kind === 'reply';

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export function createTaskFormMachine<D, B, E = VideoTaskEstimate, R = VideoTaskAddReply>(
  id: string,
  rules: TaskFormRules<D, B>,
) {
  const keyOf = (body: B | null) => (body === null ? '' : JSON.stringify(body));
  const start = (): Pick<
    TaskFormContext<D, B, E, R>,
    | 'draft'
    | 'errors'
    | 'submitted'
    | 'estimateBody'
    | 'estimateKey'
    | 'estimate'
    | 'error'
    | 'key'
    | 'edited'
  > => {
    const draft = rules.fresh();
    const estimate = rules.check(draft).estimate;
    return {
      draft,
      errors: {},
      submitted: false,
      estimateBody: estimate,
      estimateKey: keyOf(estimate),
      estimate: null,
      error: null,
      key: null,
      edited: false,
    };
  };
  const edited = (context: TaskFormContext<D, B, E, R>, patch: Partial<D>) => {
    const draft = { ...context.draft, ...patch };
    return { draft, checked: rules.check(draft) };
  };
  return setup({
    types: {
      context: {} as TaskFormContext<D, B, E, R>,
      events: {} as TaskFormEvent<D>,
    },
    actors: {
      estimate: fromPromise<E, { body: B }>(async () => {
        throw new Error(`${id}: provide the estimate actor`);
      }),
      submit: fromPromise<R, { body: B; key: string | null }>(async () => {
        throw new Error(`${id}: provide the submit actor`);
      }),
    },
    guards: {
      samePrice: ({ context, event }) =>
        event.type === 'EDIT' &&
        keyOf(edited(context, event.patch).checked.estimate) === context.estimateKey,
      priceable: ({ context }) => context.estimateKey !== '',
      valid: ({ context }) => rules.check(context.draft).body !== null,
      edited: ({ context }) => context.edited,
      retryable: ({ context }) => !context.estimateRefused,
    },
    actions: {
      edit: assign(({ context, event }) => {
        if (event.type !== 'EDIT') return {};
        const { draft, checked } = edited(context, event.patch);
        return {
          draft,
          estimateBody: checked.estimate,
          estimateKey: keyOf(checked.estimate),
          // Another draft is another submission.
          key: null,
          edited: true,
          ...(context.submitted ? { errors: checked.errors } : {}),
        };
      }),
      refuse: assign(({ context }) => ({
        submitted: true,
        errors: rules.check(context.draft).errors,
      })),
    },
  }).createMachine({
    id,
    context: () => ({
      ...start(),
      estimateError: null,
      estimateRefused: false,
      result: null,
      completed: 0,
      cancelled: 0,
    }),
    initial: rules.page ? 'open' : 'closed',
    states: {
      closed: { on: { OPEN: 'open' } },
      open: {
        type: 'parallel',
        states: {
          form: {
            initial: 'editing',
            states: {
              editing: {
                on: {
                  SUBMIT: [
                    {
                      guard: 'valid',
                      target: 'submitting',
                      actions: assign({
                        error: null,
                        key: ({ context }) => context.key ?? rules.newKey?.() ?? null,
                      }),
                    },
                    { actions: 'refuse' },
                  ],
                  CLOSE: `#${id}.closed`,
                  CANCEL: [
                    { guard: 'edited', target: 'confirmingDiscard' },
                    rules.page
                      ? { actions: assign({ cancelled: ({ context }) => context.cancelled + 1 }) }
                      : { target: `#${id}.closed` },
                  ],
                },
              },
              confirmingDiscard: {
                tags: ['confirmingDiscard'],
                on: {
                  KEEP: 'editing',
                  DISCARD: {
                    target: rules.page ? `#${id}.open` : `#${id}.closed`,
                    reenter: true,
                    actions: assign(({ context }) => ({
                      ...start(),
                      cancelled: context.cancelled + (rules.page ? 1 : 0),
                    })),
                  },
                },
              },
              submitting: {
                tags: ['submitting'],
                invoke: {
                  id: 'submit',
                  src: 'submit',
                  input: ({ context }) => ({
                    body: rules.check(context.draft).body as B,
                    key: context.key,
                  }),
                  onDone: {
                    target: rules.page ? `#${id}.open` : `#${id}.closed`,
                    reenter: true,
                    actions: assign(({ context, event }) => ({
                      ...start(),
                      result: event.output,
                      completed: context.completed + 1,
                    })),
                  },
                  onError: {
                    target: 'editing',
                    actions: assign({ error: ({ event }) => errorText(event.error) }),
                  },
                },
              },
            },
          },
          estimate: {
            initial: 'checking',
            on: {
              EDIT: [
                { guard: 'samePrice', actions: 'edit' },
                { target: '.checking', reenter: true, actions: 'edit' },
              ],
            },
            states: {
              checking: {
                always: [{ guard: 'priceable', target: 'waiting' }, { target: 'blank' }],
              },
              blank: {
                entry: assign({ estimate: null, estimateError: null, estimateRefused: false }),
              },
              waiting: { tags: ['estimating'], after: { [ESTIMATE_DEBOUNCE_MS]: 'loading' } },
              loading: {
                tags: ['estimating'],
                invoke: {
                  id: 'estimate',
                  src: 'estimate',
                  input: ({ context }) => ({ body: context.estimateBody as B }),
                  onDone: {
                    target: 'shown',
                    actions: assign({
                      estimate: ({ event }) => event.output,
                      estimateError: null,
                      estimateRefused: false,
                    }),
                  },
                  onError: {
                    target: 'failed',
                    actions: assign({
                      estimate: null,
                      estimateError: ({ event }) => errorText(event.error),
                      estimateRefused: ({ event }) => isRefusal(event.error),
                    }),
                  },
                },
              },
              shown: {},
              failed: { on: { RETRY_ESTIMATE: { guard: 'retryable', target: 'loading' } } },
            },
          },
        },
      },
    },
  });
}

export type TaskFormMachine<D, B, E = VideoTaskEstimate, R = VideoTaskAddReply> = ReturnType<
  typeof createTaskFormMachine<D, B, E, R>
>;
export type TaskFormSnapshot<D, B, E = VideoTaskEstimate, R = VideoTaskAddReply> = SnapshotFrom<
  TaskFormMachine<D, B, E, R>
>;

/** Cents of a money string ("12.50" → 1250). */
const cents = (money: string) => Math.round(Number(money) * 100);

/** What the estimate warns of: more outputs than combinations, a balance short of the price. */
export function estimateWarnings(estimate: VideoTaskEstimate) {
  return {
    tooMany: estimate.outputs > estimate.combinations,
    short: cents(estimate.balance) < cents(estimate.cost),
  };
}

// ---- what both forms' drafts share (mixed-task-form.ts, clip-editor.ts): what a person typed
// stays text until the contract's rules read it (an empty number field is refused with the
// field's own message, never silently 0).

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

/** A timed subtitle line being edited (seconds as typed). */
export interface SubtitleLineDraft {
  key: number;
  start: string;
  end: string;
  text: string;
}

/** Lines (e.g. an imported SRT's) as editable drafts, times kept. */
export const lineDrafts = (lines: readonly { start: number; end: number; text: string }[]) =>
  lines.map((l, i) => ({ key: i + 1, start: String(l.start), end: String(l.end), text: l.text }));

/** The look, the sound and the words both forms share. */
export interface CommonDraft {
  name: string;
  ratio: VideoRatio;
  resolution: VideoResolution;
  /** Sources of another shape than the ratio: cropped to fill, or whole over a blur. */
  fit: VideoFit;
  fps: string;
  bitrate: string;
  music: Picked[];
  musicVolume: number;
  keepOriginalSound: boolean;
  titles: TitleDraft[];
  subtitleText: string;
  subtitleSize: string;
  subtitleColor: string;
  subtitlePosition: SubtitlePosition;
  /** Outline width; empty: the size's own. */
  subtitleOutline: string;
  /** One of the person's `font` resources; null: the platform's CJK font. */
  subtitleFont: Picked | null;
  /** Timed lines (SRT import, per-line edit): shown as given, instead of the text. */
  subtitleLines: SubtitleLineDraft[];
  stickers: StickerDraft[];
  /** The narration's script and voice (a voice id; '' none): both empty means no narration. */
  narrationText: string;
  narrationVoice: string;
  narrationSpeed: string;
  narrationVolume: string;
  /** Show the script's sentences as subtitles, timed to the speech. */
  narrationSubtitles: boolean;
  transition: VideoTransition;
  /** Empty: no watermark. */
  watermarkText: string;
  watermarkCorner: VideoWatermark['corner'];
}

export const COMMON: CommonDraft = {
  name: '',
  ratio: '9:16',
  resolution: '720p',
  fit: 'crop',
  fps: '30',
  bitrate: '1200',
  music: [],
  musicVolume: 5,
  keepOriginalSound: true,
  titles: [],
  subtitleText: '',
  subtitleSize: '36',
  subtitleColor: '#ffffff',
  subtitlePosition: 'bottom',
  subtitleOutline: '',
  subtitleFont: null,
  subtitleLines: [],
  stickers: [],
  narrationText: '',
  narrationVoice: '',
  narrationSpeed: '1',
  narrationVolume: '1',
  narrationSubtitles: true,
  transition: 'cut',
  watermarkText: '',
  watermarkCorner: 'bottom_right',
};

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
export const num = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));
export const optionalNum = (s: string) => (s.trim() === '' ? undefined : num(s));

/** The body fields both kinds share. */
export function common(d: CommonDraft, name: string) {
  const narrated = d.narrationText.trim() !== '' || d.narrationVoice !== '';
  const lines = d.subtitleLines.map((l) => ({
    start: num(l.start),
    end: num(l.end),
    text: l.text,
  }));
  const outline = optionalNum(d.subtitleOutline);
  // Subtitles: timed lines as given, else the narration's sentences, else the text.
  const subtitles =
    lines.length > 0 || d.subtitleText.trim() || (narrated && d.narrationSubtitles)
      ? {
          subtitles: {
            ...(lines.length > 0
              ? { lines }
              : d.subtitleText.trim()
                ? { text: d.subtitleText }
                : {}),
            size: num(d.subtitleSize),
            color: d.subtitleColor,
            position: d.subtitlePosition,
            ...(outline === undefined ? {} : { outline }),
            ...(d.subtitleFont ? { font: d.subtitleFont.id } : {}),
          },
        }
      : {};
  const narration = narrated
    ? {
        narration: {
          text: d.narrationText,
          voice_id: num(d.narrationVoice),
          speed: num(d.narrationSpeed),
          volume: num(d.narrationVolume),
        },
      }
    : {};
  return {
    name,
    ratio: d.ratio,
    resolution: d.resolution,
    fit: d.fit,
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
    ...narration,
    ...(d.transition !== 'cut' ? { transition: d.transition } : {}),
    ...(d.watermarkText.trim()
      ? { watermark: { text: d.watermarkText, corner: d.watermarkCorner } }
      : {}),
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
