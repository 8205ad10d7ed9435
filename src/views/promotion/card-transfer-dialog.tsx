import { Button, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import type { MessageId } from '../../i18n/messages';
import type { CardSelection, cardTransferMachine } from '../../machines/cards/transfer';
import { FailureAlert, StepDialog, Summary } from '../../components/step-dialog';
import { StepButtons } from '../shared/money-dialog';
import { CardUserPicker } from './card-user-picker';

/** The cards a call is about, as a person reads them. */
export function selectionText(
  t: (id: MessageId, values?: Record<string, string | number>) => string,
  selection: CardSelection,
): string {
  return 'ids' in selection
    ? t('cards.selectedCount', { count: selection.ids.length })
    : t('cards.wholeBatch', { batch: selection.batchNo });
}

/** Give the selected cards (or a batch's) to a user below the caller: pick, confirm, outcome. */
export function CardTransferDialog(props: { actor: ActorRefFrom<typeof cardTransferMachine> }) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const { actor } = props;
  const state = useSelector(actor, (s) => s.value);
  const context = useSelector(actor, (s) => s.context);
  const form = useSelector(actor, (s) => s.context.form);
  const errors = useSelector(actor, (s) => s.context.errors);

  const submitting = state === 'submitting';
  const confirmLabel = t('cards.transferConfirm');
  const next = () => actor.send({ type: 'PICK' });
  // A refused transfer moved nothing: back to the picker or retry (no lost-reply case to guard).
  const footer = (
    <StepButtons
      step={state === 'picking' ? 'editing' : state}
      uncertain={false}
      retryAlways
      confirmLabel={confirmLabel}
      send={(type) => type !== 'AGAIN' && actor.send({ type })}
      done={<Button onClick={() => actor.send({ type: 'CLOSE' })}>{t('form.close')}</Button>}
    />
  );

  const selection = context.selection;
  return (
    <StepDialog
      open={state !== 'closed'}
      title={t('cards.transfer')}
      busy={submitting}
      onClose={() => actor.send({ type: 'CLOSE' })}
      onSubmit={state === 'picking' ? next : undefined}
      footer={footer}
      testId="card-transfer-dialog"
    >
      {selection && state !== 'done' && (
        <Text>{t('cards.transferWhat', { what: selectionText(t, selection) })}</Text>
      )}
      {state === 'picking' && (
        <CardUserPicker
          label={t('cards.transferTo')}
          keyword={form.keyword}
          onKeyword={(keyword) => actor.send({ type: 'SET', field: 'keyword', value: keyword })}
          picked={form.target}
          onPick={(user) => actor.send({ type: 'SET', field: 'target', value: user })}
          error={errors.to_user_id ? t(errors.to_user_id as MessageId) : null}
          required
        />
      )}
      {(state === 'confirming' || state === 'submitting' || state === 'failed') &&
        selection &&
        context.target && (
          <Summary
            label={confirmLabel}
            items={[
              [t('cards.cards'), selectionText(t, selection)],
              [t('cards.transferTo'), context.target.label],
            ]}
          />
        )}
      {state === 'failed' && <FailureAlert error={context.error} />}
      {state === 'done' && (
        <Text role="status">
          {t('cards.transferred', {
            count: context.count ?? 0,
            user: context.target?.label ?? '',
          })}
        </Text>
      )}
    </StepDialog>
  );
}
