/**
 * The SMS code button (sms-code machine) and a form's submission (form-submit machine) through
 * the login page's real "Forgot password" dialog, against hand-written oracles: the machines'
 * shortest paths only propose event sequences; each step is a click, typing, a second passing or
 * the fake endpoint settling, and what follows is looked up in the tables below.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { createAccountActors, type AccountActors } from '../../src/app/actors/account';
import { removeAllNotices } from '../../src/components/toaster';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { formSubmitMachine } from '../../src/machines/form-submit';
import { smsCodeMachine } from '../../src/machines/sms-code';
import LoginPage from '../../src/views/login/login-page';
import { replyError } from './fixtures';
import { fakeEndpoints, pathName, person, rowsUsed, runUiPath, withoutPrefixes } from './ui-paths';
import { appActors, renderAt } from './view-harness';

const text = (id: MessageId) => enUS[id];
const MOBILE = '13800000000';
const PASSWORD = 'Fresh@2027x';

// ---------------------------------------------------------------------------------------------
// The oracles, written from the spec: a code, then 60 s before the next one (docs/domain.md §15).

const SMS: Record<string, string> = {
  'idle SEND': 'sending',
  'sending done.actor.sendCode': 'cooldown 60',
  // The HTTP layer's toast says why; the button is ready again.
  'sending error.actor.sendCode': 'idle',
  'cooldown 1 a second passes': 'idle',
};
for (let n = 60; n > 1; n--) SMS[`cooldown ${n} a second passes`] = `cooldown ${n - 1}`;

const SUBMIT: Record<string, string> = {
  'editing SUBMIT': 'submitting',
  // The dialog says it is done, closes, and forgets the typed values.
  'submitting done.actor.submit': 'closed, reset',
  'submitting error.actor.submit': 'editing, refused',
  // Opening the dialog again starts a new, empty form.
  'closed, reset RESET': 'editing',
};

// ---------------------------------------------------------------------------------------------

function setup() {
  const endpoints = fakeEndpoints();
  const base = appActors({});
  const account: AccountActors = createAccountActors({
    auth: base.auth,
    api: {
      getCaptcha: endpoints.endpoint('getCaptcha'),
      resetPwd: endpoints.endpoint('resetPwd'),
      register: () => new Promise(() => {}),
      editProfile: () => new Promise(() => {}),
      changePwd: () => new Promise(() => {}),
    },
  });
  const actors = { ...base, account: () => account };
  renderAt(actors, <LoginPage />, '/login');
  const user = person();
  const dialog = () => screen.queryByRole('dialog', { name: text('forgot.title') });
  const open = async () => {
    await user.click(screen.getByRole('button', { name: text('login.forgot') }));
    // The dialog is loaded lazily (imported up front) and opens on a later frame.
    // vi.waitFor polls on real time (module loading is real I/O) and advances the fake clock.
    await vi.waitFor(
      () => {
        if (!dialog()) throw new Error('the dialog is not open yet');
      },
      { timeout: 15_000, interval: 50 },
    );
  };
  const field = (label: MessageId) =>
    within(dialog()!).getByLabelText(new RegExp(`^${text(label)}\\*?$`), { selector: 'input' });
  const fill = async (label: MessageId, value: string) => {
    await user.clear(field(label));
    await user.type(field(label), value);
  };
  const dispose = () => {
    account.stop();
    actors.dispose();
  };
  return { endpoints, account, user, dialog, open, field, fill, dispose };
}

type World = ReturnType<typeof setup>;

const label = (event: { type: string }) =>
  event.type.startsWith('xstate.after.') ? 'a second passes' : event.type.replace(/^xstate\./, '');

function smsSees(world: World, state: string) {
  return () => {
    const button = within(world.dialog()!).getByRole('button', {
      name: /^(Send code|Sending…|Resend in \d+ s)$/,
    });
    const seconds = /^cooldown (\d+)$/.exec(state)?.[1];
    const name = seconds
      ? text('sms.resendIn').replace('{seconds}', seconds)
      : text(state === 'sending' ? 'sms.sending' : 'sms.send');
    expect(button.textContent).toBe(name);
    expect(button.hasAttribute('disabled')).toBe(state !== 'idle');
    expect(button.getAttribute('aria-busy')).toBe(String(state === 'sending'));
  };
}

function submitSees(world: World, state: string) {
  return () => {
    const dialog = world.dialog();
    expect(dialog?.getAttribute('data-state') === 'open').toBe(state !== 'closed, reset');
    if (state === 'closed, reset') {
      screen.getByText(text('forgot.done'));
      expect(world.account.forgotPassword.getSnapshot().value).toBe('editing');
      return;
    }
    const submit = within(dialog!).getByRole('button', { name: text('forgot.submit') });
    expect(submit.getAttribute('aria-busy')).toBe(String(state === 'submitting'));
    // A refused try keeps what was typed; a new form is empty.
    const typed = (world.field('form.newPassword') as HTMLInputElement).value;
    expect(typed).toBe(state === 'editing' ? '' : PASSWORD);
  };
}

beforeAll(async () => {
  await import('../../src/components/toaster-store');
  await import('../../src/app/theme/theme-later');
  await import('../../src/components/app-toaster');
  await import('../../src/views/login/forgot-password-dialog');
});
beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  removeAllNotices();
  vi.useRealTimers();
});

describe('the SMS code button', () => {
  const rows = rowsUsed();
  const paths = withoutPrefixes(
    getShortestPaths(smsCodeMachine, {
      // Only what the state handles: an ignored event would look like another way in.
      events: (s) =>
        (
          [
            { type: 'SEND', mobile: MOBILE },
            { type: 'xstate.done.actor.sendCode' },
            { type: 'xstate.error.actor.sendCode', error: replyError('Too many codes') },
            { type: 'xstate.after.second.smsCode.cooldown' },
          ] as never[]
        ).filter((e) => s.can(e)),
      serializeState: (s, e) =>
        JSON.stringify([s.value, s.context.secondsLeft, (e as { type?: string })?.type]),
    }),
  );

  test.each(paths.map((p) => [pathName(p, label), p] as const))(
    '%s',
    async (_, path) => {
      const world = setup();
      await world.open();
      await runUiPath(
        path,
        {
          initial: 'idle',
          transitions: SMS,
          label,
          sees: Object.fromEntries(
            ['idle', ...Object.values(SMS)].map((s) => [s, smsSees(world, s)]),
          ),
          actual: () => {
            const s = world.account.sms.reset.getSnapshot();
            return s.value === 'cooldown' ? `cooldown ${s.context.secondsLeft}` : String(s.value);
          },
          exec: async (event) => {
            if (event.type === 'SEND') {
              await world.fill('form.mobile', MOBILE);
              await world.user.click(
                within(world.dialog()!).getByRole('button', { name: text('sms.send') }),
              );
              expect(world.endpoints.calls.at(-1)).toEqual({
                name: 'getCaptcha',
                input: [{ mobile: MOBILE, purpose: 'reset' }],
              });
            } else if (event.type.startsWith('xstate.after.')) {
              await vi.advanceTimersByTimeAsync(1000);
            } else {
              const outcome = event.type.includes('.done.') ? 'done' : 'error';
              await world.endpoints.settle('getCaptcha', outcome, replyError('Too many codes'));
            }
          },
        },
        rows.used,
      );
      world.dispose();
    },
    90_000,
  );

  test('every row of the table is a step of some path', () => {
    expect(rows.unused(SMS)).toEqual([]);
  });
});

describe('a form submission (forgot password)', () => {
  const rows = rowsUsed();
  const paths = withoutPrefixes(
    getShortestPaths(formSubmitMachine, {
      events: (s) =>
        (
          [
            { type: 'SUBMIT', payload: {} },
            { type: 'RESET' },
            { type: 'xstate.done.actor.submit', output: null },
            { type: 'xstate.error.actor.submit', error: replyError('Wrong code') },
          ] as never[]
        ).filter((e) => s.can(e)),
      serializeState: (s, e) => JSON.stringify([s.value, (e as { type?: string })?.type]),
    }),
  );

  test.each(paths.map((p) => [pathName(p), p] as const))(
    '%s',
    async (_, path) => {
      const world = setup();
      await world.open();
      await runUiPath(
        path,
        {
          initial: 'editing',
          transitions: SUBMIT,
          sees: Object.fromEntries(
            ['editing', ...Object.values(SUBMIT)].map((s) => [s, submitSees(world, s)]),
          ),
          exec: async (event) => {
            if (event.type === 'SUBMIT') {
              await world.fill('form.mobile', MOBILE);
              await world.fill('form.smsCode', '123456');
              await world.fill('form.newPassword', PASSWORD);
              await world.fill('form.confirmPassword', PASSWORD);
              await world.user.click(
                within(world.dialog()!).getByRole('button', { name: text('forgot.submit') }),
              );
            } else if (event.type === 'RESET') {
              await world.open();
            } else {
              const outcome = (event as { type: string }).type.includes('.done.')
                ? 'done'
                : 'error';
              await world.endpoints.settle('resetPwd', outcome, replyError('Wrong code'));
            }
          },
        },
        rows.used,
      );
      world.dispose();
    },
    90_000,
  );

  test('every row of the table is a step of some path', () => {
    expect(rows.unused(SUBMIT)).toEqual([]);
  });
});
