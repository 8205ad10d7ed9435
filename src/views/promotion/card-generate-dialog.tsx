import { Button, Input, NativeSelect, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import { CARD_ASSETS, MAX_CARD_QUANTITY, type CardAsset } from '../../api/contract/cards';
import { DateField } from '../../components/date-field';
import { FormField } from '../../components/form-field';
import { formatDateTime } from '../../components/dates';
import type { MessageId } from '../../i18n/messages';
import type { GenerateForm, generateCardsMachine } from '../../machines/cards/generate';
import { FailureAlert, StepDialog, Summary } from '../../components/step-dialog';
import { StepButtons } from '../shared/money-dialog';
import { CARD_AMOUNT, CARD_ASSET_LABEL, batchTotal } from '../shared/card-format';

/**
 * Generate a batch of cards: the form, a confirmation (a partner sees the total it pays: face
 * value × quantity, from its own balance; an admin's cards are minted), then the batch number.
 */
export function CardGenerateDialog(props: {
  actor: ActorRefFrom<typeof generateCardsMachine>;
  moneyName: string;
  /** A partner pays for its cards; an admin's are minted by the platform. */
  pays: boolean;
  /** Shows the new batch in the list. */
  onShowBatch: (batchNo: string) => void;
}) {
  const intl = useIntl();
  const { actor, moneyName } = props;
  const state = useSelector(actor, (s) => s.value);
  const context = useSelector(actor, (s) => s.context);
  // The form is the machine's (docs/architecture.md "Forms"): opening the dialog starts it afresh.
  const values = useSelector(actor, (s) => s.context.form);
  const errors = useSelector(actor, (s) => s.context.errors);

  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const set = (field: keyof GenerateForm) => (e: { currentTarget: { value: string } }) =>
    actor.send({ type: 'SET', field, value: e.currentTarget.value });
  const error = (key: string) => (errors[key] ? t(errors[key] as MessageId) : null);
  const amount = (asset: CardAsset, value: string) =>
    t(CARD_AMOUNT[asset], { amount: value, moneyName });
  const assetLabel = (asset: CardAsset) => t(CARD_ASSET_LABEL[asset], { moneyName });

  const review = () => actor.send({ type: 'REVIEW' });

  const draft = context.draft;
  const result = context.result;
  const submitting = state === 'submitting';
  const confirmLabel = t('cards.generateConfirm');
  const footer = (
    <StepButtons
      step={state}
      uncertain={context.uncertain}
      confirmLabel={confirmLabel}
      send={(type) => actor.send({ type })}
      done={
        <>
          <Button variant="outline" onClick={() => actor.send({ type: 'AGAIN' })}>
            {t('cards.generateMore')}
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              if (result) props.onShowBatch(result.batch_no);
              actor.send({ type: 'CLOSE' });
            }}
          >
            {t('cards.showBatch')}
          </Button>
          <Button onClick={() => actor.send({ type: 'CLOSE' })}>{t('form.close')}</Button>
        </>
      }
    />
  );

  const total = draft ? batchTotal(draft.asset, draft.faceValue, draft.quantity) : null;
  return (
    <StepDialog
      open={state !== 'closed'}
      title={t('cards.generate')}
      busy={submitting}
      onClose={() => actor.send({ type: 'CLOSE' })}
      onSubmit={state === 'editing' ? review : undefined}
      footer={footer}
      testId="card-generate-dialog"
    >
      {state === 'editing' && (
        <>
          <FormField label={t('cards.asset')} error={error('asset')} required>
            <NativeSelect.Root>
              <NativeSelect.Field value={values.asset} onChange={set('asset')}>
                {CARD_ASSETS.map((a) => (
                  <option key={a} value={a}>
                    {assetLabel(a)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField
            label={t(
              values.asset === 'money'
                ? 'cards.faceValueMoney'
                : values.asset === 'digital_man'
                  ? 'cards.faceValueMinutes'
                  : 'cards.faceValueClones',
              { moneyName },
            )}
            error={error('face_value')}
            required
          >
            <Input
              inputMode={values.asset === 'money' ? 'decimal' : 'numeric'}
              autoComplete="off"
              value={values.faceValue}
              onChange={set('faceValue')}
            />
          </FormField>
          <FormField
            label={t('cards.quantity')}
            error={error('quantity')}
            helper={t('cards.quantityHelp', { max: MAX_CARD_QUANTITY })}
            required
          >
            <Input
              inputMode="numeric"
              autoComplete="off"
              value={values.quantity}
              onChange={set('quantity')}
            />
          </FormField>
          <FormField
            label={t('cards.expiry')}
            error={error('expire_at')}
            helper={t('cards.expiryHelp')}
          >
            <DateField
              label={t('cards.expiry')}
              value={values.expiry}
              onChange={(expiry) => actor.send({ type: 'SET', field: 'expiry', value: expiry })}
            />
          </FormField>
          <FormField
            label={t('cards.priceIn', { moneyName })}
            error={error('price')}
            helper={t('cards.priceHelp')}
          >
            <Input
              inputMode="decimal"
              autoComplete="off"
              value={values.price}
              onChange={set('price')}
            />
          </FormField>
          <FormField label={t('cards.remark')} error={error('remark')}>
            <Input value={values.remark} maxLength={200} onChange={set('remark')} />
          </FormField>
        </>
      )}
      {(state === 'confirming' || state === 'submitting' || state === 'failed') && draft && (
        <>
          <Text>{t('cards.generateCheck')}</Text>
          <Summary
            label={confirmLabel}
            items={[
              [t('cards.asset'), assetLabel(draft.asset)],
              [t('cards.faceValue'), amount(draft.asset, draft.faceValue)],
              [t('cards.quantity'), String(draft.quantity)],
              [
                t('cards.totalCost'),
                props.pays && total !== null ? (
                  <Text as="strong" data-testid="generate-total">
                    {amount(draft.asset, total)}
                  </Text>
                ) : (
                  t('cards.minted')
                ),
              ],
              [
                t('cards.expiry'),
                draft.expireAt === null ? t('cards.never') : formatDateTime(draft.expireAt),
              ],
              [t('cards.price'), amount('money', draft.price)],
              ...(draft.remark ? [[t('cards.remark'), draft.remark] as [string, string]] : []),
            ]}
          />
          {props.pays && <Text fontSize="sm">{t('cards.paysNote')}</Text>}
        </>
      )}
      {state === 'failed' && (
        <FailureAlert
          error={context.error}
          hint={context.uncertain ? t('cards.uncertain') : undefined}
        />
      )}
      {state === 'done' && result && (
        <>
          <Text role="status">{t('cards.generated', { count: result.count })}</Text>
          <Summary
            label={t('cards.generatedBatch')}
            items={[
              [t('cards.batchNo'), <span data-testid="generated-batch">{result.batch_no}</span>],
              [t('cards.quantity'), String(result.count)],
            ]}
          />
        </>
      )}
    </StepDialog>
  );
}
