import { useActorRef } from '@xstate/react';
import { fromPromise } from 'xstate';
import { newIdempotencyKey, transfer } from '../../api/money';
import { transferMachine } from '../../machines/transfer';

/** The transfer dialog's machine, calling POST /platform/transfer under the submission's key. */
export function useTransferActor() {
  return useActorRef(
    transferMachine.provide({
      actors: {
        submit: fromPromise(({ input }) =>
          transfer(
            {
              to_user_id: input.draft.toUserId,
              asset: input.draft.asset,
              amount: input.draft.amount,
              direction: input.draft.direction,
              ...(input.draft.remark ? { remark: input.draft.remark } : {}),
            },
            input.key,
          ),
        ),
      },
    }),
    { input: { newKey: newIdempotencyKey } },
  );
}

/** Names each submission that ended (done or failed), '' otherwise: a change means "reload". */
export function movedSomething(snapshot: {
  value: unknown;
  context: { attempts: number };
}): string {
  const settled = snapshot.value === 'done' || snapshot.value === 'failed';
  return settled ? `${snapshot.context.attempts}:${String(snapshot.value)}` : '';
}
