import { Button, Input, Text } from '@chakra-ui/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { fromPromise } from 'xstate';
import { useCardBody } from '../../api/contract/cards';
import { useCard } from '../../api/cards';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { fieldErrors } from '../../app/hooks/zod-errors';
import { FormField } from '../../components/form-field';
import type { MessageId } from '../../i18n/messages';
import { redeemMachine } from '../../machines/cards/redeem';
import { FailureAlert, StepDialog, Summary } from '../../components/step-dialog';
import { CARD_AMOUNT, CARD_ASSET_LABEL } from './card-format';

/** The redeem machine with the real call (tests provide their own). */
export const liveRedeemMachine = redeemMachine.provide({
  actors: {
    redeem: fromPromise(({ input, signal }) =>
      useCard({ card_no: input.cardNo, card_pwd: input.cardPwd }, { signal }),
    ),
  },
});

/**
 * Redeem a card (partner, merchant): a button and its dialog, self-contained (its own actor), so
 * any page can offer it. `onRedeemed` runs after each card credited (reload balances, lists).
 */
export function CardRedeem(props: {
  onRedeemed?: () => void;
  machine?: typeof liveRedeemMachine;
  variant?: 'solid' | 'outline';
}) {
  const intl = useIntl();
  const actor = useActorRef(props.machine ?? liveRedeemMachine);
  const redeemed = useSelector(actor, (s) => s.context.redeemed);
  const { onRedeemed } = props;
  useEffect(() => {
    if (redeemed > 0) onRedeemed?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [redeemed]);
  return (
    <>
      <Button variant={props.variant ?? 'outline'} onClick={() => actor.send({ type: 'OPEN' })}>
        {intl.formatMessage({ id: 'cards.redeem' })}
      </Button>
      <CardRedeemDialog actor={actor} />
    </>
  );
}

export function CardRedeemDialog(props: {
  actor: ReturnType<typeof useActorRef<typeof redeemMachine>>;
}) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const moneyName = useMoneyName();
  const { actor } = props;
  const state = useSelector(actor, (s) => s.value);
  const context = useSelector(actor, (s) => s.context);
  const [cardNo, setCardNo] = useState('');
  const [cardPwd, setCardPwd] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const fresh = state === 'editing' && context.entry === null;
  useEffect(() => {
    if (!fresh) return;
    setCardNo('');
    setCardPwd('');
    setErrors({});
  }, [fresh]);

  const submitting = state === 'submitting';
  const submit = () => {
    const parsed = useCardBody.safeParse({ card_no: cardNo, card_pwd: cardPwd });
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (!parsed.success) return;
    actor.send({
      type: 'SUBMIT',
      entry: { cardNo: parsed.data.card_no, cardPwd: parsed.data.card_pwd },
    });
  };
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
              value={cardNo}
              onChange={(e) => setCardNo(e.currentTarget.value)}
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
              value={cardPwd}
              onChange={(e) => setCardPwd(e.currentTarget.value)}
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
