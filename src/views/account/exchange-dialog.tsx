import { Input, NativeSelect, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import type { ExchangeTarget } from '../../api/contract/money';
import { FormField } from '../../components/form-field';
import type { MessageId } from '../../i18n/messages';
import {
  costOf,
  quantityOf,
  targetOf,
  type ExchangeOption,
  type exchangeMachine,
} from '../../machines/exchange';
import { ASSET_LABEL, formatAmount, formatMoney } from '../shared/amounts';
import { formatDhTime } from '../shared/dh-time';
import { StepDialog, Summary } from '../../components/step-dialog';
import { Failure, StepButtons } from '../shared/money-dialog';

const UNIT: Record<ExchangeTarget, MessageId> = {
  digital_man: 'property.perMinute',
  digital_voice: 'property.perClone',
  image_clone: 'property.perClone',
};

/** Money → minutes or clones: target and quantity, the price and cost, confirm, the outcome. */
export function ExchangeDialog(props: {
  actor: ActorRefFrom<typeof exchangeMachine>;
  options: readonly ExchangeOption[];
  moneyName: string;
  /** The caller's money now (2 decimals). */
  money: string;
}) {
  const intl = useIntl();
  const { actor, options, moneyName } = props;
  const state = useSelector(actor, (s) => s.value);
  const context = useSelector(actor, (s) => s.context);
  const open = state !== 'closed';
  // The form is the machine's (docs/architecture.md "Forms"): a new exchange starts it afresh.
  const form = useSelector(actor, (s) => s.context.form);
  const errors = useSelector(actor, (s) => s.context.errors);
  const option = targetOf(form, options);
  const asset = option?.asset ?? '';

  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const label = (a: ExchangeTarget) => t(ASSET_LABEL[a], { moneyName });
  const typed = quantityOf(form);
  const cost = option && typed ? costOf(option.price, typed) : null;
  const money = (text: string) => `${formatMoney(text)} ${moneyName}`;

  const review = () => actor.send({ type: 'REVIEW', with: options });

  const draft = context.draft;
  const result = context.result;
  return (
    <StepDialog
      open={open}
      title={t('property.exchange')}
      busy={state === 'submitting'}
      onClose={() => actor.send({ type: 'CLOSE' })}
      onSubmit={state === 'editing' ? review : undefined}
      footer={
        <StepButtons
          step={state}
          uncertain={context.uncertain}
          confirmLabel={t('property.confirmExchange')}
          send={(type) => actor.send({ type })}
        />
      }
    >
      {state === 'editing' && (
        <>
          <FormField label={t('property.exchangeTarget')} required>
            <NativeSelect.Root>
              <NativeSelect.Field
                value={asset}
                onChange={(e) =>
                  actor.send({ type: 'SET', field: 'asset', value: e.currentTarget.value })
                }
              >
                {options.map((o) => (
                  <option key={o.asset} value={o.asset}>
                    {label(o.asset)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField
            label={t(
              asset === 'digital_man' ? 'property.quantityMinutes' : 'property.quantityCount',
            )}
            error={errors.quantity ? t(errors.quantity as MessageId) : null}
            required
          >
            <Input
              inputMode="numeric"
              autoComplete="off"
              value={form.quantity}
              onChange={(e) =>
                actor.send({ type: 'SET', field: 'quantity', value: e.currentTarget.value })
              }
            />
          </FormField>
          {option && (
            <Summary
              label={t('property.price')}
              items={[
                [
                  t('property.unitPrice'),
                  option.price === null
                    ? t('property.priceUnknown')
                    : t(UNIT[option.asset], { price: money(option.price) }),
                ],
                [
                  t('property.cost'),
                  <Text as="span" aria-live="polite" key="cost" data-testid="exchange-cost">
                    {cost === null ? '—' : money(cost)}
                  </Text>,
                ],
                [t('property.yourMoney', { moneyName }), money(props.money)],
              ]}
            />
          )}
        </>
      )}
      {(state === 'confirming' || state === 'submitting' || state === 'failed') && draft && (
        <>
          <Text>{t('property.confirmExchangeText')}</Text>
          <Summary
            label={t('property.confirmExchange')}
            items={[
              [t('property.exchangeTarget'), label(draft.asset)],
              [
                t('property.quantity'),
                // Digital humans are bought by the whole minute, read as all digital-human time.
                draft.asset === 'digital_man'
                  ? formatDhTime(t, draft.quantity * 60)
                  : String(draft.quantity),
              ],
              [
                t('property.cost'),
                draft.cost === null ? t('property.priceUnknown') : money(draft.cost),
              ],
            ]}
          />
        </>
      )}
      {state === 'failed' && <Failure error={context.error} uncertain={context.uncertain} />}
      {state === 'done' && result && (
        <>
          <Text role="status">{t('property.exchangeDone')}</Text>
          <Summary
            label={t('property.exchangeDone')}
            items={[
              [t('property.cost'), money(result.cost)],
              [t('property.yourMoney', { moneyName }), money(result.money)],
              [label(result.asset), formatAmount(intl, result.asset, result.balance)],
            ]}
          />
        </>
      )}
    </StepDialog>
  );
}
