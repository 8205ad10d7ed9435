import { assertEvent, assign, fromPromise, setup } from 'xstate';

/** Sending an SMS code: idle → sending → cooldown (60 s countdown) → idle. */
export const SMS_COOLDOWN_SECONDS = 60;

export type SmsCodeEvent = { type: 'SEND'; mobile: string } | { type: 'TICK' };

export const smsCodeMachine = setup({
  types: {
    context: {} as { mobile: string; secondsLeft: number; error: string | null },
    events: {} as SmsCodeEvent,
  },
  actors: {
    sendCode: fromPromise<void, { mobile: string }>(async () => {
      throw new Error('smsCode: provide the sendCode actor');
    }),
  },
  guards: {
    cooldownOver: ({ context }) => context.secondsLeft <= 1,
  },
  delays: { second: 1000 },
}).createMachine({
  id: 'smsCode',
  context: { mobile: '', secondsLeft: 0, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        SEND: {
          target: 'sending',
          actions: assign({
            mobile: ({ event }) => {
              assertEvent(event, 'SEND');
              return event.mobile;
            },
            error: null,
          }),
        },
      },
    },
    sending: {
      tags: ['sending'],
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({ mobile: context.mobile }),
        onDone: { target: 'cooldown', actions: assign({ secondsLeft: SMS_COOLDOWN_SECONDS }) },
        onError: {
          target: 'idle',
          actions: assign({
            error: ({ event }) =>
              event.error instanceof Error ? event.error.message : 'http.requestError',
          }),
        },
      },
    },
    cooldown: {
      tags: ['cooldown'],
      after: {
        second: [
          { guard: 'cooldownOver', target: 'idle', actions: assign({ secondsLeft: 0 }) },
          {
            target: 'cooldown',
            reenter: true,
            actions: assign({ secondsLeft: ({ context }) => context.secondsLeft - 1 }),
          },
        ],
      },
    },
  },
});
