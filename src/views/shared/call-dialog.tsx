import { Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { DialogActor } from '../../app/actors/factories';
import type { GroupValues, TextValues } from '../../app/actors/small-forms';
import { FormDialog } from '../../components/form-dialog';
import { SelectField, TextField, useFieldError } from '../../components/form-fields';
import { FailureAlert } from '../../components/step-dialog';
import { useDialogForm, useDialogState } from './use-dialog-state';

/**
 * A dialog actor's call as a view uses it: its state, `submit` (after a refusal, sending again
 * edits the same request: BACK, then SUBMIT) and `close`. A dialog with fields submits without a
 * payload: its machine checks its draft (docs/architecture.md "Forms").
 */
export function useCall<Target, P, R, F = null, G = undefined>(
  actor: DialogActor<Target, P, R, F, G>,
) {
  const state = useDialogState(actor);
  return {
    ...state,
    submit: (payload?: P) => {
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
  /** Dialogs layered over this one (a picker), outside its form. */
  layers?: ReactNode;
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
      layers={props.layers}
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

/**
 * A one-text-field dialog on a dialog actor whose machine holds the draft (a name, a remark, a
 * link: `textFields` in src/app/actors/small-forms.ts): the view shows the draft and sends each
 * change; Save asks the machine, which checks with the contract and shows the field's message, or
 * sends. `needsTarget` false: a dialog about no row (a new group).
 */
export function TextFormDialog<Row, P, R, G>(props: {
  actor: DialogActor<Row, P, R, TextValues, G>;
  title: (row: Row | null) => string;
  label: string;
  submitLabel: string;
  maxLength: number;
  helper?: string;
  inputMode?: 'url';
  needsTarget?: boolean;
  children?: ReactNode;
}) {
  const call = useCall(props.actor);
  const { form, errors, set } = useDialogForm(props.actor, { text: '' });
  const error = useFieldError(errors);
  if (!call.open || (props.needsTarget !== false && !call.target)) return null;
  return (
    <CallDialog
      call={call}
      title={props.title(call.target)}
      submitLabel={props.submitLabel}
      onSubmit={() => call.submit()}
    >
      {props.children}
      <TextField
        label={props.label}
        value={form.text}
        maxLength={props.maxLength}
        inputMode={props.inputMode}
        error={error('text')}
        disabled={call.submitting}
        {...(props.helper ? { helper: props.helper } : {})}
        onChange={(value) => set('text', value)}
      />
    </CallDialog>
  );
}

/**
 * Moving rows to a group or to "ungrouped" ('0') on a dialog actor whose machine holds the choice
 * (`groupFields` in src/app/actors/small-forms.ts).
 */
export function GroupFormDialog<Row, P, R>(props: {
  actor: DialogActor<Row, P, R, GroupValues>;
  title: (row: Row) => string;
  label: string;
  submitLabel: string;
  ungrouped: string;
  groups: readonly { id: number; name: string }[];
}) {
  const call = useCall(props.actor);
  const { form, errors, set } = useDialogForm(props.actor, { group: '0' });
  const error = useFieldError(errors);
  const row = call.target;
  if (!call.open || !row) return null;
  return (
    <CallDialog
      call={call}
      title={props.title(row)}
      submitLabel={props.submitLabel}
      onSubmit={() => call.submit()}
    >
      <SelectField
        label={props.label}
        value={form.group}
        error={error('group')}
        disabled={call.submitting}
        options={[
          { value: '0', label: props.ungrouped },
          ...props.groups.map((g) => ({ value: String(g.id), label: g.name })),
        ]}
        onChange={(value) => set('group', value)}
      />
    </CallDialog>
  );
}
