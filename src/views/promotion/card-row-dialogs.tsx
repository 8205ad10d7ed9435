import { Input, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import type {
  CardRow,
  CountReply,
  DeleteCardsBody,
  EditCardBody,
  RemarkCardsBody,
} from '../../api/contract/cards';
import { deleteCards, editCard, remarkCards } from '../../api/cards';
import { useFormSubmit } from '../../app/hooks/use-form-submit';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { notify } from '../../components/toaster';
import type { MessageId } from '../../i18n/messages';
import type { CardSelection } from '../../machines/cards/transfer';
import { FailureAlert } from '../../components/step-dialog';
import { selectionText } from './card-transfer-dialog';
import { endOfDay } from './card-format';

type T = (id: MessageId, values?: Record<string, string | number>) => string;

function useT(): T {
  const intl = useIntl();
  return (id, values) => intl.formatMessage({ id }, values);
}

/**
 * Deleting cards (a row, the selection or a batch) after a confirmation that says what happens
 * to the money: unused and void cards go, their face value back to whoever paid; used cards stay.
 */
export function CardDeleteDialog(props: {
  selection: CardSelection;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const t = useT();
  const call = useFormSubmit<DeleteCardsBody, CountReply>((body) => deleteCards(body));
  const { done, result } = call;
  const { onDeleted } = props;
  useEffect(() => {
    if (!done || !result) return;
    notify('success', t('cards.deleted', { count: result.count }));
    onDeleted();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [done, result]);
  const body: DeleteCardsBody =
    'ids' in props.selection ? { ids: props.selection.ids } : { batch_no: props.selection.batchNo };
  return (
    <FormDialog
      open
      title={t('cards.deleteTitle')}
      submitLabel={t('cards.delete')}
      submitting={call.submitting}
      onClose={() => {
        if (!call.submitting) props.onClose();
      }}
      onSubmit={() => call.submit(body)}
    >
      <Text>{t('cards.deleteWhat', { what: selectionText(t, props.selection) })}</Text>
      <Text>{t('cards.deleteRefund')}</Text>
      {call.error && <FailureAlert error={call.error} />}
    </FormDialog>
  );
}

/** The remark of the caller's role on one card (admin: the admin's; partner: the owner's). */
export function CardRemarkDialog(props: {
  row: CardRow;
  isAdmin: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const t = useT();
  const [remark, setRemark] = useState(
    props.isAdmin ? props.row.remark_admin : props.row.remark_owner,
  );
  const call = useFormSubmit<RemarkCardsBody, CountReply>((body) => remarkCards(body));
  const { done } = call;
  const { onSaved } = props;
  useEffect(() => {
    if (!done) return;
    notify('success', t('cards.remarkSaved'));
    onSaved();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [done]);
  return (
    <FormDialog
      open
      title={t('cards.remarkTitle', { card: props.row.card_no })}
      submitLabel={t('form.save')}
      submitting={call.submitting}
      onClose={() => {
        if (!call.submitting) props.onClose();
      }}
      onSubmit={() => call.submit({ id: props.row.id, remark: remark.trim() })}
    >
      <FormField label={t('cards.remark')} helper={t('cards.remarkHelp')}>
        <Input value={remark} maxLength={200} onChange={(e) => setRemark(e.currentTarget.value)} />
      </FormField>
      {call.error && <FailureAlert error={call.error} />}
    </FormDialog>
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
export function CardExpiryDialog(props: {
  row: CardRow;
  onClose: () => void;
  onSaved: () => void;
}) {
  const t = useT();
  const [day, setDay] = useState(dayOf(props.row.expire_at));
  const [error, setError] = useState<string | null>(null);
  const call = useFormSubmit<EditCardBody, CardRow>((body) => editCard(body));
  const { done } = call;
  const { onSaved } = props;
  useEffect(() => {
    if (!done) return;
    notify('success', t('cards.expirySaved'));
    onSaved();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [done]);
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
    <FormDialog
      open
      title={t('cards.expiryOf', { card: props.row.card_no })}
      submitLabel={t('form.save')}
      submitting={call.submitting}
      onClose={() => {
        if (!call.submitting) props.onClose();
      }}
      onSubmit={save}
    >
      <FormField label={t('cards.expiry')} helper={t('cards.expiryHelp')} error={error}>
        <Input type="date" value={day} onChange={(e) => setDay(e.currentTarget.value)} />
      </FormField>
      {call.error && <FailureAlert error={call.error} />}
    </FormDialog>
  );
}
