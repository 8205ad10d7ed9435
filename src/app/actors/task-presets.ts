/**
 * The mixed-cut form's presets and duplicates (docs/domain.md §9 "Presets, batches and
 * previews"): one task-presets actor with the real endpoints. Saving takes the form's body as it
 * is (refused with the form's own message when the form is not complete); a source loaded (a
 * preset applied, a task duplicated) opens the form and fills its draft.
 */
import { createActor, fromPromise } from 'xstate';
import * as presetsApi from '../../api/video-task-presets';
import { mixedDraftOf } from './task-draft-of';
import { taskPresetsMachine } from '../../machines/task-presets';
import { defineArea, lazyActors } from './areas';
import { whenChanged } from './factories';
import { checkMixedDraft, videoTaskFormsArea } from './video-task-forms';

export interface TaskPresetsEndpoints {
  saveVideoTaskPreset: typeof presetsApi.saveVideoTaskPreset;
  getVideoTaskPresets: typeof presetsApi.getVideoTaskPresets;
  getVideoTaskPreset: typeof presetsApi.getVideoTaskPreset;
  deleteVideoTaskPreset: typeof presetsApi.deleteVideoTaskPreset;
  getVideoTaskSource: typeof presetsApi.getVideoTaskSource;
}

/** A refusal before any call: the form is not complete (its message id, as a reply's). */
class IncompleteForm extends Error {
  readonly msg = 'taskPresets.incomplete';
}

export const taskPresetsArea = defineArea({
  key: 'taskPresets',
  live: (): TaskPresetsEndpoints => ({
    saveVideoTaskPreset: presetsApi.saveVideoTaskPreset,
    getVideoTaskPresets: presetsApi.getVideoTaskPresets,
    getVideoTaskPreset: presetsApi.getVideoTaskPreset,
    deleteVideoTaskPreset: presetsApi.deleteVideoTaskPreset,
    getVideoTaskSource: presetsApi.getVideoTaskSource,
  }),
  create: (e: TaskPresetsEndpoints, areas) => {
    const form = () => areas.get(videoTaskFormsArea).mixed;
    return lazyActors(
      {
        mixed: () =>
          createActor(
            taskPresetsMachine.provide({
              actors: {
                list: fromPromise(({ signal }) =>
                  e.getVideoTaskPresets('mixed', { signal, quiet: true }),
                ),
                save: fromPromise(async ({ input }) => {
                  const body = checkMixedDraft(form().getSnapshot().context.draft).body;
                  if (!body) throw new IncompleteForm();
                  return e.saveVideoTaskPreset({ name: input.name, body });
                }),
                preset: fromPromise(({ input, signal }) =>
                  e.getVideoTaskPreset(input.id, { signal }),
                ),
                task: fromPromise(({ input, signal }) =>
                  e.getVideoTaskSource(input.id, { signal }),
                ),
                remove: fromPromise(({ input }) => e.deleteVideoTaskPreset(input.id)),
              },
            }),
          ),
      },
      () => ({
        mixed: (presets) => [
          // The list is read each time the form opens.
          whenChanged(
            form(),
            (s) => s.matches('open'),
            () => presets.send({ type: 'LOAD' }),
          ),
          whenChanged(
            presets,
            (s) => s.context.applied,
            () => {
              const source = presets.getSnapshot().context.source;
              if (!source || source.kind !== 'mixed') return;
              form().send({ type: 'OPEN' });
              form().send({ type: 'EDIT', patch: mixedDraftOf(source) });
            },
          ),
        ],
      }),
    );
  },
});
