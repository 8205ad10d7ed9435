import { useSelector } from '@xstate/react';
import type { DialogActor } from '../../app/actors/factories';

/** A customer dialog's actor (made by the customers area with its call provided). */
export type CustomerDialogActor<T, P, R = unknown, F = null, G = undefined> = DialogActor<
  T,
  P,
  R,
  F,
  G
>;

/** What a dialog view needs of its actor's state. */
export function useDialogState<T, P, R, F, G>(actor: CustomerDialogActor<T, P, R, F, G>) {
  const open = useSelector(actor, (s) => s.hasTag('open'));
  const submitting = useSelector(actor, (s) => s.hasTag('submitting'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const error = useSelector(actor, (s) => s.context.error);
  const target = useSelector(actor, (s) => s.context.target);
  const completed = useSelector(actor, (s) => s.context.completed);
  return { open, submitting, failed, error, target, completed };
}

/**
 * A dialog's draft as its machine holds it (docs/architecture.md "Forms"): the fields, each
 * field's message id, and `set` to change one.
 */
export function useDialogForm<T, P, R, F, G>(actor: CustomerDialogActor<T, P, R, F, G>, empty: F) {
  const form = useSelector(actor, (s) => s.context.form) ?? empty;
  const errors = useSelector(actor, (s) => s.context.errors);
  const set = <K extends keyof F & string>(field: K, value: F[K]) =>
    actor.send({ type: 'SET', field, value });
  return { form, errors, set };
}
