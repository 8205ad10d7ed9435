import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { runNiced } from '../../../platform/jobs/child-process';
import type { ProviderRun, SpeechRequest, SpeechResult } from '../types';
import { parseWav, wavBytes } from './pcm';
import { clamp, MAX_RATE, MIN_RATE, readProfile, ZH_RATE_FACTOR } from './voices';

/** Speech shorter than this is padded with silence (a lone punctuation mark speaks nothing). */
const MIN_SECONDS = 0.5;

/**
 * Text → speech with espeak-ng: the text goes through a file (`-f`; never the command line), the
 * voice, pitch and rate from the profile (the rate × speed, within espeak-ng's 80–450 wpm), then
 * the volume applied to the samples here (× volume, clipped) and written as a mono 16-bit WAV.
 * Deterministic: the same request gives the same bytes (espeak-ng is; so is the rest).
 */
export async function synthesizeSpeech(
  request: SpeechRequest,
  run: ProviderRun,
): Promise<SpeechResult> {
  const { signal } = run;
  signal?.throwIfAborted();
  const { voice, pitch, rate } = readProfile(request.voice, request.language);
  const spokenRate = Math.round(
    clamp(
      rate * request.speed * (request.language === 'zh' ? ZH_RATE_FACTOR : 1),
      MIN_RATE,
      MAX_RATE,
    ),
  );
  const volume = clamp(Number.isFinite(request.volume) ? request.volume : 1, 0, 2);
  const text = speakable(request.text);
  const id = createHash('sha256')
    .update(JSON.stringify([text, voice, pitch, spokenRate, volume]))
    .digest('hex')
    .slice(0, 16);
  const textFile = path.join(run.workDir, `speech-${id}.txt`);
  const rawFile = path.join(run.workDir, `speech-${id}.raw.wav`);
  const audioPath = path.join(run.workDir, `speech-${id}.wav`);
  run.onProgress?.({ progress: 0, queuePosition: 0 });
  try {
    await fs.writeFile(textFile, text, 'utf8');
    await runNiced(
      'espeak-ng',
      ['-v', voice, '-p', String(pitch), '-s', String(spokenRate), '-w', rawFile, '-f', textFile],
      { signal },
    );
    run.onProgress?.({ progress: 0.8 });
    const wav = parseWav(await fs.readFile(rawFile));
    if (!wav || wav.channels !== 1) throw new Error('espeak-ng wrote no mono 16-bit WAV');
    const { sampleRate } = wav.pcm;
    const length = Math.max(wav.raw.length, Math.ceil(MIN_SECONDS * sampleRate));
    const out = new Int16Array(length);
    for (let i = 0; i < wav.raw.length; i += 1) {
      out[i] = Math.max(-32768, Math.min(32767, Math.round(wav.raw[i]! * volume)));
    }
    await fs.writeFile(audioPath, wavBytes(out, sampleRate));
    run.onProgress?.({ progress: 1 });
    return { audioPath, duration: length / sampleRate };
  } catch (error) {
    await fs.rm(audioPath, { force: true });
    throw error;
  } finally {
    await fs.rm(textFile, { force: true });
    await fs.rm(rawFile, { force: true });
  }
}

/**
 * The text as espeak-ng should read it: control characters become spaces, and `[[`, which
 * would start espeak-ng's phoneme input, is split (the words are read, never interpreted).
 */
export function speakable(text: string): string {
  return (
    text
      .normalize('NFC')
      // Replacing control characters is the point here.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
      .replace(/\[(?=\[)/g, '[ ')
  );
}
