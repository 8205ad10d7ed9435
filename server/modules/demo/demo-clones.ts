import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ResourceType } from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import { newFileKey } from '../../platform/storage/keys';
import { issue, runMoney } from '../ledger';
import { addResource } from '../resources';
import { DEMO_MEDIA_GROUP } from './demo-media';
import { newUploadKey } from '../uploads';
import { insertUpload } from '../uploads';
import { makeConsentClip, makeContinuousTake, makeVoiceSample } from '../digital-human';
import { addImageClone, IMAGE_CLONE_COST } from '../digital-human';
import { addVoiceClone, VOICE_CLONE_COST } from '../digital-human';

/** The demo users who get a ready image clone and voice clone (docs/domain.md §2). */
const OWNERS = [
  { username: 'partner', image: '示例形象', voice: '示例声音' },
  { username: 'merchant', image: '店长形象', voice: '店长声音' },
];

interface Made {
  name: string;
  type: ResourceType;
  contentType: string;
  file: string;
}

/**
 * The demo's clones: for the demo partner and merchant, a 30 s continuous-take video, a consent
 * clip and a 12 s voice sample put into their library (the demo group, through `resource/add`'s
 * checks), one `image_clone` and one `digital_voice` granted (the demo's opening balance, through
 * the ledger) and spent on an image clone and a voice clone submitted through the real calls:
 * the job worker trains them (ready a few seconds after the first start). Run right after the
 * demo media. Without ffmpeg or espeak-ng it logs why and adds nothing.
 */
export async function seedDemoClones(
  ctx: AppContext,
  log: { info(message: string): void; warn(message: string): void },
): Promise<void> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'demo-clones-'));
  try {
    const made: Made[] = [
      {
        name: '示例-数字人源视频.mp4',
        type: 'video',
        contentType: 'video/mp4',
        file: path.join(dir, 'take.mp4'),
      },
      {
        name: '示例-授权视频.mp4',
        type: 'video',
        contentType: 'video/mp4',
        file: path.join(dir, 'consent.mp4'),
      },
      {
        name: '示例-声音样本.mp3',
        type: 'audio',
        contentType: 'audio/mpeg',
        file: path.join(dir, 'sample.mp3'),
      },
    ];
    await Promise.all([
      makeContinuousTake(made[0].file, { size: '480x640' }),
      makeConsentClip(made[1].file),
      makeVoiceSample(made[2].file),
    ]);
    const admin = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('user_type', '=', 0)
      .orderBy('id')
      .executeTakeFirst();
    for (const owner of OWNERS) {
      const user = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', owner.username)
        .executeTakeFirst();
      if (!user) continue;
      const ownerId = Number(user.id);
      const group = await ctx.db
        .selectFrom('resource_groups')
        .select('id')
        .where('owner_id', '=', ownerId)
        .where('name', '=', DEMO_MEDIA_GROUP)
        .executeTakeFirst();
      const ids: number[] = [];
      for (const media of made) {
        const now = ctx.now();
        const bytes = await fsp.readFile(media.file);
        const storageKey = newFileKey('uploads', now);
        await ctx.storage.put(storageKey, bytes, {
          contentType: media.contentType,
          filename: media.name,
        });
        const uploadKey = newUploadKey();
        await insertUpload(ctx.db, {
          uploadKey,
          ownerId,
          type: media.type,
          name: media.name,
          size: bytes.length,
          storageKey,
          method: 'form',
          s3UploadId: null,
          state: 'uploaded',
          createdAt: now,
          expiresAt: now,
          finishedAt: now,
        });
        const resource = await addResource(ctx, ownerId, {
          upload_key: uploadKey,
          name: media.name,
          ...(group ? { group_id: Number(group.id) } : {}),
        });
        ids.push(resource.id);
      }
      await runMoney(ctx, async (trx) => {
        const now = ctx.now();
        for (const [asset, change] of [
          ['image_clone', IMAGE_CLONE_COST],
          ['digital_voice', VOICE_CLONE_COST],
        ] as const) {
          await issue(trx, {
            userId: ownerId,
            asset,
            type: 'admin_adjust',
            change,
            memo: { id: 'memo.demoOpeningBalance' },
            operatorId: admin ? Number(admin.id) : null,
            now,
          });
        }
      });
      await addImageClone(ctx, ownerId, {
        name: owner.image,
        video_id: ids[0],
        consent_video_id: ids[1],
        tier: 'standard',
      });
      await addVoiceClone(ctx, ownerId, { name: owner.voice, gender: 'female', audio_id: ids[2] });
    }
    log.info(`demo clones submitted for ${OWNERS.map((o) => o.username).join(', ')}`);
  } catch (error) {
    log.warn(`demo clones not added (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
