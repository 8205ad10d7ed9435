import { describe, expect, it } from 'vitest';
import { startAppWorker } from '../../server/app-jobs';
import { seedDemoClones } from '../../server/modules/demo/demo-clones';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { waitImageClone, waitVoiceClone } from './dh-clone-fixtures';
import { defineCloneJobSuite } from './dh-clones-jobs-suite';
import { createTestApp } from './helpers';

defineCloneJobSuite('embedded');

describe('the demo clones (SQLite, embedded queue)', () => {
  it(
    'gives the demo partner and merchant a ready image clone and voice clone, their balances as seeded',
    { timeout: 120_000 },
    async () => {
      const t = await createTestApp('sqlite', {
        config: { videoRenderPreset: 'ultrafast' },
        jobs: { timing: { pollMs: 20 } },
      });
      try {
        const balances = async (who: string) => {
          const user = await t.user(who);
          return [Number(user.image_clone_count), Number(user.voice_clone_count)];
        };
        const before = { partner: await balances('partner'), merchant: await balances('merchant') };
        const warnings: string[] = [];
        await seedDemoClones(t.app.ctx, { info: () => undefined, warn: (m) => warnings.push(m) });
        expect(warnings).toEqual([]);
        startAppWorker(t.app.ctx, { everyMs: 200 });
        for (const who of ['partner', 'merchant']) {
          const token = await t.login(who);
          const images = await t.db
            .selectFrom('dh_image_clones')
            .select('id')
            .where('owner_id', '=', Number((await t.user(who)).id))
            .execute();
          const voices = await t.db
            .selectFrom('dh_voice_clones')
            .select('id')
            .where('owner_id', '=', Number((await t.user(who)).id))
            .execute();
          expect([images.length, voices.length]).toEqual([1, 1]);
          expect((await waitImageClone(t, token, Number(images[0].id), 90_000)).status).toBe(
            'ready',
          );
          expect((await waitVoiceClone(t, token, Number(voices[0].id), 90_000)).status).toBe(
            'ready',
          );
          expect(await balances(who)).toEqual(before[who as 'partner' | 'merchant']);
        }
        expect(await reconcile(t.db)).toEqual([]);
      } finally {
        await t.close();
      }
    },
  );
});
