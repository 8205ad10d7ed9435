/**
 * The clip editor's presets and duplicates (docs/domain.md §9 "Presets, batches and previews";
 * src/views/creation/task-presets-bar.tsx on /creation/mixedshear over the clip task-presets
 * actor): the presets machine's paths are walked by tests/model/task-presets-view.test.tsx on the
 * mixed-cut form; this drives the clip editor's wiring as a merchant would: its clip presets are
 * listed, a preset fills the editor (the video and the part kept), the editor is saved as a clip
 * preset with the body it would add, and a clip task duplicated fills it. A video that is no
 * longer the person's is left out, and the part kept with it.
 */
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type {
  VideoTaskPresetSaveBody,
  VideoTaskSource,
} from '../../src/api/contract/video-task-presets';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { clipDraftOf } from '../../src/app/actors/task-draft-of';
import { taskPresetsArea, type TaskPresetsEndpoints } from '../../src/app/actors/task-presets';
import {
  videoTaskFormsArea,
  type VideoTaskFormsEndpoints,
} from '../../src/app/actors/video-task-forms';
import { Providers } from '../../src/app/boot/providers';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import MixedshearPage from '../../src/views/creation/mixedshear-page';
import { clipResource, shopAuth } from './video-task-fixtures';
import { person, viewPathHooks } from './ui-paths';
import { appActors } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const BEACH = clipResource(1, 'Beach', 3);
const clipBody = (name: string, start: number, end: number) => ({
  kind: 'clip',
  name,
  ratio: '1:1',
  resolution: '720p',
  fit: 'blur',
  fps: 25,
  bitrate: 800,
  music_volume: 5,
  keep_original_sound: true,
  resource_id: 1,
  trim: { start, end },
});
const TEASER: VideoTaskSource = {
  kind: 'clip',
  body: clipBody('Teaser look', 0.5, 2),
  resources: [BEACH],
};
const EARLIER: VideoTaskSource = {
  kind: 'clip',
  body: clipBody('Beach again', 1, 3),
  resources: [BEACH],
};

function setup() {
  const listed: string[] = [];
  const saved: VideoTaskPresetSaveBody[] = [];
  const presetEndpoints: TaskPresetsEndpoints = {
    getVideoTaskPresets: async (kind) => {
      listed.push(kind);
      return {
        list: [{ id: 5, name: 'Teaser', kind: 'clip', created_at: 1, updated_at: 1 }],
        total: 1,
      };
    },
    getVideoTaskPreset: async (id) => {
      expect(id).toBe(5);
      return { ...TEASER, id: 5, name: 'Teaser' };
    },
    saveVideoTaskPreset: async (body) => {
      saved.push(body);
      return { id: 6, name: body.name, kind: 'clip', created_at: 2, updated_at: 2 };
    },
    deleteVideoTaskPreset: async () => ({ id: 5 }),
    getVideoTaskSource: async (id) => {
      expect(id).toBe(42);
      return EARLIER;
    },
  };
  const formEndpoints: VideoTaskFormsEndpoints = {
    estimateVideoTask: () => new Promise(() => {}),
    addVideoTask: () => new Promise(() => {}),
    getResources: async () => ({ list: [BEACH], total: 1 }),
    getGroups: async () => ({ list: [], ungrouped: 1 }),
    getReadyVoices: async () => ({ list: [], total: 0 }),
    previewVideoTask: () => new Promise(() => {}),
    getVideoPreview: () => new Promise(() => {}),
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, videoTaskFormsArea, formEndpoints);
  provideArea(actors, taskPresetsArea, presetEndpoints);
  const router = createMemoryRouter(
    [{ path: '/creation/mixedshear', element: <MixedshearPage /> }],
    { initialEntries: ['/creation/mixedshear'] },
  );
  render(
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>,
  );
  const draft = () => areasOf(actors).get(videoTaskFormsArea).clip.getSnapshot().context.draft;
  const presets = () => areasOf(actors).get(taskPresetsArea).clip;
  const page = () => within(screen.getByRole('region', { name: text('route.mixedshear') }));
  return { listed, saved, draft, presets, page, dispose: () => actors.dispose() };
}

viewPathHooks();

describe('the clip editor’s presets', () => {
  it('lists the clip presets, applies one, saves the editor as one and fills it from a task', async () => {
    const world = setup();
    const user = person();
    const choose = () => world.page().getByRole('combobox', { name: text('taskPresets.choose') });
    await vi.waitFor(() =>
      expect(within(choose()).getByRole('option', { name: 'Teaser' })).toBeTruthy(),
    );
    expect(world.listed).toEqual(['clip']);

    // Use preset: the video, the part kept and the look come from it.
    await user.selectOptions(choose(), '5');
    await user.click(world.page().getByRole('button', { name: text('taskPresets.apply') }));
    await vi.waitFor(() => expect(world.draft().name).toBe('Teaser look'));
    expect(world.draft()).toMatchObject({
      video: { id: 1 },
      start: '0.5',
      end: '2',
      ratio: '1:1',
      fit: 'blur',
    });
    expect(
      (
        world.page().getByRole('textbox', {
          name: new RegExp(`^${text('taskForm.name')}`),
        }) as HTMLInputElement
      ).value,
    ).toBe('Teaser look');

    // Save as preset: the clip body the editor would add, under the name typed.
    await user.click(world.page().getByRole('button', { name: text('taskPresets.save') }));
    // The name field offers the chosen preset's name (saving under it replaces it): another.
    await user.tripleClick(world.page().getByRole('textbox', { name: text('taskPresets.name') }));
    await user.paste('Square teaser');
    await user.click(world.page().getByRole('button', { name: text('taskPresets.saveConfirm') }));
    await vi.waitFor(() => expect(world.saved).toHaveLength(1));
    expect(world.saved[0]).toMatchObject({
      name: 'Square teaser',
      body: { kind: 'clip', name: 'Teaser look', resource_id: 1, trim: { start: 0.5, end: 2 } },
    });
    await vi.waitFor(() => expect(world.listed).toEqual(['clip', 'clip']));

    // A clip task duplicated (the clip list's Duplicate sends this, then opens the editor).
    await act(async () => {
      world.presets().send({ type: 'DUPLICATE', id: 42 });
    });
    await vi.waitFor(() => expect(world.draft().name).toBe('Beach again'));
    expect(world.draft()).toMatchObject({ video: { id: 1 }, start: '1', end: '3' });
    world.dispose();
  }, 60_000);

  it('leaves out a video that is no longer the person’s, and the part kept with it', () => {
    const draft = clipDraftOf({ ...TEASER, resources: [] });
    expect(draft.video).toBeNull();
    expect(draft.start).toBe('0');
    expect(draft.end).toBe('');
    expect(draft.name).toBe('Teaser look');
    expect(clipDraftOf(TEASER)).toMatchObject({ video: { id: 1 }, start: '0.5', end: '2' });
  });
});
