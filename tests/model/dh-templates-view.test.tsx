/**
 * The video templates page (src/views/digital-human/video-template-page.tsx over the templates
 * area, docs/domain.md §10 "Video templates"). The template dialog's machine (the customer dialog
 * machine with the template form's fields, src/app/actors/dh-template-form.ts) through the real
 * page, against a hand-written oracle: the machine's shortest paths only propose event sequences;
 * each step is a click or typing on the page (New template, a card's Edit, the name field, Save,
 * Cancel, a change after a refusal) or the fake endpoint settling; the state that follows is looked
 * up in TABLE and what a person sees there is asserted (the dialog and its title, the name's
 * message and nothing sent, the busy Save, the server's sentence, the grid loaded again after a
 * save). By hand: dh-templates-page-view.test.tsx; axe: dh-templates-axe.test.tsx.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { DhTemplate } from '../../src/api/contract/dh-templates';
import {
  templateFields,
  type TemplatePayload,
  type TemplateValues,
} from '../../src/app/actors/dh-template-form';
import enUS from '../../src/i18n/en-US';
import {
  createCustomerDialogMachine,
  type CustomerDialogEvent,
} from '../../src/machines/customers/customer-dialog';
import { replyError } from './fixtures';
import { type EventPath, uiPaths, viewPathHooks } from './ui-paths';
import { MINE } from './dh-template-fixtures';
import { NAME, REFUSAL, SAVE, setup, text, type World } from './dh-templates-world';

// ---------------------------------------------------------------------------------------------
// The oracle, written from the rules (docs/domain.md §10 "Video templates", docs/architecture.md
// "Forms"). `invalid`: the draft breaks the contract (no name), nothing shown yet; `checked`: a
// Save was refused by the check, the name's message shows; `failed`: the server's sentence shows.

const TABLE: Record<string, string> = {
  'closed OPEN new': 'editing new invalid',
  'closed OPEN row': 'editing row valid',
  'editing new invalid SUBMIT': 'editing new checked',
  'editing new invalid SET name': 'editing new valid',
  'editing new invalid SET clear': 'editing new invalid',
  'editing new invalid CLOSE': 'closed',
  'editing new checked SUBMIT': 'editing new checked',
  'editing new checked SET name': 'editing new valid',
  'editing new checked SET clear': 'editing new invalid',
  'editing new checked CLOSE': 'closed',
  'editing new valid SET clear': 'editing new invalid',
  'editing new valid SET name': 'editing new valid',
  'editing new valid SUBMIT': 'submitting new',
  'editing new valid CLOSE': 'closed',
  'editing row valid SET clear': 'editing row invalid',
  'editing row valid SET name': 'editing row valid',
  'editing row valid SUBMIT': 'submitting row',
  'editing row valid CLOSE': 'closed',
  'editing row invalid SUBMIT': 'editing row checked',
  'editing row invalid SET name': 'editing row valid',
  'editing row invalid SET clear': 'editing row invalid',
  'editing row invalid CLOSE': 'closed',
  'editing row checked SUBMIT': 'editing row checked',
  'editing row checked SET name': 'editing row valid',
  'editing row checked SET clear': 'editing row invalid',
  'editing row checked CLOSE': 'closed',
  'submitting new done.actor.submit': 'saved',
  'submitting row done.actor.submit': 'saved',
  'submitting new error.actor.submit': 'failed new',
  'submitting row error.actor.submit': 'failed row',
  // A change after the refusal edits the same draft (the name typed again).
  'failed new BACK': 'editing new valid',
  'failed row BACK': 'editing row valid',
  'failed new CLOSE': 'closed',
  'failed row CLOSE': 'closed',
  'saved OPEN new': 'editing new invalid',
  'saved OPEN row': 'editing row valid',
};

// ---------------------------------------------------------------------------------------------

type Event = CustomerDialogEvent<DhTemplate, TemplatePayload, TemplateValues>;
const label = (e: Event) => {
  if (e.type === 'OPEN') return `OPEN ${e.target === null ? 'new' : 'row'}`;
  if (e.type === 'SET') return `SET ${e.value ? 'name' : 'clear'}`;
  return e.type.replace(/^xstate\./, '');
};

const machine = createCustomerDialogMachine<DhTemplate, TemplatePayload, unknown, TemplateValues>(
  'dhTemplateDialog',
  templateFields,
);
const EVENTS: Event[] = [
  { type: 'OPEN', target: null },
  { type: 'OPEN', target: MINE },
  { type: 'SET', field: 'name', value: 'Beach' },
  { type: 'SET', field: 'name', value: '' },
  { type: 'SUBMIT' },
  { type: 'BACK' },
  { type: 'CLOSE' },
  { type: 'xstate.done.actor.submit', output: null } as unknown as Event,
  { type: 'xstate.error.actor.submit', error: replyError(REFUSAL) } as unknown as Event,
];
const proposed = getShortestPaths(machine, {
  events: (s) => EVENTS.filter((e) => s.can(e as never)),
  serializeState: (s, e) =>
    JSON.stringify([
      s.value,
      s.context.target === null ? 'new' : 'row',
      s.context.form?.name === '',
      Object.keys(s.context.errors).length > 0,
      s.context.error !== null,
      e ? label(e as Event) : '',
    ]),
}) as EventPath<Event>[];

viewPathHooks();

viewPathHooks();

describe('the template dialog’s paths', () => {
  let world: World;
  let saves = 0;
  uiPaths<Event>({
    oracle: { initial: 'closed', transitions: TABLE, label },
    proposed,
    timeout: 30_000,
    run: async (_path, walk) => {
      world = await setup();
      saves = 0;
      const loadsAtStart = world.loads();
      const sees = (state: string) => async () => {
        // The grid (and the form's cards, if shown) load again after each save only.
        expect(world.loads(), 'loads').toBe(loadsAtStart + saves);
        const d = world.dialog();
        if (state === 'closed' || state === 'saved') {
          expect(d).toBeNull();
          if (state === 'saved') expect(screen.getByText(text('dhTemplates.saved'))).toBeTruthy();
          return;
        }
        expect(d).not.toBeNull();
        const inDialog = within(d!);
        const row = state.includes(' row');
        inDialog.getByRole('heading', {
          name: row
            ? text('dhTemplates.editTitle', { name: MINE.name })
            : text('dhTemplates.newTitle'),
        });
        const message = inDialog.queryByText(enUS['validation.templateName']);
        expect(message !== null, 'the name’s message').toBe(state.endsWith('checked'));
        const refusal = inDialog.queryByText(REFUSAL);
        expect(refusal !== null, 'the refusal').toBe(state.startsWith('failed'));
        const save = inDialog.getByRole('button', { name: SAVE });
        expect(save.getAttribute('aria-busy'), 'Save busy').toBe(
          state.startsWith('submitting') ? 'true' : 'false',
        );
        if (state.startsWith('submitting')) {
          const name = row ? 'editDhTemplate' : 'addDhTemplate';
          expect(world.endpoints.waiting()).toEqual([name]);
          const [body] = world.endpoints.calls.at(-1)!.input as [Record<string, unknown>];
          // The name as the field shows it; the rest the row's (an edit) or a new one's.
          const typed = (inDialog.getByRole('textbox', { name: NAME }) as HTMLInputElement).value;
          expect(body).toMatchObject(
            row
              ? { id: MINE.id, name: typed, ratio: '9:16', music_id: 31, demo_id: 30 }
              : { name: typed, ratio: '16:9', music_id: null },
          );
        } else {
          expect(world.endpoints.waiting()).toEqual([]);
        }
        if (state.includes('invalid') || state.includes('checked')) {
          expect((inDialog.getByRole('textbox', { name: NAME }) as HTMLInputElement).value).toBe(
            '',
          );
        }
      };
      const states = [
        'closed',
        'saved',
        ...['new', 'row'].flatMap((w) => [
          `editing ${w} invalid`,
          `editing ${w} checked`,
          `editing ${w} valid`,
          `submitting ${w}`,
          `failed ${w}`,
        ]),
      ];
      await walk({
        exec: async (event) => {
          const d = () => within(world.dialog()!);
          switch (event.type) {
            case 'OPEN':
              if (event.target === null) {
                return world.user.click(
                  screen.getByRole('button', { name: text('dhTemplates.new') }),
                );
              }
              return world.user.click(
                within(world.card(MINE.name)!).getByRole('button', {
                  name: text('dhTemplates.editOf', { name: MINE.name }),
                }),
              );
            case 'SET':
              return world.put(NAME, String(event.value));
            case 'BACK':
              return world.put(NAME, 'Beach');
            case 'SUBMIT':
              return world.user.click(d().getByRole('button', { name: SAVE }));
            case 'CLOSE':
              return world.user.click(d().getByRole('button', { name: enUS['form.cancel'] }));
            default: {
              const name = world.endpoints.waiting()[0]!;
              if ((event.type as string) === 'xstate.done.actor.submit') {
                saves += 1;
                return world.endpoints.settle(name, 'done', null);
              }
              return world.endpoints.settle(name, 'error', replyError(REFUSAL));
            }
          }
        },
        sees: Object.fromEntries(states.map((s) => [s, sees(s)])),
      });
      world.dispose();
    },
  });
});
