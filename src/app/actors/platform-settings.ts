/**
 * The settings and prices area (/account/settings, docs/domain.md §12 "Settings and prices"):
 * the page's machine with the real endpoints; a save is announced by a notice.
 */
import { createActor, fromPromise } from 'xstate';
import * as api from '../../api/system';
import { platformSettingsMachine } from '../../machines/platform-settings';
import { defineArea } from './areas';
import { toast } from './factories';

export interface PlatformSettingsEndpoints {
  getPlatformConfig: typeof api.getPlatformConfig;
  setPlatformConfig: typeof api.setPlatformConfig;
}

function createPlatformSettingsActors(e: PlatformSettingsEndpoints) {
  const form = createActor(
    platformSettingsMachine.provide({
      actors: {
        load: fromPromise(({ signal }) => e.getPlatformConfig({ signal })),
        save: fromPromise(async ({ input }) => {
          const config = await e.setPlatformConfig(input.values);
          toast('success', 'platformSettings.saved');
          return config;
        }),
      },
    }),
  ).start();
  return {
    form,
    stop() {
      form.stop();
    },
  };
}

export const platformSettingsArea = defineArea({
  key: 'platform-settings',
  live: (): PlatformSettingsEndpoints => ({
    getPlatformConfig: api.getPlatformConfig,
    setPlatformConfig: api.setPlatformConfig,
  }),
  create: createPlatformSettingsActors,
});
