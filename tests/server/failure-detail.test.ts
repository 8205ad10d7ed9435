import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ChildProcessError } from '../../server/platform/jobs/child-process';
import { failureDetail } from '../../server/platform/jobs/failure-detail';

/** What a person reads of a failed job (server/platform/jobs/failure-detail.ts). */

const DATA = '/srv/video console/data';
const TMP = os.tmpdir();

describe('failureDetail', () => {
  it('names an input by its resource name instead of its path or signed URL', () => {
    const file = `${DATA}/files/videos/u3/k9.mp4`;
    const url = 'https://s3.example/bucket/u3/k9.mp4?X-Amz-Signature=abc&X-Amz-Expires=60';
    const error = new ChildProcessError(
      'ffprobe',
      1,
      null,
      `${file}: Invalid data found when processing input\n${url}: Server returned 403 Forbidden`,
    );
    expect(
      failureDetail(error, {
        sources: [
          { source: file, name: 'Beach' },
          { source: url, name: 'Beach (S3)' },
        ],
        roots: [DATA],
      }),
    ).toBe(
      'ffprobe exited with 1: “Beach”: Invalid data found when processing input\n' +
        '“Beach (S3)”: Server returned 403 Forbidden',
    );
  });

  it('keeps only the base name of any other path, even under a directory with spaces', () => {
    const text =
      `Error opening ${DATA}/cache/ab/x.ass\n` +
      `copyfile '${TMP}/vc-output-1/font.ttf' -> '/var/lib/other/y.ttf'\n` +
      'fetch https://cdn.example/f.woff2?sig=1 failed';
    const detail = failureDetail(new Error(text), { roots: [DATA] });
    expect(detail).toBe("Error opening x.ass\ncopyfile 'font.ttf' -> 'y.ttf'\nfetch <url> failed");
    expect(detail).not.toContain('/');
  });

  it('drops repeated lines and memory addresses, and keeps the last three lines', () => {
    const stderr = [
      '[mov,mp4 @ 0x5581e0a9c2c0] moov atom not found',
      ...Array(15).fill('[h264 @ 0x5581e0a9d000] error while decoding MB 3 4'),
      'Error while decoding stream #0:0: Invalid data found when processing input',
      'Conversion failed!',
    ].join('\n');
    expect(failureDetail(new ChildProcessError('ffmpeg', 69, null, stderr))).toBe(
      'ffmpeg exited with 69: [h264] error while decoding MB 3 4\n' +
        'Error while decoding stream #0:0: Invalid data found when processing input\n' +
        'Conversion failed!',
    );
    expect(failureDetail(new ChildProcessError('ffmpeg', null, 'SIGKILL', ''))).toBe(
      'ffmpeg was stopped (SIGKILL)',
    );
  });

  it('leaves a readable text as it is (details are scrubbed again when shown)', () => {
    const clean = 'ffmpeg exited with 1: “Beach”: Invalid data found when processing input';
    expect(failureDetail(clean)).toBe(clean);
    expect(failureDetail(failureDetail(clean))).toBe(clean);
    expect(failureDetail('no render finished in 3 runs (the worker stopped or hung)')).toBe(
      'no render finished in 3 runs (the worker stopped or hung)',
    );
  });
});
