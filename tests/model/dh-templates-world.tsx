/**
 * The world of the video templates page's view tests (dh-templates-view.test.tsx: the dialog's
 * paths; dh-templates-page-view.test.tsx: the grid, filters, layout checks, files, the admin;
 * dh-templates-axe.test.tsx): the real page over the templates area with fake endpoints, a
 * merchant's (a platform template and one of its own) or the admin's.
 */
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { DhTemplateListQuery } from '../../src/api/contract/dh-templates';
import { provideArea } from '../../src/app/actors/areas';
import {
  dhTemplatesArea,
  type DhTemplatesEndpoints,
} from '../../src/app/actors/digital-human-templates';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import VideoTemplatePage from '../../src/views/digital-human/video-template-page';
import { MINE, PLATFORM, templatesEndpoints } from './dh-template-fixtures';
import { userFixture } from './fixtures';
import { fakeEndpoints, person } from './ui-paths';
import { shopAuth } from './video-task-fixtures';
import { appActors, isOpen, renderAt } from './view-harness';

export const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

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
  const live: DhTemplatesEndpoints = {
    ...templatesEndpoints(
      options.admin ? [{ ...PLATFORM, editable: true }] : [PLATFORM, MINE],
      queries,
    ),
    addDhTemplate: endpoints.endpoint('addDhTemplate') as never,
    editDhTemplate: endpoints.endpoint('editDhTemplate') as never,
    deleteDhTemplates: endpoints.endpoint('deleteDhTemplates') as never,
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
