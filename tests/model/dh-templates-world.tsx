/**
 * The world of the video templates page's view tests (dh-templates-view.test.tsx: the dialog's
 * paths; dh-templates-page-view.test.tsx: the grid, filters, layout checks, files, the admin;
 * dh-templates-axe.test.tsx): the real page over the templates area with fake endpoints, a
 * merchant's (a platform template and one of its own) or the admin's.
 */
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { DhTemplate, DhTemplateListQuery } from '../../src/api/contract/dh-templates';
import type { Resource } from '../../src/api/contract/resources';
import { provideArea } from '../../src/app/actors/areas';
import {
  dhTemplatesArea,
  type DhTemplatesEndpoints,
} from '../../src/app/actors/digital-human-templates';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import VideoTemplatePage from '../../src/views/digital-human/video-template-page';
import { userFixture } from './fixtures';
import { fakeEndpoints, person } from './ui-paths';
import { shopAuth } from './video-task-fixtures';
import { appActors, isOpen, renderAt } from './view-harness';

export const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

export const LAYOUT = {
  avatar: { x: 0.6, y: 0.05, width: 0.35, height: 0.95 },
  subtitle: { y: 0.85, size: 0.045, color: '#FFFFFF' },
  background: '#1F3A5F',
};
export const template = (patch: Partial<DhTemplate>): DhTemplate => ({
  id: 2,
  name: 'Landscape 16:9',
  scope: 'platform',
  builtin: true,
  editable: false,
  ratio: '16:9',
  width: 1280,
  height: 720,
  layout: LAYOUT,
  background_image: null,
  cover_image: null,
  demo: null,
  music: null,
  cover: null,
  created_at: null,
  ...patch,
});
export const PLATFORM = template({});
export const MINE = template({
  id: 7,
  name: 'My studio',
  scope: 'mine',
  builtin: false,
  editable: true,
  ratio: '9:16',
  width: 720,
  height: 1280,
  music: { resource_id: 31, image_url: null, name: 'calm.mp3', url: '/f/31', poster: null },
  demo: { resource_id: 30, image_url: null, name: 'demo.mp4', url: '/f/30', poster: '/f/30p' },
  cover: '/f/30p',
});
export const PICTURE: Resource = {
  id: 44,
  type: 'image',
  name: 'beach.png',
  group_id: null,
  url: '/f/44',
  cover: '/f/44p',
  content_type: 'image/png',
  size: 100,
  duration: null,
  width: 64,
  height: 64,
  codec: null,
  created_at: 0,
};
export const REFUSAL = 'Picture 44 was not found: choose an image of your library';

const adminAuth = () =>
  createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () =>
          userFixture({ accountId: 1, user_type: 0, username: 'admin', name: 'Admin' }),
        ),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();

export async function setup(options: { admin?: boolean } = {}) {
  const endpoints = fakeEndpoints();
  const actors = appActors({ auth: options.admin ? adminAuth() : shopAuth() });
  const queries: DhTemplateListQuery[] = [];
  const never = () => new Promise<never>(() => {});
  const live: DhTemplatesEndpoints = {
    getDhTemplates: async (query = {}) => {
      queries.push(query);
      const all = options.admin ? [{ ...PLATFORM, editable: true }] : [PLATFORM, MINE];
      return {
        list: all.filter(
          (x) =>
            (!query.scope || x.scope === query.scope) && (!query.ratio || x.ratio === query.ratio),
        ),
      };
    },
    addDhTemplate: endpoints.endpoint('addDhTemplate') as never,
    editDhTemplate: endpoints.endpoint('editDhTemplate') as never,
    deleteDhTemplates: endpoints.endpoint('deleteDhTemplates') as never,
    addDhTemplateFromVideo: never,
    getResources: async () => ({ list: [PICTURE], total: 1 }),
    getGroups: async () => ({ list: [], ungrouped: 0 }),
    uploadPlatformImage: endpoints.endpoint('uploadPlatformImage') as never,
  };
  provideArea(actors, dhTemplatesArea, live);
  renderAt(actors, <VideoTemplatePage />, '/digital-human/video-template');
  const user = person();
  await vi.waitFor(() => screen.getByTestId('dh-templates'), { timeout: 5000 });
  const dialog = () => {
    const open = screen
      .queryAllByRole('dialog')
      .filter(isOpen)
      .filter((d) => d.getAttribute('data-testid') !== 'resource-picker');
    expect(open.length).toBeLessThanOrEqual(1);
    return open[0] ?? null;
  };
  /** Replaces a field's value (a paste after clearing it). */
  const put = async (name: string, value: string) => {
    const input = within(dialog()!).getByRole('textbox', { name }) as HTMLInputElement;
    if (!input.value) await user.type(input, 'x');
    await user.clear(input);
    if (value) {
      input.focus();
      await user.paste(value);
    }
  };
  const card = (name: string) =>
    screen.getAllByRole('article').find((a) => within(a).queryByRole('heading', { name }));
  return {
    endpoints,
    user,
    dialog,
    put,
    card,
    queries,
    loads: () => queries.length,
    dispose: () => actors.dispose(),
  };
}
export type World = Awaited<ReturnType<typeof setup>>;

export const NAME = text('dhTemplates.name');
export const SAVE = text('dhTemplates.save');
