/**
 * One group of the system init page (init-config-group machine) through the real page, against a
 * hand-written table: the mini-program card loads (or fails and is retried), a secret typed and
 * saved shows only as "configured · ••••last4" (the input empties), a save or a clear that fails
 * keeps what was shown, clearing asks first, the connection test shows its answer; a value the
 * contract refuses is shown on its field and never sent.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type {
  InitConfig,
  InitConfigSetBody,
  InitGroupValues,
} from '../../src/api/contract/init-config';
import { provideArea } from '../../src/app/actors/areas';
import { initConfigArea, type InitConfigEndpoints } from '../../src/app/actors/init-config';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { initConfigGroupMachine, type InitGroupEvent } from '../../src/machines/init-config-group';
import SystemInitPage from '../../src/views/account/system-init-page';
import { replyError } from './fixtures';
import { fakeEndpoints, person, settle, uiPaths, viewPathHooks, type EventPath } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const SECRET = 'mini-program-secret-0123456789';
const APPID = 'wx0123456789abcdef';
const unset = { configured: false, source: null, last4: null, updated_at: null, updated_by: null };
const UNSET: InitGroupValues = { appid: APPID, app_secret: unset };
const SET: InitGroupValues = {
  appid: APPID,
  app_secret: {
    configured: true,
    source: 'settings',
    last4: SECRET.slice(-4),
    updated_at: Date.UTC(2026, 0, 2, 3, 4),
    updated_by: 'admin',
  },
};
const OTHER_GROUPS: InitConfig = {
  wechat_pay: {
    mch_id: '',
    apiv3_key: unset,
    serial_no: '',
    private_key: unset,
    certificate: unset,
  },
  storage: {
    endpoint: '',
    region: '',
    bucket: '',
    access_key: '',
    secret_key: unset,
    cdn_base: '',
  },
  douyin: { client_key: '', client_secret: unset, redirect_uri: '' },
  sms: {
    endpoint: '',
    access_key_id: '',
    access_key_secret: unset,
    sign_name: '',
    template_code: '',
  },
  ai_text: { base_url: '', api_key: unset, model: 'gpt-4o-mini', timeout_seconds: '' },
};
const REFUSED = 'The server refused';
const TESTED = 'Connected: the mini program answered';

type Ev = InitGroupEvent | { type: string; output?: unknown; error?: unknown };

const label = (event: Ev) => {
  const type = event.type.replace(
    /^xstate\.(done|error)\.actor\./,
    (_, kind: string) => `${kind} `,
  );
  if (event.type === 'EDIT') {
    const edit = event as { key: string; value: string };
    return `EDIT ${edit.key}${edit.key === 'appid' ? ' bad' : ''}`;
  }
  return type;
};

/** Hand-written: `'<state> <event>'` → the state a person then sees. */
const TABLE: Record<string, string> = {
  'loading done load': 'unset',
  'loading error load': 'failed',
  'failed RETRY': 'loading',
  'unset EDIT app_secret': 'unset',
  'unset SAVE': 'saving',
  'saving done save': 'set',
  'saving error save': 'unset',
  'set EDIT app_secret': 'set',
  'set SAVE': 'saving set',
  'saving set done save': 'set',
  'saving set error save': 'set',
  'unset TEST': 'testing',
  'testing done test': 'unset',
  'testing error test': 'unset',
  'set TEST': 'testing set',
  'testing set done test': 'set',
  'testing set error test': 'set',
  'set ASK_CLEAR': 'confirming',
  'confirming CANCEL_CLEAR': 'set',
  'confirming CONFIRM_CLEAR': 'clearing',
  'clearing done clear': 'unset',
  'clearing error clear': 'set',
  // By hand (`more`): a value the contract refuses.
  'unset EDIT appid bad': 'unset bad',
  'unset bad SAVE': 'unset refused',
};

const EVENTS: Ev[] = [
  { type: 'xstate.done.actor.load', output: UNSET },
  { type: 'xstate.error.actor.load', error: replyError('boom') },
  { type: 'RETRY' },
  { type: 'EDIT', key: 'app_secret', value: SECRET },
  { type: 'SAVE' },
  { type: 'xstate.done.actor.save', output: SET },
  { type: 'xstate.error.actor.save', error: replyError(REFUSED) },
  { type: 'ASK_CLEAR', key: 'app_secret' },
  { type: 'CANCEL_CLEAR' },
  { type: 'CONFIRM_CLEAR' },
  { type: 'xstate.done.actor.clear', output: UNSET },
  { type: 'xstate.error.actor.clear', error: replyError(REFUSED) },
  { type: 'TEST' },
  { type: 'xstate.done.actor.test', output: { ok: true, message: TESTED } },
  { type: 'xstate.error.actor.test', error: replyError(REFUSED) },
];

const proposed = getShortestPaths(initConfigGroupMachine, {
  input: { group: 'mini_program' },
  events: (s) => (EVENTS as never[]).filter((e) => s.can(e)),
  // Each way into a state once (the event that led there is part of the state).
  serializeState: (s, e) =>
    JSON.stringify([
      s.value,
      typeof s.context.saved?.app_secret === 'object' && s.context.saved.app_secret.configured,
      e ? label(e as Ev) : null,
    ]),
}) as unknown as EventPath<Ev>[];

const BAD_PATH: EventPath<Ev> = {
  steps: [
    { event: { type: 'xstate.init' } },
    { event: EVENTS[0] },
    { event: { type: 'EDIT', key: 'appid', value: 'wx-nope' } },
    { event: { type: 'SAVE' } },
  ],
};

describe('a system init group on its page', () => {
  const GROUP = text('initConfig.group.mini_program');
  const card = () => within(screen.getByRole('region', { name: GROUP }));
  const secretBox = () => card().getByLabelText(text('initConfig.field.app_secret'));
  const appidBox = () => card().getByLabelText(text('initConfig.field.appid'));
  const saveButton = () =>
    card().getByRole('button', { name: text('initConfig.save', { group: GROUP }) });
  const testButton = () => card().getByRole('button', { name: text('initConfig.test') });
  const clearName = text('initConfig.clear', { field: text('initConfig.field.app_secret') });
  // Chakra keeps a closing dialog in the DOM for its exit animation: only an open one counts.
  const dialog = () => screen.queryAllByRole('alertdialog').find(isOpen) ?? null;

  viewPathHooks();
  uiPaths<Ev>({
    oracle: { initial: 'loading', transitions: TABLE, label },
    proposed,
    more: [BAD_PATH],
    timeout: 60_000,
    run: async (_path, walk) => {
      const fake = fakeEndpoints();
      const pendingLoad = fake.endpoint<[string], InitConfig>('getInitConfig');
      const endpoints: InitConfigEndpoints = {
        // The other groups answer at once; the mini-program group waits for the path.
        getInitConfig: ((group: keyof InitConfig) =>
          group === 'mini_program'
            ? pendingLoad(group)
            : Promise.resolve({
                [group]: OTHER_GROUPS[group],
              })) as InitConfigEndpoints['getInitConfig'],
        setInitConfig: fake.endpoint('setInitConfig') as InitConfigEndpoints['setInitConfig'],
        uploadCert: fake.endpoint('uploadCert') as InitConfigEndpoints['uploadCert'],
        testInitConfig: fake.endpoint('testInitConfig') as InitConfigEndpoints['testInitConfig'],
      };
      const actors = appActors({});
      provideArea(actors, initConfigArea, endpoints);
      renderAt(actors, <SystemInitPage />, '/account/system-init');
      const user = person();
      const sent = () =>
        fake.calls
          .filter((c) => c.name === 'setInitConfig')
          .map((c) => c.input as [InitConfigSetBody]);
      const form = (values: InitGroupValues) => ({ mini_program: values });

      const idle = (configured: boolean) => () => {
        expect((saveButton() as HTMLButtonElement).disabled).toBe(false);
        expect((testButton() as HTMLButtonElement).disabled).toBe(false);
        expect(dialog()).toBeNull();
        // Write-only: the state line, never a stored value.
        const state = card().getByTestId('init-mini_program-app_secret-state').textContent;
        if (configured) {
          expect(state).toMatch(
            new RegExp(`^Configured · ••••${SECRET.slice(-4)} · updated .+ by admin$`),
          );
        } else expect(state).toBe(text('initConfig.secret.unset'));
        expect(card().queryByRole('button', { name: clearName }) !== null).toBe(configured);
      };
      const busy = () => {
        expect((saveButton() as HTMLButtonElement).disabled).toBe(true);
        expect((testButton() as HTMLButtonElement).disabled).toBe(true);
      };

      await walk({
        exec: async (event) => {
          switch (label(event)) {
            case 'done load':
              return fake.settle('getInitConfig', 'done', form(UNSET));
            case 'error load':
              return fake.settle('getInitConfig', 'error', replyError('boom'));
            case 'RETRY':
              return user.click(card().getByRole('button', { name: text('initConfig.retry') }));
            case 'EDIT app_secret':
              await user.type(secretBox(), SECRET);
              expect((secretBox() as HTMLInputElement).value).toBe(SECRET);
              return;
            case 'EDIT appid bad':
              await user.clear(appidBox());
              return user.type(appidBox(), 'wx-nope');
            case 'SAVE': {
              const before = sent().length;
              const typed = (secretBox() as HTMLInputElement).value;
              const appid = (appidBox() as HTMLInputElement).value;
              await user.click(saveButton());
              await settle();
              if (appid === 'wx-nope') {
                expect(sent().length).toBe(before);
                return;
              }
              expect(sent().at(-1)).toEqual([
                { group: 'mini_program', values: { appid: APPID, app_secret: typed } },
              ]);
              return;
            }
            case 'done save':
              await fake.settle('setInitConfig', 'done', form(SET));
              // The secret box empties: the saved value is never shown again.
              expect((secretBox() as HTMLInputElement).value).toBe('');
              return;
            case 'error save':
            case 'error clear':
              await fake.settle('setInitConfig', 'error', replyError(REFUSED));
              expect(card().getByRole('alert').textContent).toContain(REFUSED);
              return;
            case 'ASK_CLEAR':
              return user.click(card().getByRole('button', { name: clearName }));
            case 'CANCEL_CLEAR':
              return user.click(
                within(dialog()!).getByRole('button', { name: text('initConfig.cancel') }),
              );
            case 'CONFIRM_CLEAR':
              await user.click(
                within(dialog()!).getByRole('button', { name: text('initConfig.clearConfirm') }),
              );
              await settle();
              expect(sent().at(-1)).toEqual([
                { group: 'mini_program', values: {}, clear: ['app_secret'] },
              ]);
              return;
            case 'done clear':
              return fake.settle('setInitConfig', 'done', form(UNSET));
            case 'TEST':
              await user.click(testButton());
              expect(fake.calls.at(-1)).toEqual({
                name: 'testInitConfig',
                input: ['mini_program'],
              });
              return;
            case 'done test':
              await fake.settle('testInitConfig', 'done', { ok: true, message: TESTED });
              expect(card().getByTestId('init-mini_program-test-result').textContent).toContain(
                TESTED,
              );
              return;
            case 'error test':
              await fake.settle('testInitConfig', 'error', replyError(REFUSED));
              expect(card().queryByTestId('init-mini_program-test-result')).toBeNull();
              return;
            default:
              throw new Error(`no step for ${label(event)}`);
          }
        },
        sees: {
          loading: () => {
            expect(card().getByRole('status', { name: text('initConfig.loading') })).toBeTruthy();
            expect(card().queryByRole('form')).toBeNull();
          },
          failed: () => {
            expect(card().getByText(text('initConfig.loadFailed'))).toBeTruthy();
            expect(card().queryByRole('form')).toBeNull();
          },
          unset: idle(false),
          set: idle(true),
          saving: busy,
          'saving set': busy,
          testing: busy,
          'testing set': busy,
          clearing: () => {
            busy();
            expect(dialog()).toBeNull();
          },
          confirming: () => {
            expect(
              within(dialog()!).getByText(
                text('initConfig.clearTitle', { field: text('initConfig.field.app_secret') }),
              ),
            ).toBeTruthy();
          },
          'unset bad': () => {
            expect((appidBox() as HTMLInputElement).value).toBe('wx-nope');
            expect(card().queryByText(text('validation.initConfigFormat'))).toBeNull();
          },
          'unset refused': () => {
            expect(card().getByText(text('validation.initConfigFormat'))).toBeTruthy();
            expect(document.activeElement).toBe(appidBox());
          },
        },
      });
      actors.dispose();
    },
  });
});
