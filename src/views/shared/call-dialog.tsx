import { Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { DialogActor } from '../../app/actors/factories';
import { FormDialog } from '../../components/form-dialog';
import { FailureAlert } from '../../components/step-dialog';
import { useDialogState } from './use-dialog-state';

/**
 * A dialog actor's call as a view uses it: its state, `submit` (after a refusal, sending again
 * edits the same request: BACK, then SUBMIT) and `close`.
 */
export function useCall<Target, P, R>(actor: DialogActor<Target, P, R>) {
  const state = useDialogState(actor);
  return {
    ...state,
    submit: (payload: P) => {
      if (state.failed) actor.send({ type: 'BACK' });
      actor.send({ type: 'SUBMIT', payload });
    },
    close: () => actor.send({ type: 'CLOSE' }),
  };
}

/** What the frame needs of a call. */
interface CallState {
  submitting: boolean;
  error: string | null;
  close: () => void;
}

/**
 * The frame of a confirmation or a small form on a dialog actor: the form dialog, whose submit
 * shows the call's progress, with the server's refusal under the fields.
 */
export function CallDialog(props: {
  call: CallState;
  title: string;
  submitLabel: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { call } = props;
  return (
    <FormDialog
      open
      title={props.title}
      submitLabel={props.submitLabel}
      submitting={call.submitting}
      onClose={call.close}
      onSubmit={props.onSubmit}
    >
      {props.children}
      {call.error && <FailureAlert error={call.error} />}
    </FormDialog>
  );
}

/** A confirmation of one row on a dialog actor: its title, a sentence, the server's refusal. */
export function ConfirmRowDialog<Row, P, R>(props: {
  actor: DialogActor<Row, P, R>;
  /** Whether this dialog is the one to show its open row (default: always). */
  shows?: (row: Row) => boolean;
  title: (row: Row) => string;
  what: (row: Row) => string;
  submitLabel: string;
  payload: (row: Row) => P;
}) {
  const call = useCall(props.actor);
  const row = call.target;
  if (!call.open || !row || (props.shows && !props.shows(row))) return null;
  return (
    <CallDialog
      call={call}
      title={props.title(row)}
      submitLabel={props.submitLabel}
      onSubmit={() => call.submit(props.payload(row))}
    >
      <Text>{props.what(row)}</Text>
    </CallDialog>
  );
}
