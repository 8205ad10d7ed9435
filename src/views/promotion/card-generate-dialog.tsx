import { Button, Input, NativeSelect, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import {
  CARD_ASSETS,
  MAX_CARD_QUANTITY,
  addCardsBody,
  formatFaceValue,
  type CardAsset,
} from '../../api/contract/cards';
import { fieldErrors } from '../../app/hooks/zod-errors';
import { DateField } from '../../components/date-field';
import { FormField } from '../../components/form-field';
import { formatDateTime } from '../../components/dates';
import type { MessageId } from '../../i18n/messages';
import type { generateCardsMachine } from '../../machines/cards/generate';
import { FailureAlert, StepDialog, Summary } from '../../components/step-dialog';
import { StepButtons } from '../shared/money-dialog';
import { CARD_AMOUNT, CARD_ASSET_LABEL, batchTotal, endOfDay } from '../shared/card-format';

interface Values {
  asset: CardAsset;
  faceValue: string;
  quantity: string;
  expiry: string;
  price: string;
  remark: string;
}

const EMPTY: Values = {
  asset: 'money',
  faceValue: '',
  quantity: '1',
  expiry: '',
  price: '',
  remark: '',
};

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
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const fresh = state === 'editing' && context.draft === null;
  useEffect(() => {
    if (!fresh) return;
    setValues(EMPTY);
    setErrors({});
  }, [fresh]);

  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const set = (key: keyof Values) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
  };
  const error = (key: string) => (errors[key] ? t(errors[key] as MessageId) : null);
  const amount = (asset: CardAsset, value: string) =>
    t(CARD_AMOUNT[asset], { amount: value, moneyName });
  const assetLabel = (asset: CardAsset) => t(CARD_ASSET_LABEL[asset], { moneyName });

  const review = () => {
    const quantity = /^\d{1,7}$/.test(values.quantity.trim()) ? Number(values.quantity) : NaN;
    const expireAt = values.expiry ? endOfDay(values.expiry) : null;
    const parsed = addCardsBody.safeParse({
      asset: values.asset,
      face_value: values.faceValue.trim(),
      quantity,
      expire_at: expireAt,
      price: values.price.trim(),
      remark: values.remark,
    });
    const found: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
    if (expireAt !== null && expireAt <= Date.now()) found.expire_at = 'cards.expiryPast';
    setErrors(found);
    if (!parsed.success || Object.keys(found).length) return;
    const out = parsed.data;
    actor.send({
      type: 'REVIEW',
      draft: {
        asset: out.asset,
        faceValue: formatFaceValue(out.asset, out.units),
        quantity: out.quantity,
        expireAt: out.expire_at,
        price: formatFaceValue('money', out.price),
        remark: out.remark,
      },
    });
  };

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
              onChange={(expiry) => setValues((v) => ({ ...v, expiry }))}
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
