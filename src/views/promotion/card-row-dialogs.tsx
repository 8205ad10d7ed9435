import { Input, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type {
  CardRow,
  CountReply,
  DeleteCardsBody,
  EditCardBody,
  RemarkCardsBody,
} from '../../api/contract/cards';
import type { DialogActor } from '../../app/actors/factories';
import { DateField } from '../../components/date-field';
import { FormField } from '../../components/form-field';
import type { CardSelection } from '../../machines/cards/transfer';
import { selectionText } from './card-transfer-dialog';
import { endOfDay } from '../../machines/cards/generate';
import { CallDialog, useCall } from '../shared/call-dialog';
import { useT } from '../shared/use-t';

/**
 * Deleting cards (a row, the selection or a batch) after a confirmation that says what happens
 * to the money: unused and void cards go, their face value back to whoever paid; used cards stay.
 */
export function CardDeleteDialog(props: {
  actor: DialogActor<CardSelection, DeleteCardsBody, CountReply>;
}) {
  const t = useT();
  const call = useCall(props.actor);
  const selection = call.target;
  if (!call.open || !selection) return null;
  const body: DeleteCardsBody =
    'ids' in selection ? { ids: selection.ids } : { batch_no: selection.batchNo };
  return (
    <CallDialog
      call={call}
      title={t('cards.deleteTitle')}
      submitLabel={t('cards.delete')}
      onSubmit={() => call.submit(body)}
    >
      <Text>{t('cards.deleteWhat', { what: selectionText(t, selection) })}</Text>
      <Text>{t('cards.deleteRefund')}</Text>
    </CallDialog>
  );
}

/** The remark of the caller's role on one card (admin: the admin's; partner: the owner's). */
export function CardRemarkDialog(props: {
  actor: DialogActor<CardRow, RemarkCardsBody, CountReply>;
  isAdmin: boolean;
}) {
  const call = useCall(props.actor);
  if (!call.open || !call.target) return null;
  return <RemarkForm key={call.target.id} row={call.target} isAdmin={props.isAdmin} call={call} />;
}

function RemarkForm(props: {
  row: CardRow;
  isAdmin: boolean;
  call: ReturnType<typeof useCall<CardRow, RemarkCardsBody, CountReply>>;
}) {
  const t = useT();
  const { call } = props;
  const [remark, setRemark] = useState(
    props.isAdmin ? props.row.remark_admin : props.row.remark_owner,
  );
  return (
    <CallDialog
      call={call}
      title={t('cards.remarkTitle', { card: props.row.card_no })}
      submitLabel={t('form.save')}
      onSubmit={() => call.submit({ id: props.row.id, remark: remark.trim() })}
    >
      <FormField label={t('cards.remark')} helper={t('cards.remarkHelp')}>
        <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.currentTarget.value)} />
      </FormField>
    </CallDialog>
  );
}

/** "YYYY-MM-DD" of a time in the viewer's calendar ('' for none). */
function dayOf(time: number | null): string {
  if (time === null) return '';
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/**
 * The expiry of one unused card: a day (the card works until that day's end) or none (never
 * expires). The server refuses a past day and used cards.
 */
export function CardExpiryDialog(props: { actor: DialogActor<CardRow, EditCardBody, CardRow> }) {
  const call = useCall(props.actor);
  if (!call.open || !call.target) return null;
  return <ExpiryForm key={call.target.id} row={call.target} call={call} />;
}

function ExpiryForm(props: {
  row: CardRow;
  call: ReturnType<typeof useCall<CardRow, EditCardBody, CardRow>>;
}) {
  const t = useT();
  const { call } = props;
  const [day, setDay] = useState(dayOf(props.row.expire_at));
  const [error, setError] = useState<string | null>(null);
  const save = () => {
    const expireAt = day ? endOfDay(day) : null;
    if (day && (expireAt === null || expireAt <= Date.now())) {
      setError(t('cards.expiryPast'));
      return;
    }
    setError(null);
    call.submit({ id: props.row.id, expire_at: expireAt });
  };
  return (
    <CallDialog
      call={call}
      title={t('cards.expiryOf', { card: props.row.card_no })}
      submitLabel={t('form.save')}
      onSubmit={save}
    >
      <FormField label={t('cards.expiry')} helper={t('cards.expiryHelp')} error={error}>
        <DateField label={t('cards.expiry')} value={day} onChange={setDay} />
      </FormField>
    </CallDialog>
  );
}
