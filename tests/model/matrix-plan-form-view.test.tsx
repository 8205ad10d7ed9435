/**
 * The release plan form (src/machines/plan-form.ts) on /matrix-distribution/release-plan, driven
 * as a merchant would, against hand-written oracles: its `form` region (FORM: a refused draft
 * takes the person to the first invalid field, the preview shows its first posts in the plan's
 * time zone, a save closes the form and reloads the list) and its `ai` region (AI: the
 * demonstration label, added titles, a refused request), each step a click or a fake endpoint
 * settling; and the form filled by hand. The page's other parts: matrix-plans-view.test.tsx.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { PlanPreview } from '../../src/api/contract/matrix-plans';
import { checkPlanDraft } from '../../src/app/actors/matrix-plans';
import enUS from '../../src/i18n/en-US';
import { fill, text } from './messages';
import { createPlanFormMachine, type PlanFormEvent } from '../../src/machines/plan-form';
import { replyError } from './fixtures';
import { pathName, rowsUsed, runUiPath, viewPathHooks } from './ui-paths';
import { REFUSAL, SHOP, setup, type World, paths, eventLabel } from './matrix-plans-world';

// Here, not in the shared world module: a module runs once per worker (isolate: false).
viewPathHooks();

const FORM: Record<string, string> = {
  'closed OPEN': 'blank',
  'blank PREVIEW': 'refused',
  'blank CLOSE': 'closed',
  'blank FILL': 'filled',
  'refused FILL': 'filled',
  'refused CLOSE': 'closed',
  'filled PREVIEW': 'previewing',
  'filled CLOSE': 'closed',
  'previewing done.preview': 'previewed',
  'previewing error.preview': 'previewRefused',
  'previewRefused PREVIEW': 'previewing',
  // The refusal stays said until the next preview.
  'previewRefused FILL': 'previewRefused',
  'previewRefused CLOSE': 'closed',
  'previewed SAVE': 'saving',
  'previewed FILL': 'filled',
  'previewed PREVIEW': 'previewing',
  'previewed CLOSE': 'closed',
  'saving done.save': 'closed',
  'saving error.save': 'saveRefused',
  'saveRefused SAVE': 'saving',
  'saveRefused FILL': 'previewRefused',
  'saveRefused PREVIEW': 'previewing',
  'saveRefused CLOSE': 'closed',
};

const FILLED = {
  name: 'Launch',
  accountIds: [1],
  media: [{ type: 'resource' as const, id: 31, name: 'Clip 1' }],
  titles: ['Hello world'],
  timezone: 'America/New_York',
};
const body = (name: string) => ({
  name,
  account_ids: [1],
  media: [{ type: 'resource', id: 31 }],
  titles: ['Hello world'],
  topics: [],
  start_date: '2026-11-30',
  end_date: '2026-12-06',
  slots: ['09:00', '18:00'],
  daily_max: 2,
  timezone: 'America/New_York',
});
const PREVIEW: PlanPreview = {
  total: 14,
  per_account_day: 2,
  per_media: [14],
  first: [
    {
      account_id: 1,
      media: { type: 'resource', id: 31, name: 'Clip 1' },
      title: 'Hello world',
      // 09:00 on 2026-11-30 in New York (22:00 in Shanghai).
      scheduled_at: Date.UTC(2026, 10, 30, 14, 0),
    },
  ],
  starts_at: Date.UTC(2026, 10, 30, 14, 0),
  ends_at: Date.UTC(2026, 11, 6, 23, 0),
};

/** The person fills the form (`name` only, once it is filled). */
async function fillForm(w: World, name: string, whole: boolean) {
  const form = within(w.formDrawer()!);
  const nameBox = form.getByRole('textbox', { name: text('matrixPlans.name') });
  await w.user.clear(nameBox);
  await w.user.type(nameBox, name);
  if (!whole) return;
  await w.user.click(await form.findByRole('checkbox', { name: SHOP.nickname }));
  await w.user.click(form.getByRole('button', { name: text('matrixPlans.pickVideos') }));
  const picker = await screen.findByTestId('resource-picker');
  await w.user.click(
    await within(picker).findByRole('checkbox', {
      name: fill('resources.select', { name: 'Clip 1' }),
    }),
  );
  await w.user.click(within(picker).getByRole('button', { name: text('taskForm.pickConfirm') }));
  await w.user.type(
    form.getByRole('textbox', { name: text('matrixPlans.titleInput') }),
    'Hello world',
  );
  await w.user.click(form.getByRole('button', { name: text('matrixPlans.addTitle') }));
  await w.user.selectOptions(
    form.getByRole('combobox', { name: text('matrixPlans.timezone') }),
    'America/New_York',
  );
}

type FormEvent = PlanFormEvent;

/** The plan form machine on an empty draft of these slots and daily maximum. */
const formMachine = (
  slots: string[],
  dailyMax: string,
  checkImitate: (request: { title: string }) => string | null = () => null,
) =>
  createPlanFormMachine({
    fresh: () => ({
      name: '',
      accountIds: [],
      media: [],
      titles: [],
      topics: [],
      location: '',
      startDate: '2026-11-30',
      endDate: '2026-12-06',
      slots,
      dailyMax,
      timezone: 'Asia/Shanghai',
    }),
    check: checkPlanDraft,
    checkImitate,
    maxTitles: 100,
  });

describe('the create form (plan form machine, form region)', () => {
  const rows = rowsUsed();
  const machine = formMachine(['09:00', '18:00'], '2');
  type FormState = ReturnType<typeof machine.resolveState>;
  const events: FormEvent[] = [
    { type: 'OPEN' },
    { type: 'CLOSE' },
    { type: 'EDIT', patch: FILLED },
    { type: 'PREVIEW' },
    { type: 'SAVE' },
    { type: 'xstate.done.actor.preview', output: PREVIEW } as never,
    { type: 'xstate.error.actor.preview', error: replyError(REFUSAL) } as never,
    { type: 'xstate.done.actor.save', output: { id: 9, posts: 14 } } as never,
    { type: 'xstate.error.actor.save', error: replyError(REFUSAL) } as never,
  ];
  const name = (s: FormState) => {
    if (s.matches('closed')) return 'closed';
    const f = (s.value as { open: { form: string } }).open.form;
    if (f === 'previewing' || f === 'saving') return f;
    if (f === 'previewed') return s.context.error ? 'saveRefused' : 'previewed';
    if (s.context.error) return 'previewRefused';
    if (checkPlanDraft(s.context.draft).body) return 'filled';
    return s.context.checked ? 'refused' : 'blank';
  };
  const formLabel = (e: FormEvent) => (e.type === 'EDIT' ? 'FILL' : eventLabel(e));
  const list = paths<FormEvent>(
    machine,
    // Once closed, opening again starts afresh: the paths end there.
    ((s: FormState) =>
      events.filter(
        (e) => s.can(e as never) && !(e.type === 'OPEN' && s.context.completed),
      )) as never,
    ((s: FormState) => `${name(s)}:${s.context.completed}`) as never,
    FORM,
    'closed',
    formLabel,
  );
  test.each(list.map((p) => [pathName(p, formLabel), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      let filled = false;
      let current = '';
      let round = 0;
      const form = () => within(w.formDrawer()!);
      const previewButton = () => w.button(text('matrixPlans.preview'), w.formDrawer()!);
      const saveButton = () => w.button(text('matrixPlans.save'), w.formDrawer()!);
      const refusal = () => form().queryByRole('alert');
      const previewShown = () => {
        const p = within(form().getByTestId('plan-preview'));
        p.getByText(/14 posts, 2 per account per day/);
        // New York's wall clock, not Shanghai's.
        p.getByText('11/30/2026, 09:00');
        expect(p.queryByText(/22:00/)).toBeNull();
        p.getByText(SHOP.nickname);
      };
      const editing = (alert: boolean) => {
        expect(previewButton().getAttribute('aria-busy')).not.toBe('true');
        expect(saveButton().disabled).toBe(true);
        expect(form().queryByTestId('plan-preview')).toBeNull();
        if (alert) expect(refusal()!.textContent).toContain(REFUSAL);
        else expect(refusal()).toBeNull();
      };
      const sees: Record<string, () => void> = {
        closed: () => expect(w.formDrawer()).toBeNull(),
        blank: () => {
          editing(false);
          expect(form().getByRole('textbox', { name: text('matrixPlans.name') })).toHaveProperty(
            'value',
            '',
          );
        },
        refused: () => {
          editing(false);
          // The first invalid field (the name) has the focus and says why.
          const nameBox = form().getByRole('textbox', { name: text('matrixPlans.name') });
          expect(document.activeElement).toBe(nameBox);
          expect(nameBox.getAttribute('aria-invalid')).toBe('true');
          form().getByText(enUS['validation.planName']);
          form().getByText(enUS['validation.planAccounts']);
          form().getByText(enUS['validation.planMedia']);
          form().getByText(enUS['validation.planTitle']);
          expect(w.endpoints.calls).toEqual([]);
        },
        filled: () => {
          editing(false);
          expect(form().queryByText(enUS['validation.planName'])).toBeNull();
        },
        previewRefused: () => editing(true),
        previewing: () => {
          expect(previewButton().getAttribute('aria-busy')).toBe('true');
          expect(saveButton().disabled).toBe(true);
        },
        previewed: () => {
          previewShown();
          expect(saveButton().disabled).toBe(false);
          expect(refusal()).toBeNull();
        },
        saving: () => {
          previewShown();
          expect(saveButton().getAttribute('aria-busy')).toBe('true');
        },
        saveRefused: () => {
          previewShown();
          expect(saveButton().disabled).toBe(false);
          expect(refusal()!.textContent).toContain(REFUSAL);
        },
      };
      w.take();
      await runUiPath(
        path,
        {
          initial: 'closed',
          transitions: FORM,
          label: formLabel,
          sees,
          // A save reloads the list.
          effects: { take: w.take, expected: { 'saving done.save': ['plans'] } },
          exec: async (event) => {
            switch (formLabel(event)) {
              case 'OPEN':
                filled = false;
                await w.user.click(w.button(text('matrixPlans.new')));
                await vi.waitFor(() => form().getByRole('checkbox', { name: SHOP.nickname }));
                return;
              case 'CLOSE':
                return w.user.click(w.button(text('form.cancel'), w.formDrawer()!));
              case 'FILL':
                round += 1;
                current = filled ? `Launch ${round}` : 'Launch';
                await fillForm(w, current, !filled);
                filled = true;
                return;
              case 'PREVIEW':
                await w.user.click(previewButton());
                if (filled) {
                  expect(w.endpoints.calls.at(-1)).toEqual({
                    name: 'previewPlan',
                    input: [body(current), { quiet: true }],
                  });
                }
                return;
              case 'SAVE':
                await w.user.click(saveButton());
                expect(w.endpoints.calls.at(-1)).toEqual({
                  name: 'addPlan',
                  input: [body(current), { quiet: true }],
                });
                return;
              case 'done.preview':
                return w.endpoints.settle('previewPlan', 'done', PREVIEW);
              case 'error.preview':
                return w.endpoints.settle('previewPlan', 'error', replyError(REFUSAL));
              case 'done.save':
                return w.endpoints.settle('addPlan', 'done', { id: 9, posts: 14 });
              case 'error.save':
                return w.endpoints.settle('addPlan', 'error', replyError(REFUSAL));
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
          },
        },
        rows.used,
      );
      w.dispose();
    },
    30_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(FORM)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// AI titles (plan form machine, ai region): GENERATE from the typed title "Autumn sale", or with
// no title at all ("blank": refused before any call); the suggestions are demonstration output;
// CHOOSE ticks "Autumn sale now", ADD puts it in the titles.

const AI: Record<string, string> = {
  'closed OPEN': 'idle',
  'idle GENERATE': 'generating',
  'idle GENERATE blank': 'aiRefused',
  'generating done.imitate': 'shown',
  'generating error.imitate': 'aiFailed',
  'shown CHOOSE': 'chosen',
  'shown DISMISS': 'idle',
  'shown GENERATE': 'generating',
  'shown GENERATE blank': 'aiRefused',
  'chosen CHOOSE': 'shown',
  'chosen ADD': 'added',
  'chosen DISMISS': 'idle',
  'chosen GENERATE': 'generating',
  'chosen GENERATE blank': 'aiRefused',
  'aiFailed GENERATE': 'generating',
  'aiFailed GENERATE blank': 'aiRefused',
  'aiFailed DISMISS': 'idle',
  'aiRefused GENERATE': 'generating',
  'aiRefused DISMISS': 'idle',
};
const SUGGESTED = { titles: ['Autumn sale now', 'The autumn sale'], demonstration: true };

describe('AI titles (plan form machine, ai region)', () => {
  const rows = rowsUsed();
  const machine = formMachine(['09:00'], '1', (b) => (b.title ? null : 'validation.aiTitle'));
  type AiState = ReturnType<typeof machine.resolveState>;
  const events: FormEvent[] = [
    { type: 'OPEN' },
    { type: 'GENERATE', request: { title: 'Autumn sale', count: 5, platform: 'douyin' } },
    { type: 'GENERATE', request: { title: '', count: 5, platform: 'douyin' } },
    { type: 'xstate.done.actor.imitate', output: SUGGESTED } as never,
    { type: 'xstate.error.actor.imitate', error: replyError(REFUSAL) } as never,
    { type: 'CHOOSE', title: 'Autumn sale now' },
    { type: 'ADD' },
    { type: 'DISMISS' },
  ];
  const aiLabel = (e: FormEvent) =>
    e.type === 'GENERATE' ? (e.request.title ? 'GENERATE' : 'GENERATE blank') : eventLabel(e);
  const name = (s: AiState) => {
    if (s.matches('closed')) return 'closed';
    const ai = (s.value as { open: { ai: string } }).open.ai;
    if (ai === 'idle') return s.context.draft.titles.length ? 'added' : 'idle';
    if (ai === 'shown') return s.context.chosen.length ? 'chosen' : 'shown';
    if (ai === 'failed')
      return s.context.aiError === 'validation.aiTitle' ? 'aiRefused' : 'aiFailed';
    return ai;
  };
  const list = paths<FormEvent>(
    machine,
    // The AI button is busy while a call runs; the paths end once a title is added.
    ((s: AiState) =>
      name(s) === 'added'
        ? []
        : events.filter(
            (e) => s.can(e as never) && !(e.type === 'GENERATE' && s.hasTag('generating')),
          )) as never,
    ((s: AiState) => name(s)) as never,
    AI,
    'closed',
    aiLabel,
  );
  test.each(list.map((p) => [pathName(p, aiLabel), p] as const))(
    '%s',
    async (_, path) => {
      const w = await setup();
      const form = () => within(w.formDrawer()!);
      const aiButton = () => w.button(text('matrixPlans.aiTitles'), w.formDrawer()!);
      const panel = () => form().queryByTestId('ai-titles');
      const box = () =>
        within(panel()!).getByRole('checkbox', { name: 'Autumn sale now' }) as HTMLInputElement;
      const addButton = (count: number) =>
        w.button(fill('matrixPlans.addChosen', { count }), panel()!);
      const noTitles = () => form().getByText(text('matrixPlans.noTitles'));
      const suggestions = (count: number) => {
        within(panel()!).getByText(text('matrixPlans.demonstration'));
        expect(box().checked).toBe(count > 0);
        expect(addButton(count).disabled).toBe(count === 0);
      };
      const sees: Record<string, () => void> = {
        closed: () => expect(w.formDrawer()).toBeNull(),
        idle: () => {
          expect(panel()).toBeNull();
          expect(aiButton().getAttribute('aria-busy')).not.toBe('true');
          noTitles();
        },
        generating: () => {
          expect(aiButton().getAttribute('aria-busy')).toBe('true');
          expect(panel()).toBeNull();
        },
        shown: () => suggestions(0),
        chosen: () => suggestions(1),
        added: () => {
          expect(panel()).toBeNull();
          const titles = within(form().getByRole('list', { name: text('matrixPlans.titles') }));
          expect(titles.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
            'Autumn sale now',
          ]);
        },
        aiFailed: () => expect(panel()!.textContent).toContain(REFUSAL),
        aiRefused: () => {
          expect(panel()!.getAttribute('role')).toBe('alert');
          expect(panel()!.textContent).toContain(enUS['validation.aiTitle']);
          noTitles();
        },
      };
      await runUiPath(
        path,
        {
          initial: 'closed',
          transitions: AI,
          label: aiLabel,
          sees,
          exec: async (event) => {
            const calls = w.endpoints.calls.length;
            switch (aiLabel(event)) {
              case 'OPEN':
                return w.user.click(w.button(text('matrixPlans.new')));
              case 'GENERATE':
              case 'GENERATE blank': {
                const typed = aiLabel(event) === 'GENERATE' ? 'Autumn sale' : '';
                const box = form().getByRole('textbox', { name: text('matrixPlans.titleInput') });
                await w.user.clear(box);
                if (typed) await w.user.type(box, typed);
                await w.user.click(aiButton());
                expect(w.endpoints.calls.slice(calls)).toEqual(
                  typed
                    ? [
                        {
                          name: 'imitateTitle',
                          input: [{ title: typed, count: 5, platform: 'douyin' }, { quiet: true }],
                        },
                      ]
                    : [],
                );
                return;
              }
              case 'done.imitate':
                return w.endpoints.settle('imitateTitle', 'done', SUGGESTED);
              case 'error.imitate':
                return w.endpoints.settle('imitateTitle', 'error', replyError(REFUSAL));
              case 'CHOOSE':
                return w.user.click(box());
              case 'ADD':
                return w.user.click(addButton(1));
              case 'DISMISS':
                return w.user.click(
                  within(panel()!).getByRole('button', {
                    name:
                      panel()!.getAttribute('role') === 'alert'
                        ? text('matrix.dismiss')
                        : text('matrixPlans.dismissAi'),
                  }),
                );
              default:
                throw new Error(`no person's action for ${event.type}`);
            }
          },
        },
        rows.used,
      );
      w.dispose();
    },
    20_000,
  );
  test('every row of the table is taken by some path', () => {
    expect(rows.unused(AI)).toEqual([]);
  });
});

describe('the create form, by hand', () => {
  test('a refused draft takes the person to its first invalid field (the titles)', async () => {
    const w = await setup();
    await w.user.click(w.button(text('matrixPlans.new')));
    await vi.waitFor(() => within(w.formDrawer()!).getByRole('checkbox', { name: SHOP.nickname }));
    await fillForm(w, 'Launch', true);
    const form = within(w.formDrawer()!);
    await w.user.click(
      form.getByRole('button', { name: fill('matrixPlans.removeTitle', { title: 'Hello world' }) }),
    );
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.preview') }));
    expect(document.activeElement).toBe(
      form.getByRole('textbox', { name: text('matrixPlans.titleInput') }),
    );
    form.getByText(enUS['validation.planTitle']);
    expect(form.queryByText(enUS['validation.planName'])).toBeNull();
    expect(w.endpoints.calls).toEqual([]);
    // A bad time slot and an end before the start: said, nothing sent.
    await w.user.type(form.getByRole('textbox', { name: text('matrixPlans.titleInput') }), 'Hi');
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.addTitle') }));
    await w.user.type(form.getByRole('textbox', { name: text('matrixPlans.newSlot') }), '25:00');
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.addSlot') }));
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.preview') }));
    form.getByText(enUS['validation.planSlot']);
    expect(w.endpoints.calls).toEqual([]);
    w.dispose();
  });

  test('AI titles: made from the typed title, labelled as demonstration output, the chosen ones added', async () => {
    const w = await setup();
    await w.user.click(w.button(text('matrixPlans.new')));
    const form = within(w.formDrawer()!);
    // No title typed yet: the request is refused before any call.
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.aiTitles') }));
    expect(form.getByRole('alert').textContent).toContain(enUS['validation.aiTitle']);
    expect(w.endpoints.calls).toEqual([]);
    await w.user.click(form.getByRole('button', { name: text('matrix.dismiss') }));
    await w.user.type(
      form.getByRole('textbox', { name: text('matrixPlans.titleInput') }),
      'Autumn sale',
    );
    await w.user.selectOptions(
      form.getByRole('combobox', { name: text('matrixPlans.aiCount') }),
      '3',
    );
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.aiTitles') }));
    expect(w.endpoints.calls.at(-1)).toEqual({
      name: 'imitateTitle',
      input: [{ title: 'Autumn sale', count: 3, platform: 'douyin' }, { quiet: true }],
    });
    await w.endpoints.settle('imitateTitle', 'done', {
      titles: ['Autumn sale now', 'The autumn sale', 'Sale of autumn'],
      demonstration: true,
    });
    const ai = within(form.getByTestId('ai-titles'));
    ai.getByText(text('matrixPlans.demonstration'));
    await w.user.click(ai.getByRole('checkbox', { name: 'Autumn sale now' }));
    await w.user.click(ai.getByRole('checkbox', { name: 'Sale of autumn' }));
    await w.user.click(
      ai.getByRole('button', { name: fill('matrixPlans.addChosen', { count: 2 }) }),
    );
    expect(form.queryByTestId('ai-titles')).toBeNull();
    const titles = within(form.getByRole('list', { name: text('matrixPlans.titles') }));
    expect(titles.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Autumn sale now',
      'Sale of autumn',
    ]);
    // A real model's titles carry no label; a refusal is said.
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.aiTitles') }));
    await w.endpoints.settle('imitateTitle', 'done', { titles: ['Other'], demonstration: false });
    expect(
      within(form.getByTestId('ai-titles')).queryByText(text('matrixPlans.demonstration')),
    ).toBeNull();
    await w.user.click(form.getByRole('button', { name: text('matrixPlans.aiTitles') }));
    await w.endpoints.settle('imitateTitle', 'error', replyError(REFUSAL));
    expect(form.getByRole('alert').textContent).toContain(REFUSAL);
    w.dispose();
  });
});

// ---------------------------------------------------------------------------------------------
// The list and the detail.
