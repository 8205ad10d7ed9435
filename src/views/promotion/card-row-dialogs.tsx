import { Text } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import type { CountReply, DeleteCardsBody } from '../../api/contract/cards';
import type { CardsActors } from '../../app/actors/cards';
import type { DialogActor } from '../../app/actors/factories';
import { DateField } from '../../components/date-field';
import { FormField } from '../../components/form-field';
import type { CardSelection } from '../../machines/cards/transfer';
import { selectionText } from './card-transfer-dialog';
import { formatText } from '../../i18n/intl';
import { CallDialog, TextFormDialog, useCall } from '../shared/call-dialog';
import { useDialogForm } from '../shared/use-dialog-state';
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

/**
 * The remark of the caller's role on one card (admin: the admin's; partner: the owner's, which the
 * page gives with OPEN); its machine holds the draft (docs/architecture.md "Forms").
 */
export function CardRemarkDialog(props: { actor: CardsActors['remark'] }) {
  const t = useT();
  return (
    <TextFormDialog
      actor={props.actor}
      title={(row) => t('cards.remarkTitle', { card: row?.card_no ?? '' })}
      label={t('cards.remark')}
      helper={t('cards.remarkHelp')}
      submitLabel={t('form.save')}
      maxLength={200}
    />
  );
}

/**
 * The expiry of one unused card: a day (the card works until that day's end) or none (never
 * expires). Its machine holds the day and refuses a past one; the server refuses used cards.
 */
export function CardExpiryDialog(props: { actor: CardsActors['expiry'] }) {
  const t = useT();
  const intl = useIntl();
  const call = useCall(props.actor);
  const { form, errors, set } = useDialogForm(props.actor, { day: '' });
  const row = call.target;
  if (!call.open || !row) return null;
  return (
    <CallDialog
      call={call}
      title={t('cards.expiryOf', { card: row.card_no })}
      submitLabel={t('form.save')}
      onSubmit={() => call.submit()}
    >
      <FormField
        label={t('cards.expiry')}
        helper={t('cards.expiryHelp')}
        error={errors.day ? formatText(intl, errors.day) : null}
      >
        <DateField label={t('cards.expiry')} value={form.day} onChange={(day) => set('day', day)} />
      </FormField>
    </CallDialog>
  );
}
