/**
 * The caller's own settings on /user/setting (docs/domain.md §12 "The caller's own settings"):
 * the settings loaded (load machine) and the form's submission (form-submit machine); a save
 * reloads them and is announced by a notice.
 */
import type { EditUserConfigBody } from '../../api/contract/user-config';
import * as api from '../../api/user-config';
import { defineArea, lazyActors } from './areas';
import { loadActor, submitActor, toast, whenChanged } from './factories';

export interface UserConfigEndpoints {
  getUserConfig: typeof api.getUserConfig;
  editUserConfig: typeof api.editUserConfig;
}

function createUserConfigActors(e: UserConfigEndpoints) {
  return lazyActors(
    {
      info: () => loadActor('userConfig', (signal) => e.getUserConfig({ signal })),
      edit: () =>
        submitActor(async (body: EditUserConfigBody) => {
          const saved = await e.editUserConfig(body);
          toast('success', 'userConfig.saved');
          return saved;
        }),
    },
    (_, started) => ({
      edit: (edit) => [
        whenChanged(
          edit,
          (s) => s.matches('done'),
          () => {
            started('info')?.send({ type: 'RELOAD' });
            edit.send({ type: 'RESET' });
          },
        ),
      ],
    }),
  );
}

export const userConfigArea = defineArea({
  key: 'user-config',
  live: (): UserConfigEndpoints => ({
    getUserConfig: api.getUserConfig,
    editUserConfig: api.editUserConfig,
  }),
  create: createUserConfigActors,
});
