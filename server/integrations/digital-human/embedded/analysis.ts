import { quantile, rmsEnvelope, type Pcm } from './pcm';

/**
 * Measurements of a voice sample (the embedded "voice clone"): its fundamental frequency and its
 * speaking rate. Pure functions of the samples (16 kHz mono is what the provider decodes to).
 */

/** The lowest and highest fundamental frequencies looked for (Hz): speech, male to child. */
const F0_MIN = 60;
const F0_MAX = 500;
/** An analysis window of 40 ms every 20 ms. */
const WINDOW = 0.04;
const HOP = 0.02;
/** A window is voiced when its normalised autocorrelation peak reaches this. */
const VOICING = 0.6;

/**
 * The median fundamental frequency (Hz) of the voiced windows, or null when none is voiced.
 * Each window loud enough (above a fifth of the loud windows' level) is autocorrelated over the
 * lags of 60–500 Hz; the best normalised peak (≥ 0.6) is its period, refined by a parabola, and
 * a shorter lag nearly as good (≥ 0.85 of it) is preferred (the octave below is a common error).
 */
export function estimateF0(pcm: Pcm): { f0: number; voicedWindows: number } | null {
  const { samples, sampleRate } = pcm;
  const size = Math.round(sampleRate * WINDOW);
  const hop = Math.round(sampleRate * HOP);
  const minLag = Math.floor(sampleRate / F0_MAX);
  const maxLag = Math.ceil(sampleRate / F0_MIN);
  if (samples.length < size + maxLag) return null;
  const levels = rmsEnvelope(pcm, HOP);
  const loud = quantile(levels, 0.9) * 0.2;
  const found: number[] = [];
  const r = new Float64Array(maxLag + 2);
  for (let start = 0; start + size + maxLag < samples.length; start += hop) {
    const level = levels[Math.floor(start / hop)] ?? 0;
    if (level <= loud || level < 1e-3) continue;
    let energy0 = 0;
    for (let i = 0; i < size; i += 1) energy0 += samples[start + i]! ** 2;
    for (let lag = minLag - 1; lag <= maxLag + 1; lag += 1) {
      let sum = 0;
      let energy1 = 0;
      for (let i = 0; i < size; i += 1) {
        const b = samples[start + i + lag]!;
        sum += samples[start + i]! * b;
        energy1 += b * b;
      }
      r[lag] = sum / Math.sqrt(energy0 * energy1 + 1e-12);
    }
    let best = -1;
    let bestLag = 0;
    for (let lag = minLag; lag <= maxLag; lag += 1) {
      if (r[lag]! > best && isPeak(r, lag)) {
        best = r[lag]!;
        bestLag = lag;
      }
    }
    if (best < VOICING) continue;
    // Prefer the shortest lag whose peak is nearly as high (avoids the octave below).
    for (let lag = minLag; lag < bestLag; lag += 1) {
      if (isPeak(r, lag) && r[lag]! >= 0.85 * best) {
        bestLag = lag;
        break;
      }
    }
    const a = r[bestLag - 1]!;
    const b = r[bestLag]!;
    const c = r[bestLag + 1]!;
    const denom = a - 2 * b + c;
    const shift = denom < 0 ? (0.5 * (a - c)) / denom : 0;
    found.push(sampleRate / (bestLag + Math.max(-0.5, Math.min(0.5, shift))));
  }
  if (found.length === 0) return null;
  return { f0: quantile(found, 0.5), voicedWindows: found.length };
}

/** A local maximum of the autocorrelation (its neighbours computed). */
function isPeak(r: Float64Array, lag: number): boolean {
  return r[lag]! >= r[lag - 1]! && r[lag]! >= r[lag + 1]!;
}

/**
 * Syllables per second: peaks of the loudness envelope (10 ms levels smoothed over 50 ms) that
 * rise at least 30 % above the dip since the previous peak and reach a quarter of the loud level,
 * at least 80 ms apart, counted over the time the voice is active (pauses longer than 0.5 s left
 * out). Null when nothing is loud enough to count.
 */
export function estimateSyllableRate(
  pcm: Pcm,
): { syllablesPerSecond: number; activeSeconds: number; syllables: number } | null {
  const STEP = 0.01;
  const raw = rmsEnvelope(pcm, STEP);
  const smooth = new Float32Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) {
    let sum = 0;
    let n = 0;
    for (let k = -2; k <= 2; k += 1) {
      const v = raw[i + k];
      if (v !== undefined) {
        sum += v;
        n += 1;
      }
    }
    smooth[i] = sum / n;
  }
  const loud = quantile(smooth, 0.95);
  if (!(loud > 1e-3)) return null;
  const floor = loud * 0.25;
  const silence = loud * 0.08;

  let syllables = 0;
  let dip = Infinity;
  let lastPeak = -Infinity;
  for (let i = 1; i < smooth.length - 1; i += 1) {
    const v = smooth[i]!;
    dip = Math.min(dip, v);
    const isMax = v >= smooth[i - 1]! && v > smooth[i + 1]!;
    if (isMax && v >= floor && v >= dip * 1.3 && (i - lastPeak) * STEP >= 0.08) {
      syllables += 1;
      lastPeak = i;
      dip = v;
    }
  }

  // Active time: from each loud frame to the next, unless the gap is a long pause.
  let active = 0;
  let previous = -1;
  for (let i = 0; i < smooth.length; i += 1) {
    if (smooth[i]! < silence) continue;
    if (previous >= 0) {
      const gap = (i - previous) * STEP;
      active += gap <= 0.5 ? gap : STEP;
    } else active += STEP;
    previous = i;
  }
  if (syllables === 0 || active < 0.5) return null;
  return { syllablesPerSecond: syllables / active, activeSeconds: active, syllables };
}
