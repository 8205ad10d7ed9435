/**
 * The account area's actors: the SMS code buttons, sign-up, forgot password, the
 * profile and password forms. Created on first use (the login page and /user/setting), app-level
 * so a view only selects and sends; the real endpoints are injected here, fakes in tests. The
 * reloads that follow a change are events between actors, not view effects.
 */
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import * as authApi from '../../api/auth';
import type { CaptchaBody } from '../../api/contract/auth';
import type { AuthMachine } from '../../machines/auth';
import { formSubmitMachine } from '../../machines/form-submit';
import { smsCodeMachine } from '../../machines/sms-code';

export type AccountApi = Pick<
  typeof authApi,
  'getCaptcha' | 'register' | 'resetPwd' | 'editProfile' | 'changePwd'
>;

export type SmsPurpose = CaptchaBody['purpose'];
export type SmsCodeActor = ActorRefFrom<typeof smsCodeMachine>;
export type SubmitActor = ActorRefFrom<typeof formSubmitMachine>;

export interface AccountActors {
  /** One SMS button per purpose: its cooldown outlives a closed dialog. */
  sms: Record<SmsPurpose, SmsCodeActor>;
  register: SubmitActor;
  forgotPassword: SubmitActor;
  profile: SubmitActor;
  password: SubmitActor;
  stop(): void;
}

function submitActor(call: (payload: never) => Promise<unknown>): SubmitActor {
  return createActor(
    formSubmitMachine.provide({
      actors: { submit: fromPromise(({ input }) => call(input.payload as never)) },
    }),
  ).start();
}

/** Calls `onDone` each time the submission enters `done`. */
function whenDone(actor: SubmitActor, onDone: () => void) {
  let wasDone = false;
  return actor.subscribe((snapshot) => {
    const done = snapshot.matches('done');
    if (done && !wasDone) onDone();
    wasDone = done;
  });
}

export function createAccountActors(deps: {
  api: AccountApi;
  auth: ActorRefFrom<AuthMachine>;
}): AccountActors {
  const { api, auth } = deps;
  const smsFor = (purpose: SmsPurpose) =>
    createActor(
      smsCodeMachine.provide({
        actors: {
          sendCode: fromPromise(async ({ input }) => {
            await api.getCaptcha({ mobile: input.mobile, purpose });
          }),
        },
      }),
    ).start();
  const sms = { register: smsFor('register'), reset: smsFor('reset') };
  const register = submitActor(api.register);
  const forgotPassword = submitActor(api.resetPwd);
  const profile = submitActor(api.editProfile);
  const password = submitActor(api.changePwd);
  const subscriptions = [
    // The navbar and /user/info show the saved profile.
    whenDone(profile, () => auth.send({ type: 'REFRESH_USER' })),
    // The server ended every session of this user: to login without another call.
    whenDone(password, () => auth.send({ type: 'SIGNED_OUT_BY_SERVER' })),
  ];
  return {
    sms,
    register,
    forgotPassword,
    profile,
    password,
    stop() {
      subscriptions.forEach((s) => s.unsubscribe());
      [sms.register, sms.reset, register, forgotPassword, profile, password].forEach((a) =>
        a.stop(),
      );
    },
  };
}

/** The real endpoints. */
export const accountApi: AccountApi = authApi;
