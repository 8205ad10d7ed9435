import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ResourceType } from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import { newFileKey } from '../../platform/storage/keys';
import { addResource } from '../resources';
import { newUploadKey } from '../uploads';
import { insertUpload } from '../uploads';

const run = promisify(execFile);

/** The demo library's group (the names are the demo data's, in its language). */
export const DEMO_MEDIA_GROUP = '示例素材';

interface Recipe {
  name: string;
  type: ResourceType;
  contentType: string;
  args: string[];
}

const clip = (source: string, size: string, sound: boolean): string[] => [
  ...['-f', 'lavfi', '-i', `${source}=size=${size}:rate=25`],
  ...(sound ? ['-f', 'lavfi', '-i', 'sine=frequency=330:duration=3'] : []),
  ...['-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  ...(sound ? ['-c:a', 'aac'] : []),
  ...['-movflags', '+faststart', '-f', 'mp4'],
];

/**
 * What the demo partner and merchant find in their library: short clips of ffmpeg's test
 * patterns (landscape and portrait, some with a tone), a piece of music and a sticker, so that a
 * mixed-cut or a clip can be tried at once. Made by ffmpeg here, never downloaded.
 */
const RECIPES: Recipe[] = [
  {
    name: '示例-测试图.mp4',
    type: 'video',
    contentType: 'video/mp4',
    args: clip('testsrc2', '1280x720', true),
  },
  {
    name: '示例-彩条.mp4',
    type: 'video',
    contentType: 'video/mp4',
    args: clip('smptehdbars', '1280x720', false),
  },
  {
    name: '示例-渐变.mp4',
    type: 'video',
    contentType: 'video/mp4',
    args: clip('gradients', '1280x720', false),
  },
  {
    name: '示例-竖屏.mp4',
    type: 'video',
    contentType: 'video/mp4',
    args: clip('testsrc', '720x1280', true),
  },
  {
    name: '示例-音乐.mp3',
    type: 'bgm',
    contentType: 'audio/mpeg',
    args: [
      ...['-f', 'lavfi', '-i', "aevalsrc='0.2*sin(2*PI*(220+110*floor(mod(t,4)))*t)':d=12"],
      ...['-c:a', 'libmp3lame', '-b:a', '96k', '-f', 'mp3'],
    ],
  },
  {
    name: '示例-贴纸.png',
    type: 'sticker',
    contentType: 'image/png',
    args: ['-f', 'lavfi', '-i', 'color=c=orange:size=240x240', '-frames:v', '1', '-f', 'image2'],
  },
];

/** The demo users with a library (docs/domain.md §2: partners and merchants). */
const OWNERS = ['partner', 'merchant'];

/**
 * Puts the demo media into the demo partner's and merchant's libraries (group
 * {@link DEMO_MEDIA_GROUP}), through the same checks an upload passes (`resource/add`: real type,
 * probe, poster). Run once, right after the demo data is seeded. Without ffmpeg it logs why and
 * leaves the libraries empty: the rest of the demo works.
 */
export async function seedDemoMedia(
  ctx: AppContext,
  log: { info(message: string): void; warn(message: string): void },
): Promise<void> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'demo-media-'));
  try {
    // All at once: most of a fresh start's time, and each ffmpeg run uses about one core.
    const files = await Promise.all(
      RECIPES.map(async (recipe, i) => {
        const file = path.join(dir, `${i}${path.extname(recipe.name)}`);
        await run('ffmpeg', ['-loglevel', 'error', '-y', ...recipe.args, file]);
        return file;
      }),
    );
    // The owners side by side (each library in its own order): the checks' probes and posters
    // are most of the rest.
    const addLibrary = async (username: string) => {
      const owner = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirst();
      if (!owner) return;
      const now = ctx.now();
      const group = await ctx.db
        .insertInto('resource_groups')
        .values({ owner_id: owner.id, name: DEMO_MEDIA_GROUP, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [i, recipe] of RECIPES.entries()) {
        const bytes = await fsp.readFile(files[i]!);
        const storageKey = newFileKey('uploads', now);
        await ctx.storage.put(storageKey, bytes, {
          contentType: recipe.contentType,
          filename: recipe.name,
        });
        const uploadKey = newUploadKey();
        await insertUpload(ctx.db, {
          uploadKey,
          ownerId: owner.id,
          type: recipe.type,
          name: recipe.name,
          size: bytes.length,
          storageKey,
          method: 'form',
          s3UploadId: null,
          state: 'uploaded',
          createdAt: now,
          expiresAt: now,
          finishedAt: now,
        });
        await addResource(ctx, owner.id, {
          upload_key: uploadKey,
          name: recipe.name,
          group_id: Number(group.id),
        });
      }
    };
    await Promise.all(OWNERS.map(addLibrary));
    log.info(`demo media added to the libraries of ${OWNERS.join(', ')}`);
  } catch (error) {
    log.warn(`demo media not added (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
