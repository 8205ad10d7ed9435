/**
 * The "from scripts" picker (src/views/shared/script-picker.tsx, docs/domain.md §23) as a person
 * uses it: opened for one kind it asks for that kind's scripts; an industry or a keyword asks
 * again with them (the other filters kept); Use hands the script's text to the field and closes;
 * opened again for another kind, it asks for that kind, keeping the industry chosen last.
 */
import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { expect, test, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Script, ScriptKind } from '../../src/api/contract/ai-tools';
import type { ScriptQuery } from '../../src/api/ai-tools';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { scriptPickerArea } from '../../src/app/actors/script-picker';
import enUS from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import { ScriptPicker } from '../../src/views/shared/script-picker';
import { appendScript } from '../../src/views/shared/script-text';
import { userFixture } from './fixtures';
import { person, settle, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

viewPathHooks();

const SCRIPTS: Script[] = [
  { id: 1, industry_id: 11, industry_name: 'Cafés', kind: 'copy', content: 'Fresh coffee daily.' },
  { id: 2, industry_id: 12, industry_name: 'Bakeries', kind: 'copy', content: 'Warm bread.' },
  { id: 3, industry_id: 11, industry_name: 'Cafés', kind: 'title', content: 'Coffee time' },
].map((s) => ({ ...s, created_at: 0, updated_at: 0 }) as Script);

/** A field with its picker, as the forms put them side by side. */
function Field(props: { kind: ScriptKind }) {
  const [text, setText] = useState('Hello.');
  return (
    <>
      <textarea aria-label="Text" value={text} onChange={(e) => setText(e.target.value)} />
      <ScriptPicker
        kind={props.kind}
        field="Text"
        onPick={(script) => setText((t) => appendScript(t, script))}
      />
    </>
  );
}

test('a script of the kind, found by industry and keyword, goes into the field', async () => {
  const auth = createActor(
    authMachine.provide({
      actors: { getUserInfo: fromPromise(async () => userFixture({ user_type: 2 })) },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  const asked: ScriptQuery[] = [];
  provideArea(actors, scriptPickerArea, {
    getIndustries: async () => ({
      list: [
        {
          id: 10,
          name: 'Food',
          sort: 0,
          parent_id: 0,
          children: [
            { id: 11, name: 'Cafés', sort: 0, parent_id: 10, children: [] },
            { id: 12, name: 'Bakeries', sort: 0, parent_id: 10, children: [] },
          ],
        },
      ],
      total: 1,
    }),
    getScripts: async (query) => {
      asked.push(query);
      const list = SCRIPTS.filter(
        (s) =>
          s.kind === query.kind &&
          (!query.industry_id || String(s.industry_id) === query.industry_id) &&
          s.content.toLowerCase().includes((query.keyword ?? '').toLowerCase()),
      );
      return { list, total: list.length };
    },
  });
  const view = renderAt(actors, <Field kind="copy" />, '/digital-human/create-video');
  const user = person();
  await user.click(screen.getByRole('button', { name: 'From scripts: Text' }));
  const dialog = await screen.findByRole('dialog', { name: enUS['scripts.titleCopy'] });
  for (let i = 0; i < 3; i++) await settle();
  expect(asked.at(-1)).toMatchObject({ kind: 'copy', industry_id: '', keyword: '', page: 1 });
  await vi.waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(2));

  await user.selectOptions(
    within(dialog).getByRole('combobox', { name: enUS['scripts.industry'] }),
    'Food / Bakeries',
  );
  await vi.waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(1));
  expect(asked.at(-1)).toMatchObject({ kind: 'copy', industry_id: '12' });
  expect(within(dialog).getByRole('listitem').textContent).toContain('Warm bread.');

  await user.type(
    within(dialog).getByRole('textbox', { name: enUS['scripts.keyword'] }),
    'xyz{Enter}',
  );
  await vi.waitFor(() => within(dialog).getByText(enUS['scripts.empty']));
  expect(asked.at(-1)).toMatchObject({ kind: 'copy', industry_id: '12', keyword: 'xyz' });
  await user.clear(within(dialog).getByRole('textbox', { name: enUS['scripts.keyword'] }));
  await user.click(within(dialog).getByRole('button', { name: enUS['filter.search'] }));
  await user.click(await within(dialog).findByRole('button', { name: 'Use: Warm bread.' }));
  await vi.waitFor(() => expect(isOpen(dialog)).toBe(false));
  expect((screen.getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement).value).toBe(
    'Hello.\nWarm bread.',
  );
  view.unmount();

  // Another kind's picker: that kind, the industry of last time kept.
  renderAt(actors, <Field kind="title" />, '/matrix-distribution/release-plan');
  await user.click(screen.getByRole('button', { name: 'From scripts: Text' }));
  await screen.findByRole('dialog', { name: enUS['scripts.titleTitle'] });
  for (let i = 0; i < 3; i++) await settle();
  expect(asked.at(-1)).toMatchObject({ kind: 'title', industry_id: '12', page: 1 });
  areasOf(actors).reset();
  actors.dispose();
}, 30_000);
