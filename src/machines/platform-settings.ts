import { assertEvent, assign, fromPromise, setup } from 'xstate';
import {
  SETTING_BY_KEY,
  normalizeSetting,
  settingUnits,
  type PlatformConfig,
  type SettingView,
} from '../api/contract/settings';

/**
 * The settings and prices page (/account/settings, docs/domain.md §12 "Settings and prices"):
 * loads the caller's view (the admin's platform values, or a partner's overrides beside the
 * platform's), keeps a draft of the fields, checks it with the contract's rules (the ranges the
 * view gives: the platform's for the admin, the admin's floor and ceiling for a partner) and
 * saves only the changed keys. loading → ready.clean ⇄ ready.dirty → saving → ready.clean, or
 * back to ready.dirty with the server's reason (nothing was changed).
 */

/** A field's problem as the page shows it: a message id and its values. */
export interface FieldProblem {
  id: 'platformSettings.invalid' | 'platformSettings.outOfRange';
  values?: { min: string; max: string };
}

export interface PlatformSettingsContext {
  config: PlatformConfig | null;
  draft: Record<string, string>;
  problems: Record<string, FieldProblem>;
  /** The load's or the save's failure (a message id or the server's text). */
  error: string | null;
}

export type PlatformSettingsEvent =
  | { type: 'EDIT'; key: string; value: string }
  | { type: 'SAVE' }
  | { type: 'RESET' }
  | { type: 'RELOAD' };

const draftOf = (config: PlatformConfig): Record<string, string> =>
  Object.fromEntries(config.settings.map((s) => [s.key, s.value]));

/** The keys whose draft differs from the loaded value. */
export function changedValues(context: PlatformSettingsContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of context.config?.settings ?? []) {
    const value = context.draft[s.key] ?? s.value;
    if (value !== s.value) out[s.key] = value;
  }
  return out;
}

/** The range a field's value must be in: the view's (the platform's, or the admin's limits). */
function rangeOf(view: SettingView) {
  const def = SETTING_BY_KEY.get(view.key);
  if (!def) return {};
  return {
    min: view.min === null ? undefined : settingUnits(def, view.min),
    max: view.max === null ? undefined : settingUnits(def, view.max),
  };
}

/** The changed fields' problems by the contract's rules; a partner's '' (no override) is fine. */
export function problemsOf(context: PlatformSettingsContext): Record<string, FieldProblem> {
  const problems: Record<string, FieldProblem> = {};
  const partner = context.config?.scope === 'partner';
  for (const [key, value] of Object.entries(changedValues(context))) {
    const view = context.config!.settings.find((s) => s.key === key)!;
    const def = SETTING_BY_KEY.get(key);
    if (!def || (partner && value.trim() === '')) continue;
    const result = normalizeSetting(def, value, rangeOf(view));
    if (!('problem' in result)) continue;
    problems[key] =
      result.problem.id === 'settings.outOfRange'
        ? {
            id: 'platformSettings.outOfRange',
            values: { min: result.problem.min, max: result.problem.max },
          }
        : { id: 'platformSettings.invalid' };
  }
  return problems;
}

export const platformSettingsMachine = setup({
  types: {
    context: {} as PlatformSettingsContext,
    events: {} as PlatformSettingsEvent,
  },
  actors: {
    load: fromPromise<PlatformConfig>(async () => {
      throw new Error('platformSettings: provide the load actor');
    }),
    save: fromPromise<PlatformConfig, { values: Record<string, string> }>(async () => {
      throw new Error('platformSettings: provide the save actor');
    }),
  },
  guards: {
    /** The draft with this edit differs from the loaded values. */
    changedAfterEdit: ({ context, event }) => {
      assertEvent(event, 'EDIT');
      const draft = { ...context.draft, [event.key]: event.value };
      return Object.keys(changedValues({ ...context, draft })).length > 0;
    },
    valid: ({ context }) => Object.keys(problemsOf(context)).length === 0,
  },
  actions: {
    loaded: assign(({ event }) => {
      const config = (event as unknown as { output: PlatformConfig }).output;
      return { config, draft: draftOf(config), problems: {}, error: null };
    }),
    failed: assign({
      error: ({ event }) => {
        const error = (event as unknown as { error: unknown }).error;
        return error instanceof Error ? error.message : 'http.requestError';
      },
    }),
    edit: assign(({ context, event }) => {
      assertEvent(event, 'EDIT');
      const problems = { ...context.problems };
      delete problems[event.key];
      return { draft: { ...context.draft, [event.key]: event.value }, problems, error: null };
    }),
    check: assign({ problems: ({ context }) => problemsOf(context) }),
    reset: assign(({ context }) => ({
      draft: context.config ? draftOf(context.config) : {},
      problems: {},
      error: null,
    })),
  },
}).createMachine({
  id: 'platformSettings',
  context: { config: null, draft: {}, problems: {}, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'ready', actions: 'loaded' },
        onError: { target: 'failed', actions: 'failed' },
      },
    },
    failed: { on: { RELOAD: 'loading' } },
    ready: {
      initial: 'clean',
      on: {
        EDIT: [
          { guard: 'changedAfterEdit', target: '.dirty', actions: 'edit' },
          { target: '.clean', actions: 'edit' },
        ],
      },
      states: {
        clean: {},
        dirty: {
          on: {
            RESET: { target: 'clean', actions: 'reset' },
            SAVE: [
              { guard: 'valid', target: '#platformSettings.saving', actions: 'check' },
              { actions: 'check' },
            ],
          },
        },
      },
    },
    saving: {
      tags: ['saving'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({ values: changedValues(context) }),
        onDone: { target: 'ready.clean', actions: 'loaded' },
        onError: { target: 'ready.dirty', actions: 'failed' },
      },
    },
  },
});
