/**
 * The create forms' presets and duplicates (docs/domain.md §9 "Presets, batches and previews"):
 * a task-presets actor per kind (the mixed-cut drawer's, the clip editor's) with the real
 * endpoints. Saving takes the form's body as it is (refused with the form's own message when the
 * form is not complete); a source loaded (a preset applied, a task duplicated) opens the form and
 * fills its draft.
 */
import { createActor, fromPromise } from 'xstate';
import * as presetsApi from '../../api/video-task-presets';
import { clipDraftOf, mixedDraftOf } from './task-draft-of';
import { taskPresetsMachine } from '../../machines/task-presets';
import { defineArea, lazyActors } from './areas';
import { whenChanged } from './factories';
import { checkClipDraft, checkMixedDraft, videoTaskFormsArea } from './video-task-forms';

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
    const forms = () => areas.get(videoTaskFormsArea);
    // The body a kind's form makes now (null: not complete).
    const bodyOf = {
      mixed: () => checkMixedDraft(forms().mixed.getSnapshot().context.draft).body,
      clip: () => checkClipDraft(forms().clip.getSnapshot().context.draft).body,
    };
    const presetsOf = (kind: 'mixed' | 'clip') =>
      createActor(
        taskPresetsMachine.provide({
          actors: {
            list: fromPromise(({ signal }) => e.getVideoTaskPresets(kind, { signal, quiet: true })),
            save: fromPromise(async ({ input }) => {
              const body = bodyOf[kind]();
              if (!body) throw new IncompleteForm();
              return e.saveVideoTaskPreset({ name: input.name, body });
            }),
            preset: fromPromise(({ input, signal }) => e.getVideoTaskPreset(input.id, { signal })),
            task: fromPromise(({ input, signal }) => e.getVideoTaskSource(input.id, { signal })),
            remove: fromPromise(({ input }) => e.deleteVideoTaskPreset(input.id)),
          },
        }),
      );
    return lazyActors({ mixed: () => presetsOf('mixed'), clip: () => presetsOf('clip') }, () => ({
      mixed: (presets) => {
        // The list is read each time the form opens (and now if it is open already).
        if (forms().mixed.getSnapshot().matches('open')) presets.send({ type: 'LOAD' });
        return [
          whenChanged(
            forms().mixed,
            (s) => s.matches('open'),
            () => presets.send({ type: 'LOAD' }),
          ),
          whenChanged(
            presets,
            (s) => s.context.applied,
            () => {
              const source = presets.getSnapshot().context.source;
              if (!source || source.kind !== 'mixed') return;
              forms().mixed.send({ type: 'OPEN' });
              forms().mixed.send({ type: 'EDIT', patch: mixedDraftOf(source) });
            },
          ),
        ];
      },
      // The clip editor is a page, open from the start: its list is read when first asked for
      // (the editor's bar, or a clip task duplicated from the clip list) and after each change.
      clip: (presets) => {
        presets.send({ type: 'LOAD' });
        return [
          whenChanged(
            presets,
            (s) => s.context.applied,
            () => {
              const source = presets.getSnapshot().context.source;
              if (!source || source.kind !== 'clip') return;
              forms().clip.send({ type: 'EDIT', patch: clipDraftOf(source) });
            },
          ),
        ];
      },
    }));
  },
});
