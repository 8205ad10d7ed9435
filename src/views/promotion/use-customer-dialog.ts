import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import {
  createCustomerDialogMachine,
  type CustomerDialogMachine,
} from '../../machines/customers/customer-dialog';
import { notify } from '../../components/toaster';

/** A customer dialog's actor with its call injected (`submit(target, payload)`). */
export function useCustomerDialog<T, P, R = unknown>(
  id: string,
  submit: (target: T | null, payload: P) => Promise<R>,
): ActorRefFrom<CustomerDialogMachine<T, P, R>> {
  const machine = useMemo(
    () =>
      createCustomerDialogMachine<T, P, R>(id).provide({
        actors: { submit: fromPromise(({ input }) => submit(input.target, input.payload)) },
      }),
    // Built once per view; `submit` reads the view's current values when called.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [id],
  );
  return useActorRef(machine);
}

export type CustomerDialogActor<T, P, R = unknown> = ActorRefFrom<CustomerDialogMachine<T, P, R>>;

/** What a dialog view needs of its actor's state. */
export function useDialogState<T, P, R>(actor: CustomerDialogActor<T, P, R>) {
  const open = useSelector(actor, (s) => s.hasTag('open'));
  const submitting = useSelector(actor, (s) => s.hasTag('submitting'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const error = useSelector(actor, (s) => s.context.error);
  const target = useSelector(actor, (s) => s.context.target);
  const completed = useSelector(actor, (s) => s.context.completed);
  return { open, submitting, failed, error, target, completed };
}

/** After a dialog's call succeeded: a notice and the list afresh. */
export function useSaved<T, P, R>(
  actor: CustomerDialogActor<T, P, R>,
  reload: () => void,
  text: string,
) {
  const completed = useSelector(actor, (s) => s.context.completed);
  useEffect(() => {
    if (completed === 0) return;
    notify('success', text);
    reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [completed]);
}
