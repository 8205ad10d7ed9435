import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { Actor } from 'xstate';
import type { DraftDialogMachine } from '../../machines/draft-dialog';

/** A draft dialog actor as a view's handle: it reads the draft and sends the person's changes. */
export function useDraftDialog<D extends object>(actor: Actor<DraftDialogMachine<D>>) {
  const shown = useSelector(actor, (s) => s.hasTag('open'));
  const submitting = useSelector(actor, (s) => s.hasTag('submitting'));
  const draft = useSelector(actor, (s) => s.context.draft);
  const target = useSelector(actor, (s) => s.context.target);
  const errors = useSelector(actor, (s) => s.context.errors);
  const error = useSelector(actor, (s) => s.context.error);
  const commands = useMemo(
    () => ({
      open: (next: D, id: number | null) => actor.send({ type: 'OPEN', draft: next, target: id }),
      set: <K extends keyof D & string>(field: K, value: D[K]) =>
        actor.send({ type: 'SET', field, value }),
      submit: () => actor.send({ type: 'SUBMIT' }),
      close: () => actor.send({ type: 'CLOSE' }),
    }),
    [actor],
  );
  return { shown, submitting, draft, target, errors, error, ...commands };
}
