import type { SpeechLanguage, VoiceGender } from '../../../../src/api/contract/digital-human';
import type { PublicVoice, VoiceProfile } from '../types';

/**
 * The embedded provider's voices: espeak-ng voices with a pitch (0–99) and a rate (words per
 * minute), stored as the clone's profile JSON. Mandarin uses `cmn-latn-pinyin` (`cmn` reads many
 * characters as pinyin with English digit names; docs/decisions.md); the gender picks the variant
 * (`+f3` female, `+m3` male).
 */
export interface EspeakProfile {
  engine: 'espeak-ng';
  /** The espeak-ng voice (with its variant) per language. */
  voices: Record<SpeechLanguage, string>;
  /** espeak-ng `-p`, 0–99 (50 is the voice's own). */
  pitch: number;
  /** espeak-ng `-s` at speed 1, words per minute (Mandarin is spoken ZH_RATE_FACTOR faster). */
  rate: number;
  /** What the voice clone measured in its sample (absent for the built-in voices). */
  measured?: { f0Hz: number; syllablesPerSecond: number; seconds: number };
}

export const DEFAULT_PITCH = 50;
export const DEFAULT_RATE = 175;
export const MIN_RATE = 80;
export const MAX_RATE = 450;
/**
 * espeak-ng's Mandarin at a rate reads ≈ 3.8 characters a second at 175 wpm; the estimate the
 * console freezes counts 4.5 (estimateSpeechSeconds): Mandarin is spoken this much faster.
 */
export const ZH_RATE_FACTOR = 1.15;

const VARIANT: Record<VoiceGender, string> = { female: '+f3', male: '+m3' };

export function espeakVoices(gender: VoiceGender): Record<SpeechLanguage, string> {
  return { zh: `cmn-latn-pinyin${VARIANT[gender]}`, en: `en-us${VARIANT[gender]}` };
}

function profile(gender: VoiceGender, pitch: number, rate: number): EspeakProfile {
  return { engine: 'espeak-ng', voices: espeakVoices(gender), pitch, rate };
}

export const PUBLIC_VOICES: readonly PublicVoice[] = [
  {
    key: 'embedded:zh-female',
    name: { 'zh-CN': '普通话女声', 'en-US': 'Mandarin, female' },
    gender: 'female',
    profile: { ...profile('female', 55, 175) },
  },
  {
    key: 'embedded:zh-male',
    name: { 'zh-CN': '普通话男声', 'en-US': 'Mandarin, male' },
    gender: 'male',
    profile: { ...profile('male', 45, 170) },
  },
  {
    key: 'embedded:en-female',
    name: { 'zh-CN': '英语女声', 'en-US': 'English, female' },
    gender: 'female',
    profile: { ...profile('female', 55, 165) },
  },
  {
    key: 'embedded:en-male',
    name: { 'zh-CN': '英语男声', 'en-US': 'English, male' },
    gender: 'male',
    profile: { ...profile('male', 45, 160) },
  },
];

const VOICE_NAME = /^(cmn-latn-pinyin|en-us)(\+[fm][1-5])?$/;

/**
 * A stored profile read back (it is JSON from the database): anything malformed falls back to
 * the defaults, so a bad row cannot put arguments on espeak-ng's command line.
 */
export function readProfile(
  value: VoiceProfile,
  language: SpeechLanguage,
): {
  voice: string;
  pitch: number;
  rate: number;
} {
  const voices = (value as Partial<EspeakProfile>).voices;
  const named = voices && typeof voices === 'object' ? voices[language] : undefined;
  const fallback = espeakVoices('female')[language];
  const voice =
    typeof named === 'string' && VOICE_NAME.test(named) && named.startsWith(fallback.split('+')[0]!)
      ? named
      : fallback;
  const number = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
  return {
    voice,
    pitch: clamp(Math.round(number(value.pitch, DEFAULT_PITCH)), 0, 99),
    rate: clamp(number(value.rate, DEFAULT_RATE), MIN_RATE, MAX_RATE),
  };
}

export const clamp = (v: number, low: number, high: number) => Math.min(high, Math.max(low, v));

/**
 * Measured fundamental frequency (Hz) of espeak-ng's voices at pitch 0, 25, 50, 75 and 99
 * (estimateF0 over a Mandarin and an English sentence, averaged; espeak-ng 1.51).
 */
const PITCH_POINTS = [0, 25, 50, 75, 99];
const F0_AT: Record<VoiceGender, number[]> = {
  male: [69.4, 81.5, 99.5, 128.5, 167.7],
  female: [136.6, 161.5, 197.0, 250.9, 322.7],
};
/** Measured syllables per second (estimateSyllableRate, both sentences averaged) at a rate. */
const RATE_POINTS = [80, 120, 175, 250, 350];
const SYLLABLES_AT = [2.45, 3.23, 4.37, 5.97, 7.39];

/** The espeak-ng pitch (0–99) whose voice has this fundamental frequency (log-linear between points). */
export function pitchForF0(f0: number, gender: VoiceGender): number {
  const table = F0_AT[gender].map(Math.log);
  return Math.round(clamp(interpolate(Math.log(f0), table, PITCH_POINTS), 0, 99));
}

/** The espeak-ng rate (wpm) that speaks this many syllables a second. */
export function rateForSyllables(perSecond: number): number {
  return Math.round(clamp(interpolate(perSecond, SYLLABLES_AT, RATE_POINTS), MIN_RATE, MAX_RATE));
}

/** y at x on the polyline (xs ascending), extended linearly beyond its ends. */
function interpolate(x: number, xs: readonly number[], ys: readonly number[]): number {
  let i = 0;
  while (i < xs.length - 2 && x > xs[i + 1]!) i += 1;
  const x0 = xs[i]!;
  const x1 = xs[i + 1]!;
  const y0 = ys[i]!;
  const y1 = ys[i + 1]!;
  return y0 + ((x - x0) * (y1 - y0)) / (x1 - x0);
}

export function fittedProfile(
  gender: VoiceGender,
  measured: { f0Hz: number; syllablesPerSecond: number; seconds: number },
): EspeakProfile {
  return {
    ...profile(
      gender,
      pitchForF0(measured.f0Hz, gender),
      rateForSyllables(measured.syllablesPerSecond),
    ),
    measured: {
      f0Hz: Math.round(measured.f0Hz * 10) / 10,
      syllablesPerSecond: Math.round(measured.syllablesPerSecond * 100) / 100,
      seconds: Math.round(measured.seconds * 100) / 100,
    },
  };
}
