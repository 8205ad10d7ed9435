/**
 * The draft dialog machine (src/machines/draft-dialog.ts) through the real AI tool page's tool
 * dialog, against a hand-written oracle: the machine's shortest paths only propose event
 * sequences; each step is a click or typing on the page (Add tool, a row's Edit, the key field,
 * Save, Cancel) or a fake endpoint of the AI tool area settling; the state that follows is looked
 * up in TABLE below and what a person sees there is asserted: the dialog and its title, the key's
 * message after a refused check (and no call), the busy Save, the server's refusal, and after a
 * save the list loaded afresh.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { aiToolAddBody, aiToolEditBody, type AiTool } from '../../src/api/contract/ai-tools';
import { provideArea } from '../../src/app/actors/areas';
import {
  aiToolArea,
  NEW_TOOL,
  toolBody,
  toolDraftOf,
  type AiToolEndpoints,
  type ToolDraft,
} from '../../src/app/actors/ai-tools';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import { createDraftDialogMachine, type DraftDialogEvent } from '../../src/machines/draft-dialog';
import AiToolPage from '../../src/views/ai-tool/ai-tool-page';
import { replyError, userFixture } from './fixtures';
import { type EventPath, fakeEndpoints, person, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId) => enUS[id];

const ROW: AiTool = {
  id: 7,
  key: 'video_copy',
  name: 'Video copy',
  model: '',
  template: 'About ${topic}',
  variables: ['topic'],
  unit: 'call',
  cost: '0.05',
  status: 'enabled',
  created_at: 0,
  updated_at: 0,
};
const REFUSAL = 'The key k_new is already used by another tool';
/** What "OPEN new" leaves in the form: a person opened it and typed all but the key. */
const NEW_DRAFT: ToolDraft = { ...NEW_TOOL, name: 'New tool', template: 'Hello' };

// ---------------------------------------------------------------------------------------------
// The oracle, written from the rules (docs/domain.md §23, docs/decisions.md "Forms: one way").
// `invalid`: the draft breaks the contract (no key), nothing shown yet; `checked`: a Save was
// refused by the check, the key's message shows; `refused`: the server's sentence shows.

const TABLE: Record<string, string> = {
  'closed OPEN new': 'editing new invalid',
  'closed OPEN row': 'editing row valid',
  'editing new invalid SUBMIT': 'editing new checked',
  'editing new invalid SET key': 'editing new valid',
  'editing new invalid SET clear': 'editing new invalid',
  'editing new invalid CLOSE': 'closed',
  'editing new checked SUBMIT': 'editing new checked',
  'editing new checked SET key': 'editing new valid',
  'editing new checked SET clear': 'editing new invalid',
  'editing new checked CLOSE': 'closed',
  'editing new valid SET clear': 'editing new invalid',
  'editing new valid SET key': 'editing new valid',
  'editing new valid SUBMIT': 'submitting new',
  'editing new valid CLOSE': 'closed',
  'editing row valid SET clear': 'editing row invalid',
  'editing row valid SET key': 'editing row valid',
  'editing row valid SUBMIT': 'submitting row',
  'editing row valid CLOSE': 'closed',
  'editing row invalid SUBMIT': 'editing row checked',
  'editing row invalid SET key': 'editing row valid',
  'editing row invalid SET clear': 'editing row invalid',
  'editing row invalid CLOSE': 'closed',
  'editing row checked SUBMIT': 'editing row checked',
  'editing row checked SET key': 'editing row valid',
  'editing row checked SET clear': 'editing row invalid',
  'editing row checked CLOSE': 'closed',
  'submitting new done.actor.submit': 'saved',
  'submitting row done.actor.submit': 'saved',
  'submitting new error.actor.submit': 'refused new',
  'submitting row error.actor.submit': 'refused row',
  'refused new SUBMIT': 'submitting new',
  'refused row SUBMIT': 'submitting row',
  'refused new SET key': 'editing new valid',
  'refused row SET key': 'editing row valid',
  'refused new SET clear': 'editing new invalid',
  'refused row SET clear': 'editing row invalid',
  'refused new CLOSE': 'closed',
  'refused row CLOSE': 'closed',
  'saved OPEN new': 'editing new invalid',
  'saved OPEN row': 'editing row valid',
};

// ---------------------------------------------------------------------------------------------

type Event = DraftDialogEvent<ToolDraft>;
const label = (e: Event) => {
  if (e.type === 'OPEN') return `OPEN ${e.target === null ? 'new' : 'row'}`;
  if (e.type === 'SET') return `SET ${e.value ? 'key' : 'clear'}`;
  return e.type.replace(/^xstate\./, '');
};

const machine = createDraftDialogMachine<ToolDraft>('aiToolDialog', {
  empty: NEW_TOOL,
  schema: (target) => (target === null ? aiToolAddBody : aiToolEditBody),
  toBody: toolBody,
});
const EVENTS: Event[] = [
  { type: 'OPEN', draft: NEW_DRAFT, target: null },
  { type: 'OPEN', draft: toolDraftOf(ROW), target: ROW.id },
  { type: 'SET', field: 'key', value: 'k_new' },
  { type: 'SET', field: 'key', value: '' },
  { type: 'SUBMIT' },
  { type: 'CLOSE' },
  { type: 'xstate.done.actor.submit', output: ROW } as unknown as Event,
  { type: 'xstate.error.actor.submit', error: replyError(REFUSAL) } as unknown as Event,
];
const proposed = getShortestPaths(machine, {
  events: (s) => EVENTS.filter((e) => s.can(e as never)),
  serializeState: (s, e) =>
    JSON.stringify([
      s.value,
      s.context.target === null ? 'new' : 'row',
      s.context.draft.key === '',
      Object.keys(s.context.errors).length > 0,
      s.context.error !== null,
      e ? label(e as Event) : '',
    ]),
}) as EventPath<Event>[];

viewPathHooks();

async function setup() {
  const endpoints = fakeEndpoints();
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () =>
          userFixture({ accountId: 1, user_type: 0, username: 'admin', name: 'Admin' }),
        ),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  let loads = 0;
  const never = () => new Promise<never>(() => {});
  const live: AiToolEndpoints = {
    getAiTools: async () => {
      loads += 1;
      return { list: [ROW], total: 1 };
    },
    addAiTool: endpoints.endpoint('addAiTool') as never,
    editAiTool: endpoints.endpoint('editAiTool') as never,
    deleteAiTool: never,
    tryAiTool: never,
    getIndustries: async () => ({ list: [], total: 0 }),
    addIndustry: never,
    editIndustry: never,
    deleteIndustry: never,
    getScripts: async () => ({ list: [], total: 0 }),
    addScript: never,
    editScript: never,
    deleteScript: never,
  };
  provideArea(actors, aiToolArea, live);
  renderAt(actors, <AiToolPage />, '/ai-tool/ai-tool-index');
  const user = person();
  await vi.waitFor(() => screen.getByRole('cell', { name: 'video_copy' }), { timeout: 5000 });
  const dialog = () => {
    const open = screen.queryAllByRole('dialog').filter(isOpen);
    expect(open.length).toBeLessThanOrEqual(1);
    return open[0] ?? null;
  };
  /** Replaces a field's value (one input event: paste after select-all). */
  const put = async (name: RegExp, value: string) => {
    const input = within(dialog()!).getByLabelText(name, { selector: 'input, textarea' }) as
      HTMLInputElement | HTMLTextAreaElement;
    // An empty field is emptied by typing a character and deleting it (a change a person makes).
    if (!input.value) await user.type(input, 'x');
    await user.clear(input);
    if (value) {
      input.focus();
      await user.paste(value);
    }
  };
  return { endpoints, user, dialog, put, loads: () => loads, dispose: () => actors.dispose() };
}
type World = Awaited<ReturnType<typeof setup>>;

const sees = (world: World, saves: () => number) => {
  const check = (state: string) => async () => {
    // Loaded once, and again after each save (the area's reload).
    expect(world.loads()).toBe(1 + saves());
    const dialog = world.dialog();
    if (state === 'closed' || state === 'saved') {
      expect(dialog).toBeNull();
      return;
    }
    expect(dialog).not.toBeNull();
    const w = within(dialog!);
    const target = state.includes(' new') ? 'new' : 'row';
    w.getByRole('heading', {
      name:
        target === 'new'
          ? text('aiTool.addTitle')
          : text('aiTool.editTitle').replace('{name}', ROW.name),
    });
    const keyMessage = w.queryByText(text('validation.aiToolKey'));
    expect(keyMessage !== null, 'the key’s message').toBe(state.endsWith('checked'));
    const refusal = w.queryByRole('alert');
    if (state.startsWith('refused')) expect(refusal?.textContent).toContain(REFUSAL);
    else expect(refusal).toBeNull();
    const save = w.getByRole('button', { name: text('form.save') });
    expect(save.getAttribute('aria-busy')).toBe(String(state.startsWith('submitting')));
  };
  const states = ['closed', ...new Set(Object.values(TABLE))];
  return Object.fromEntries(states.map((s) => [s, check(s)]));
};

describe('the tool dialog (draft dialog machine)', () => {
  uiPaths({
    oracle: { initial: 'closed', transitions: TABLE, label },
    proposed,
    run: async (_, walk) => {
      const world = await setup();
      let saves = 0;
      let about: 'new' | 'row' = 'row';
      const click = (name: string) =>
        world.user.click(within(world.dialog()!).getByRole('button', { name }));
      await walk({
        sees: sees(world, () => saves),
        exec: async (event) => {
          switch (event.type) {
            case 'OPEN':
              about = event.target === null ? 'new' : 'row';
              if (about === 'row') {
                return world.user.click(
                  screen.getByRole('button', { name: `${text('aiTool.edit')} video_copy` }),
                );
              }
              await world.user.click(screen.getByRole('button', { name: text('aiTool.add') }));
              await world.put(/^Name/, NEW_DRAFT.name);
              return world.put(/^Prompt template/, NEW_DRAFT.template);
            case 'SET':
              return world.put(/^Key/, String(event.value));
            case 'SUBMIT':
              return click(text('form.save'));
            case 'CLOSE':
              return click(text('form.cancel'));
            default: {
              const done = (event as { type: string }).type.includes('.done.');
              if (done) saves += 1;
              return world.endpoints.settle(
                about === 'new' ? 'addAiTool' : 'editAiTool',
                done ? 'done' : 'error',
                done ? ROW : replyError(REFUSAL),
              );
            }
          }
        },
      });
      world.dispose();
    },
    timeout: 120_000,
  });
});
