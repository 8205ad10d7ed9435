import { useSelector } from '@xstate/react';
import type { DialogActor } from '../../app/actors/factories';

/** A customer dialog's actor (made by the customers area with its call provided). */
export type CustomerDialogActor<T, P, R = unknown> = DialogActor<T, P, R>;

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
