/**
 * The system init area (/account/system-init, admin; docs/domain.md §System init): one actor per
 * settings group on the group machine, each loading its own group and owning its save, clear,
 * file upload and connection test. A save's notice is the area's.
 */
import { createActor, fromPromise } from 'xstate';
import { INIT_CONFIG_GROUPS, type InitConfigGroup } from '../../api/contract/init-config';
import * as api from '../../api/init-config';
import { initConfigGroupMachine } from '../../machines/init-config-group';
import { defineArea, lazyActors } from './areas';
import { toast, whenChanged } from './factories';

export interface InitConfigEndpoints {
  getInitConfig: typeof api.getInitConfig;
  setInitConfig: typeof api.setInitConfig;
  uploadCert: typeof api.uploadCert;
  testInitConfig: typeof api.testInitConfig;
}

function groupActor(e: InitConfigEndpoints, group: InitConfigGroup) {
  const machine = initConfigGroupMachine.provide({
    actors: {
      load: fromPromise(async ({ input, signal }) => {
        const config = await e.getInitConfig(input.group, { signal });
        return config[input.group] ?? {};
      }),
      save: fromPromise(async ({ input }) => (await e.setInitConfig(input))[group] ?? {}),
      upload: fromPromise(
        async ({ input }) => (await e.uploadCert(input.kind, input.file)).wechat_pay ?? {},
      ),
      // The result is shown beside the button: no error notice for a failing vendor.
      test: fromPromise(({ input }) => e.testInitConfig(input.group)),
    },
  });
  return createActor(machine, { input: { group } });
}
export type InitConfigGroupActor = ReturnType<typeof groupActor>;

function createInitConfigActors(e: InitConfigEndpoints) {
  const makers = Object.fromEntries(
    INIT_CONFIG_GROUPS.map((group) => [group, () => groupActor(e, group)]),
  ) as Record<InitConfigGroup, () => InitConfigGroupActor>;
  return lazyActors(makers, () =>
    Object.fromEntries(
      INIT_CONFIG_GROUPS.map((group) => [
        group,
        (actor: InitConfigGroupActor) => [
          whenChanged(
            actor,
            (s) => s.context.saves,
            () => toast('success', 'initConfig.saved'),
          ),
        ],
      ]),
    ),
  );
}

export type InitConfigActors = ReturnType<typeof createInitConfigActors>;

export const initConfigArea = defineArea<InitConfigEndpoints, InitConfigActors>({
  key: 'initConfig',
  live: () => ({
    getInitConfig: api.getInitConfig,
    setInitConfig: api.setInitConfig,
    uploadCert: api.uploadCert,
    testInitConfig: api.testInitConfig,
  }),
  create: (endpoints) => createInitConfigActors(endpoints),
});
