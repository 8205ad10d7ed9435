/**
 * The video templates page (src/views/digital-human/video-template-page.tsx, docs/domain.md §10
 * "Video templates"), by hand (the dialog's paths: dh-templates-view.test.tsx): the cards and what
 * they show, the filters asking the server, the layout checked like the server with each message
 * under its field, a file picked from the library and a refusal of it, the admin's page (the
 * platform's templates, a built-in name kept) and delete after a confirmation.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { replyError } from './fixtures';
import { viewPathHooks } from './ui-paths';
import { flush } from './view-harness';
import { MINE, PICTURE, PLATFORM } from './dh-template-fixtures';
import { NAME, REFUSAL, SAVE, setup, text } from './dh-templates-world';

viewPathHooks();

test('the cards show what each template is; Edit and Delete only on one’s own; the filters ask the server', async () => {
  const w = await setup();
  const mine = within(w.card(MINE.name)!);
  const platform = within(w.card(PLATFORM.name)!);
  expect(mine.getByText(text('dhTemplates.scopeMine'))).toBeTruthy();
  expect(platform.getByText(text('dhTemplates.scopePlatform'))).toBeTruthy();
  // The layout drawn, named by what it shows.
  mine.getByRole('img', {
    name: text('dhTemplates.frameLabel', {
      ratio: '9:16',
      x: 60,
      y: 5,
      width: 35,
      height: 95,
      subtitle: 85,
    }),
  });
  expect(mine.getByText('calm.mp3')).toBeTruthy();
  mine.getByLabelText(text('dhTemplates.demoOf', { name: MINE.name }));
  mine.getByRole('img', { name: text('dhTemplates.coverOf', { name: MINE.name }) });
  expect(
    platform.queryByRole('button', { name: text('dhTemplates.editOf', { name: PLATFORM.name }) }),
  ).toBeNull();
  expect(
    platform.queryByRole('button', { name: text('dhTemplates.deleteOf', { name: PLATFORM.name }) }),
  ).toBeNull();
  expect(w.queries).toEqual([{}]);
  fireEvent.change(screen.getByRole('combobox', { name: text('dhTemplates.scope') }), {
    target: { value: 'mine' },
  });
  await flush();
  fireEvent.change(screen.getByRole('combobox', { name: text('dhTemplates.ratio') }), {
    target: { value: '9:16' },
  });
  await flush();
  expect(w.queries).toEqual([{}, { scope: 'mine' }, { scope: 'mine', ratio: '9:16' }]);
  expect(w.card(PLATFORM.name)).toBeUndefined();
  expect(w.card(MINE.name)).toBeDefined();
  w.dispose();
});

test('the layout is checked like the server: a rectangle out of the frame and a wrong colour are refused under their fields, nothing sent', async () => {
  const w = await setup();
  await w.user.click(screen.getByRole('button', { name: text('dhTemplates.new') }));
  await w.put(NAME, 'Wide');
  await w.put(text('dhTemplates.avatarX'), '80');
  await w.put(text('dhTemplates.backgroundColour'), 'red');
  await w.put(text('dhTemplates.subtitleSize'), '30');
  await w.user.click(within(w.dialog()!).getByRole('button', { name: SAVE }));
  const d = within(w.dialog()!);
  expect(d.getByText(enUS['validation.templateAvatar'])).toBeTruthy();
  expect(d.getByText(enUS['validation.color'])).toBeTruthy();
  expect(d.getByText(enUS['validation.templateSubtitleSize'])).toBeTruthy();
  expect(w.endpoints.calls).toEqual([]);
  // The preview draws the draft as typed.
  d.getByRole('img', { name: new RegExp(`the presenter at 80 %`) });
  await w.put(text('dhTemplates.avatarX'), '60');
  await w.put(text('dhTemplates.backgroundColour'), '#112233');
  await w.put(text('dhTemplates.subtitleSize'), '5');
  await w.user.click(d.getByRole('button', { name: SAVE }));
  expect(w.endpoints.calls.map((c) => c.input)).toEqual([
    [
      {
        name: 'Wide',
        ratio: '16:9',
        layout: {
          avatar: { x: 0.6, y: 0.05, width: 0.35, height: 0.95 },
          subtitle: { y: 0.85, size: 0.05, color: '#FFFFFF' },
          background: '#112233',
        },
        background_image_id: null,
        background_image_url: null,
        cover_id: null,
        cover_url: null,
        demo_id: null,
        music_id: null,
      },
    ],
  ]);
  w.dispose();
});

test('a background picture is picked from the library; a refusal of it shows, and picking another sends again', async () => {
  const w = await setup();
  await w.user.click(screen.getByRole('button', { name: text('dhTemplates.new') }));
  await w.put(NAME, 'Beach');
  const field = text('dhTemplates.backgroundImage');
  await w.user.click(
    within(w.dialog()!).getByRole('button', { name: text('dhTemplates.pickFile', { field }) }),
  );
  const picker = await vi.waitFor(() => screen.getByTestId('resource-picker'));
  await vi.waitFor(() => within(picker).getByText('beach.png'));
  await w.user.click(
    within(picker).getByRole('checkbox', {
      name: text('resources.select' as MessageId, { name: 'beach.png' }),
    }),
  );
  await w.user.click(within(picker).getByRole('button', { name: text('taskForm.pickConfirm') }));
  await flush();
  const d = () => within(w.dialog()!);
  expect(
    within(d().getByTestId('template-file-backgroundImage')).getByText('beach.png'),
  ).toBeTruthy();
  await w.user.click(d().getByRole('button', { name: SAVE }));
  expect(w.endpoints.calls.at(-1)!.input).toMatchObject([{ background_image_id: PICTURE.id }]);
  await w.endpoints.settle('addDhTemplate', 'error', replyError(REFUSAL));
  expect(d().getByText(REFUSAL)).toBeTruthy();
  // Removed after the refusal: the same draft, sent again without it.
  await w.user.click(d().getByRole('button', { name: text('dhTemplates.removeFile', { field }) }));
  await w.user.click(d().getByRole('button', { name: SAVE }));
  expect(w.endpoints.calls.at(-1)!.input).toMatchObject([
    { name: 'Beach', background_image_id: null },
  ]);
  w.dispose();
});

test('the admin manages the platform’s templates: no scope filter, a built-in one keeps its translated name unless renamed, and it is deleted after a confirmation', async () => {
  const w = await setup({ admin: true });
  expect(screen.queryByRole('combobox', { name: text('dhTemplates.scope') })).toBeNull();
  screen.getByRole('button', { name: text('dhTemplates.newPlatform') });
  const card = within(w.card(PLATFORM.name)!);
  await w.user.click(
    card.getByRole('button', { name: text('dhTemplates.editOf', { name: PLATFORM.name }) }),
  );
  const d = within(w.dialog()!);
  expect(d.getByText(text('dhTemplates.builtinName'))).toBeTruthy();
  // Pictures are uploaded platform images: no library pickers.
  expect(d.queryByTestId('template-file-demo')).toBeNull();
  await w.put(text('dhTemplates.subtitleColour'), '#00FF00');
  await w.user.click(d.getByRole('button', { name: SAVE }));
  const [body] = w.endpoints.calls.at(-1)!.input as [Record<string, unknown>];
  expect(body).not.toHaveProperty('name');
  expect(body).toMatchObject({ id: PLATFORM.id, layout: { subtitle: { color: '#00FF00' } } });
  await w.endpoints.settle('editDhTemplate', 'done', null);
  await w.user.click(
    within(w.card(PLATFORM.name)!).getByRole('button', {
      name: text('dhTemplates.deleteOf', { name: PLATFORM.name }),
    }),
  );
  const confirm = within(w.dialog()!);
  confirm.getByRole('heading', { name: text('dhTemplates.deleteTitle', { name: PLATFORM.name }) });
  await w.user.click(confirm.getByRole('button', { name: text('dhTemplates.delete') }));
  expect(w.endpoints.calls.at(-1)).toEqual({
    name: 'deleteDhTemplates',
    input: [{ ids: [PLATFORM.id] }],
  });
  const before = w.loads();
  await w.endpoints.settle('deleteDhTemplates', 'done', { count: 1 });
  await flush();
  expect(w.loads()).toBe(before + 1);
  expect(screen.getByText(text('dhTemplates.deleted', { name: PLATFORM.name }))).toBeTruthy();
  await act(async () => {});
  w.dispose();
});
