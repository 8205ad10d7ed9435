import fs from 'node:fs/promises';
import path from 'node:path';
import { runNiced } from '../../../platform/jobs/child-process';

/**
 * Sound as numbers, for the embedded provider's measurements: 16-bit PCM WAV read and written in
 * JS (espeak-ng writes mono 16-bit WAV), anything else decoded by ffmpeg into a raw file first.
 */

export interface Pcm {
  /** Mono samples, -1…1. */
  samples: Float32Array;
  sampleRate: number;
}

/** A 16-bit PCM WAV file's mono samples (channels averaged), or null when it is not one. */
export function parseWav(bytes: Buffer): { pcm: Pcm; raw: Int16Array; channels: number } | null {
  if (bytes.length < 44 || bytes.toString('ascii', 0, 4) !== 'RIFF') return null;
  if (bytes.toString('ascii', 8, 12) !== 'WAVE') return null;
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number; tag: number } | null = null;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const declared = bytes.readUInt32LE(offset + 4);
    const start = offset + 8;
    // espeak-ng writing to a pipe declares 0x7fffffff: take what is there.
    const size = Math.min(declared, bytes.length - start);
    if (id === 'fmt ' && size >= 16) {
      format = {
        tag: bytes.readUInt16LE(start),
        channels: bytes.readUInt16LE(start + 2),
        sampleRate: bytes.readUInt32LE(start + 4),
        bits: bytes.readUInt16LE(start + 14),
      };
    } else if (id === 'data') {
      if (!format || format.tag !== 1 || format.bits !== 16 || format.channels < 1) return null;
      const frames = Math.floor(size / 2 / format.channels);
      const raw = new Int16Array(frames * format.channels);
      for (let i = 0; i < raw.length; i += 1) raw[i] = bytes.readInt16LE(start + i * 2);
      const samples = new Float32Array(frames);
      for (let f = 0; f < frames; f += 1) {
        let sum = 0;
        for (let c = 0; c < format.channels; c += 1) sum += raw[f * format.channels + c]!;
        samples[f] = sum / format.channels / 32768;
      }
      return { pcm: { samples, sampleRate: format.sampleRate }, raw, channels: format.channels };
    }
    offset = start + declared + (declared % 2);
  }
  return null;
}

/** A mono 16-bit PCM WAV file's bytes (a plain 44-byte header). */
export function wavBytes(raw: Int16Array, sampleRate: number): Buffer {
  const data = raw.length * 2;
  const out = Buffer.alloc(44 + data);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + data, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(data, 40);
  for (let i = 0; i < raw.length; i += 1) out.writeInt16LE(raw[i]!, 44 + i * 2);
  return out;
}

/**
 * Mono samples of any sound ffmpeg reads (a path or URL): a 16-bit WAV is read directly, anything
 * else is decoded by ffmpeg (niced) into `workDir` at `sampleRate`, at most `maxSeconds`.
 */
export async function decodePcm(
  source: string,
  workDir: string,
  options: {
    sampleRate: number;
    /** A 16-bit WAV is taken at its own rate (loudness only: no resampling needed). */
    anyRate?: boolean;
    maxSeconds?: number;
    signal?: AbortSignal;
  },
): Promise<Pcm> {
  if (!/^https?:\/\//i.test(source)) {
    const head = await fs.readFile(source);
    const wav = parseWav(head);
    if (wav && (options.anyRate || wav.pcm.sampleRate === options.sampleRate)) {
      const { sampleRate } = wav.pcm;
      const max = options.maxSeconds ? Math.round(options.maxSeconds * sampleRate) : null;
      const samples =
        max && wav.pcm.samples.length > max ? wav.pcm.samples.slice(0, max) : wav.pcm.samples;
      return { samples, sampleRate };
    }
  }
  const out = path.join(workDir, `decoded-${process.hrtime.bigint()}.pcm`);
  try {
    await runNiced(
      'ffmpeg',
      [
        ...['-nostdin', '-hide_banner', '-v', 'error', '-y', '-i', source],
        ...(options.maxSeconds ? ['-t', String(options.maxSeconds)] : []),
        ...['-vn', '-ac', '1', '-ar', String(options.sampleRate), '-f', 's16le', out],
      ],
      { signal: options.signal },
    );
    const bytes = await fs.readFile(out);
    const samples = new Float32Array(Math.floor(bytes.length / 2));
    for (let i = 0; i < samples.length; i += 1) samples[i] = bytes.readInt16LE(i * 2) / 32768;
    return { samples, sampleRate: options.sampleRate };
  } finally {
    await fs.rm(out, { force: true });
  }
}

/** Root-mean-square level of each `frameSeconds` window (the last one partial). */
export function rmsEnvelope(pcm: Pcm, frameSeconds: number): Float32Array {
  const size = Math.max(1, Math.round(pcm.sampleRate * frameSeconds));
  const count = Math.ceil(pcm.samples.length / size);
  const out = new Float32Array(count);
  for (let f = 0; f < count; f += 1) {
    let sum = 0;
    const start = f * size;
    const end = Math.min(pcm.samples.length, start + size);
    for (let i = start; i < end; i += 1) sum += pcm.samples[i]! * pcm.samples[i]!;
    out[f] = Math.sqrt(sum / Math.max(1, end - start));
  }
  return out;
}

/** The value below which `q` (0–1) of the values lie. */
export function quantile(values: ArrayLike<number>, q: number): number {
  const sorted = Array.from(values).sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))]!;
}
