import { Button, Input, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import { useArea } from '../../app/actors/areas';
import { cardsArea } from '../../app/actors/cards';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { FormField } from '../../components/form-field';
import type { MessageId } from '../../i18n/messages';
import type { RedeemForm, redeemMachine } from '../../machines/cards/redeem';
import { FailureAlert, StepDialog, Summary } from '../../components/step-dialog';
import { CARD_AMOUNT, CARD_ASSET_LABEL } from './card-format';

/**
 * Redeem a card (partner, merchant): a button and the dialog of the cards area's redeem actor, so
 * any page can offer it; the areas reload balances and lists after a card is credited.
 */
export function CardRedeem(props: { variant?: 'solid' | 'outline' }) {
  const intl = useIntl();
  const { redeem } = useArea(cardsArea);
  return (
    <>
      <Button variant={props.variant ?? 'outline'} onClick={() => redeem.send({ type: 'OPEN' })}>
        {intl.formatMessage({ id: 'cards.redeem' })}
      </Button>
      <CardRedeemDialog actor={redeem} />
    </>
  );
}

export function CardRedeemDialog(props: { actor: ActorRefFrom<typeof redeemMachine> }) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const moneyName = useMoneyName();
  const { actor } = props;
  const state = useSelector(actor, (s) => s.value);
  const context = useSelector(actor, (s) => s.context);
  const form = useSelector(actor, (s) => s.context.form);
  const errors = useSelector(actor, (s) => s.context.errors);
  const set = (field: keyof RedeemForm) => (e: { currentTarget: { value: string } }) =>
    actor.send({ type: 'SET', field, value: e.currentTarget.value });

  const submitting = state === 'submitting';
  const submit = () => actor.send({ type: 'SUBMIT' });
  const error = (key: string) => (errors[key] ? t(errors[key] as MessageId) : null);
  const redeemLabel = t('cards.redeemSubmit');
  const result = context.result;
  const footer = (() => {
    switch (state) {
      case 'editing':
      case 'submitting':
        return (
          <>
            <Button
              variant="outline"
              disabled={submitting}
              onClick={() => actor.send({ type: 'CLOSE' })}
            >
              {t('form.cancel')}
            </Button>
            <Button
              type="submit"
              loading={submitting}
              loadingText={redeemLabel}
              aria-busy={submitting}
            >
              {redeemLabel}
            </Button>
          </>
        );
      case 'failed':
        return (
          <>
            <Button variant="outline" onClick={() => actor.send({ type: 'CLOSE' })}>
              {t('form.close')}
            </Button>
            <Button onClick={() => actor.send({ type: 'EDIT' })}>{t('cards.tryAgain')}</Button>
          </>
        );
      case 'done':
        return (
          <>
            <Button variant="outline" onClick={() => actor.send({ type: 'AGAIN' })}>
              {t('cards.redeemAnother')}
            </Button>
            <Button onClick={() => actor.send({ type: 'CLOSE' })}>{t('form.close')}</Button>
          </>
        );
      default:
        return null;
    }
  })();

  return (
    <StepDialog
      open={state !== 'closed'}
      title={t('cards.redeemTitle')}
      busy={submitting}
      onClose={() => actor.send({ type: 'CLOSE' })}
      onSubmit={state === 'editing' ? submit : undefined}
      footer={footer}
      testId="card-redeem-dialog"
    >
      {(state === 'editing' || state === 'submitting') && (
        <>
          <FormField label={t('cards.cardNo')} error={error('card_no')} required>
            <Input
              autoComplete="off"
              spellCheck={false}
              readOnly={submitting}
              value={form.card_no}
              onChange={set('card_no')}
            />
          </FormField>
          <FormField
            label={t('cards.cardPwd')}
            error={error('card_pwd')}
            helper={t('cards.cardPwdHelp')}
            required
          >
            <Input
              autoComplete="off"
              spellCheck={false}
              readOnly={submitting}
              value={form.card_pwd}
              onChange={set('card_pwd')}
            />
          </FormField>
        </>
      )}
      {state === 'failed' && (
        <>
          {context.entry && (
            <Text>{t('cards.redeemFailedFor', { card: context.entry.cardNo })}</Text>
          )}
          <FailureAlert error={context.error} />
        </>
      )}
      {state === 'done' && result && (
        <>
          <Text role="status">{t('cards.redeemed')}</Text>
          <Summary
            label={t('cards.redeemed')}
            items={[
              [t('cards.cardNo'), result.card_no],
              [t('cards.asset'), t(CARD_ASSET_LABEL[result.asset], { moneyName })],
              [
                t('cards.credited'),
                t(CARD_AMOUNT[result.asset], { amount: result.face_value, moneyName }),
              ],
            ]}
          />
        </>
      )}
    </StepDialog>
  );
}
