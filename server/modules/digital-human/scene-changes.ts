import { runNiced } from '../../platform/jobs/child-process';

/** A frame whose scene score passes this is a cut (ffmpeg's `scene`, 0–1). */
export const SCENE_THRESHOLD = 0.4;

/**
 * The scene changes (cuts) ffmpeg finds in a video: the frames whose `scene` score is above
 * {@link SCENE_THRESHOLD}, on a decode scaled down to 160 px wide (the score compares frames; a
 * small picture finds the same cuts in a fraction of the time). The "one take" check of an image
 * clone's source video. `source`: a path or a URL ffmpeg reads. Rejects with ffmpeg's
 * error when it cannot read the file.
 */
export async function countSceneChanges(source: string, signal?: AbortSignal): Promise<number> {
  let count = 0;
  await runNiced(
    'ffmpeg',
    [
      ...['-hide_banner', '-nostats', '-v', 'error', '-i', source, '-an', '-sn', '-dn'],
      ...['-vf', `scale=160:-2,select='gt(scene,${SCENE_THRESHOLD})',metadata=print:file=-`],
      ...['-f', 'null', '-'],
    ],
    {
      signal,
      onLine: (line) => {
        if (line.startsWith('frame:')) count += 1;
      },
    },
  );
  return count;
}
