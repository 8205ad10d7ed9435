import { ChildProcessError, runNiced } from '../../../platform/jobs/child-process';
import { ProviderError } from '../types';
import { RESULT_BAD } from './client';

/** What ffprobe reads of a downloaded result file. */
export interface MediaFacts {
  /** ffprobe's `format_name` (`mov,mp4,m4a,3gp,3g2,mj2`, `wav`, `image2`…). */
  format: string;
  duration: number;
  video: { codec: string; width: number; height: number } | null;
  audio: { codec: string } | null;
}

interface Probed {
  streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number }[];
  format?: { duration?: string; format_name?: string };
}

/**
 * Probes a result file; a file ffprobe cannot read is the vendor's fault (permanent), a missing
 * ffprobe is this machine's (thrown as it is).
 */
export async function probeResult(file: string, signal?: AbortSignal): Promise<MediaFacts> {
  const lines: string[] = [];
  try {
    await runNiced(
      'ffprobe',
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '--', file],
      { onLine: (line) => lines.push(line), signal: signal ?? AbortSignal.timeout(60_000) },
    );
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const missing =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ||
      (error instanceof ChildProcessError && (error.exitCode === 127 || error.exitCode === 126));
    if (missing || !(error instanceof ChildProcessError)) throw error;
    throw new ProviderError(`unreadable result ${file}: ${error.message}`, 'permanent', RESULT_BAD);
  }
  const probed = JSON.parse(lines.join('\n')) as Probed;
  const video = probed.streams?.find((s) => s.codec_type === 'video');
  const audio = probed.streams?.find((s) => s.codec_type === 'audio');
  return {
    format: probed.format?.format_name ?? '',
    duration: Number(probed.format?.duration ?? NaN),
    video:
      video?.width && video.height
        ? { codec: video.codec_name ?? '', width: video.width, height: video.height }
        : null,
    audio: audio ? { codec: audio.codec_name ?? '' } : null,
  };
}

/** Rejects (permanently) a result that is not what the protocol promises. */
export function demand(ok: unknown, what: string): asserts ok {
  if (!ok) throw new ProviderError(`vendor result: ${what}`, 'permanent', RESULT_BAD);
}
