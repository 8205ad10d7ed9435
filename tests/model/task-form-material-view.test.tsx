/**
 * The mixed-cut form's material beyond the shots (src/views/creation/task-form-parts.tsx,
 * task-form-narration.tsx, src/views/shared/resource-picker-dialog.tsx), driven as a merchant
 * would: stickers picked through the picker, which lists every type the place takes together
 * (stickers and images) and narrows to one type or back; the subtitles' font chosen among the
 * caller's fonts or the platform's; Create task sends both. In both locales (the type filter's
 * "any of them" names the types in the reader's language).
 */
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Resource, ResourceListParams } from '../../src/api/contract/resources';
import type { VideoTaskBody, VideoTaskEstimate } from '../../src/api/contract/video-tasks';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import {
  videoTaskFormsArea,
  type VideoTaskFormsEndpoints,
} from '../../src/app/actors/video-task-forms';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import zhCN from '../../src/i18n/zh-CN';
import { MixedTaskFormDrawer, NewMixedTaskButton } from '../../src/views/creation/task-form';
import { clipResource, shopAuth } from './video-task-fixtures';
import { appActors, isOpen, renderAt } from './view-harness';

const CATALOGUES = { 'en-US': enUS, 'zh-CN': zhCN } as const;
type Locale = keyof typeof CATALOGUES;

const BEACH = clipResource(1, 'Beach', 3);
const still = (id: number, type: 'sticker' | 'image' | 'font', name: string): Resource => ({
  ...clipResource(id, name, 0),
  type,
  duration: null,
  content_type: type === 'font' ? 'font/ttf' : 'image/png',
  cover: type === 'font' ? null : `/api/v1/files/${id}-poster?sig=s`,
  codec: null,
});
const RED = still(20, 'sticker', 'Red star');
const PHOTO = still(21, 'image', 'Shop photo');
const SERIF = still(30, 'font', 'Serif Bold');
const LIBRARY = [BEACH, RED, PHOTO, SERIF];

afterEach(() => {
  cleanup();
  localeStore.set('en-US');
});

describe.each(['en-US', 'zh-CN'] as const)(
  'the mixed-cut form’s stickers and font (%s)',
  (locale: Locale) => {
    const msg = CATALOGUES[locale];
    const text = (id: MessageId, values: Record<string, string | number> = {}) =>
      msg[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

    test(
      'picks a sticker and an image from one list, narrows by type, and sends them with the font',
      { timeout: 60_000 },
      async () => {
        localeStore.set(locale);
        const adds: VideoTaskBody[] = [];
        const queries: Partial<ResourceListParams>[] = [];
        const endpoints: VideoTaskFormsEndpoints = {
          estimateVideoTask: async (): Promise<VideoTaskEstimate> => ({
            combinations: 1,
            outputs: 1,
            unit_cost: '0.10',
            cost: '0.10',
            balance: '10.00',
            duration_min: 3,
            duration_max: 3,
          }),
          addVideoTask: async (body) => {
            adds.push(body);
            return { id: 41 };
          },
          previewVideoTask: () => new Promise(() => {}),
          getVideoPreview: () => new Promise(() => {}),
          // The library as the server filters it: one type, or any of several.
          getResources: async (query) => {
            queries.push(query);
            const list = LIBRARY.filter((r) =>
              query.type ? r.type === query.type : (query.types ?? []).includes(r.type),
            );
            return { list, total: list.length };
          },
          getGroups: async () => ({ list: [], ungrouped: 0 }),
          getReadyVoices: async () => ({ list: [], total: 0 }),
        };
        const actors = appActors({ auth: shopAuth() });
        provideArea(actors, videoTaskFormsArea, endpoints);
        renderAt(
          actors,
          <>
            <NewMixedTaskButton />
            <MixedTaskFormDrawer />
          </>,
          '/creation/mixed-task',
        );
        const user = userEvent.setup();
        await user.click(await screen.findByRole('button', { name: text('taskForm.new') }));
        const open = () => screen.getAllByRole('dialog').filter(isOpen);
        const drawer = () => within(open().find((d) => d.dataset.testid === 'mixed-task-form')!);
        const area = areasOf(actors).get(videoTaskFormsArea);
        act(() => {
          area.mixed.send({
            type: 'EDIT',
            patch: {
              groups: [{ key: 1, shots: [BEACH], duration: '' }],
              count: '1',
              name: 'Stickers',
            },
          });
        });

        // The font: the platform's by default; the caller's fonts (only fonts asked) besides.
        const font = drawer().getByRole('combobox', { name: text('taskForm.subtitleFont') });
        await vi.waitFor(() =>
          expect(
            within(font)
              .getAllByRole('option')
              .map((o) => o.textContent),
          ).toEqual([text('taskForm.platformFont'), 'Serif Bold']),
        );
        expect(queries).toContainEqual({ type: 'font', page: 1, limit: 100 });
        expect((font as HTMLSelectElement).value).toBe('');
        await user.selectOptions(font, '30');
        await user.type(
          drawer().getByRole('textbox', { name: text('taskForm.subtitleText') }),
          'Hello.',
        );

        // The stickers' picker lists stickers and images together.
        await user.click(
          drawer().getByRole('button', { name: text('clipEditor.pickStickers', { max: 10 }) }),
        );
        const picker = await vi.waitFor(() => {
          const el = open().find((d) => d.dataset.testid === 'resource-picker');
          expect(el, 'the picker').toBeDefined();
          return within(el!);
        });
        const names = () =>
          within(picker.getByRole('list', { name: text('taskForm.pickerList') }))
            .getAllByRole('listitem')
            .map((li) => li.textContent);
        await vi.waitFor(() => expect(names()).toEqual(['Red star', 'Shop photo']));
        expect(queries.at(-1)).toMatchObject({ types: ['sticker', 'image'] });
        expect(queries.at(-1)).not.toHaveProperty('type');
        const type = picker.getByRole('combobox', { name: text('resources.type') });
        const any = text('taskForm.pickerAnyType', {
          types: new Intl.ListFormat(locale, { type: 'disjunction' }).format([
            text('uploads.typeSticker'),
            text('uploads.typeImage'),
          ]),
        });
        expect(
          within(type)
            .getAllByRole('option')
            .map((o) => o.textContent),
        ).toEqual([any, text('uploads.typeSticker'), text('uploads.typeImage')]);
        // One type: only images; tick the photo, then all again and tick the sticker.
        await user.selectOptions(type, 'image');
        await vi.waitFor(() => expect(names()).toEqual(['Shop photo']));
        expect(queries.at(-1)).toMatchObject({ type: 'image' });
        await user.click(
          picker.getByRole('checkbox', { name: text('resources.select', { name: 'Shop photo' }) }),
        );
        await user.selectOptions(type, '');
        await vi.waitFor(() => expect(names()).toEqual(['Red star', 'Shop photo']));
        await user.click(
          picker.getByRole('checkbox', { name: text('resources.select', { name: 'Red star' }) }),
        );
        await user.click(picker.getByRole('button', { name: text('taskForm.pickConfirm') }));

        // Each sticker gets its place fields; Create task sends them and the font.
        await vi.waitFor(() =>
          expect(
            drawer().getByRole('group', {
              name: text('clipEditor.stickerPlace', { name: 'Red star' }),
            }),
          ).toBeTruthy(),
        );
        await user.click(drawer().getByRole('button', { name: text('taskForm.submit') }));
        await vi.waitFor(() => expect(adds).toHaveLength(1));
        expect(adds[0]).toMatchObject({
          kind: 'mixed',
          subtitles: { text: 'Hello.', font: 30 },
          stickers: [
            { resource_id: 21, x: 0.05, y: 0.05, width: 0.2 },
            { resource_id: 20, x: 0.05, y: 0.05, width: 0.2 },
          ],
        });
      },
    );
  },
);
