import { Button, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import { useArea } from '../../app/actors/areas';
import { rechargeArea } from '../../app/actors/recharge';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { formatDateTime } from '../../components/dates';
import { FailureAlert, StepDialog, Summary } from '../../components/step-dialog';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import type { buyMachine } from '../../machines/recharge/buy';
import { STILL_CHECKING_AFTER } from '../../machines/recharge/buy';
import { formatMoney } from '../shared/amounts';
import { PackageChoice, hasGift, sumMoney } from './recharge-choice';

/**
 * Recharge (partner, merchant): a button and the dialog of the recharge area's buy actor, which
 * lives outside the view (its order polling goes on while another tab is shown or the dialog is
 * closed; the button shows that order again); the area reloads balances and lists after a payment
 * and raises the notice when the dialog was closed.
 */
export function RechargeBuy() {
  const intl = useIntl();
  const { buy } = useArea(rechargeArea);
  return (
    <>
      <Button onClick={() => buy.send({ type: 'OPEN' })}>
        {intl.formatMessage({ id: 'buy.open' })}
      </Button>
      <RechargeDialog actor={buy} />
    </>
  );
}

export function RechargeDialog(props: { actor: ActorRefFrom<typeof buyMachine> }) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const moneyName = useMoneyName();
  const { payPageUrl } = useArea(rechargeArea);
  const { actor } = props;
  const snapshot = useSelector(actor, (s) => s);
  const context = snapshot.context;
  // The order's waiting and checking are one step on screen; its last check is another.
  const step =
    typeof snapshot.value === 'string'
      ? snapshot.value
      : snapshot.matches({ paying: { order: 'lastCheck' } })
        ? 'lastCheck'
        : 'paying';
  const checking = snapshot.hasTag('checking');
  const send = (type: 'RETRY' | 'BACK' | 'SUBMIT' | 'CHECK' | 'AGAIN' | 'CLOSE') =>
    actor.send({ type });

  // The pick is the machine's (docs/architecture.md "Forms"): fresh on each purchase, kept on Back.
  const choose = () => actor.send({ type: 'CHOOSE' });

  const money = (text: string) => `${formatMoney(text)} ${moneyName}`;
  const cny = (text: string) => t('buy.cny', { amount: formatMoney(text) });
  const orderItems = (o: { order_no: string; package_name: string; amount: string }) =>
    [
      [t('buy.orderNo'), o.order_no],
      [t('buy.package'), o.package_name],
      [t('buy.amount'), cny(o.amount)],
    ] as [string, string][];
  const credited = (p: { money: string; gift_money: string }): [string, string][] => [
    [t('buy.money'), money(p.money)],
    ...(hasGift(p.gift_money) ? [[t('buy.gift'), money(p.gift_money)] as [string, string]] : []),
    [t('buy.total'), money(sumMoney(p.money, p.gift_money))],
  ];

  const outline = (type: 'BACK' | 'CLOSE' | 'AGAIN', id: MessageId, disabled = false) => (
    <Button variant="outline" disabled={disabled} onClick={() => send(type)}>
      {t(id)}
    </Button>
  );
  const footer = (() => {
    switch (step) {
      case 'loading':
        return outline('CLOSE', 'form.cancel');
      case 'loadFailed':
      case 'noneOnSale':
        return (
          <>
            {outline('CLOSE', 'form.close')}
            <Button onClick={() => send('RETRY')}>
              {t(step === 'loadFailed' ? 'property.retry' : 'buy.checkAgain')}
            </Button>
          </>
        );
      case 'choosing':
        return (
          <>
            {outline('CLOSE', 'form.cancel')}
            <Button type="submit">{t('property.next')}</Button>
          </>
        );
      case 'confirming':
      case 'creating': {
        const busy = step === 'creating';
        return (
          <>
            {outline('BACK', 'property.back', busy)}
            <Button
              loading={busy}
              loadingText={t('buy.confirm')}
              aria-busy={busy}
              onClick={() => send('SUBMIT')}
            >
              {t('buy.confirm')}
            </Button>
          </>
        );
      }
      case 'createFailed':
        return (
          <>
            {outline('BACK', 'property.back')}
            <Button onClick={() => send('RETRY')}>{t('property.retry')}</Button>
          </>
        );
      case 'paying':
        return (
          <>
            {outline('CLOSE', 'form.close')}
            {outline('AGAIN', 'buy.otherPackage')}
            <Button
              variant="outline"
              loading={checking && context.byHand}
              loadingText={t('buy.checkNow')}
              aria-busy={checking && context.byHand}
              onClick={() => send('CHECK')}
            >
              {t('buy.checkNow')}
            </Button>
          </>
        );
      case 'lastCheck':
        return outline('CLOSE', 'form.close');
      case 'paid':
      case 'expired':
        return (
          <>
            {outline('AGAIN', step === 'paid' ? 'buy.another' : 'buy.again')}
            <Button onClick={() => send('CLOSE')}>{t('form.close')}</Button>
          </>
        );
      default:
        return null;
    }
  })();

  const chosen = context.chosen;
  const order = context.order;
  const seen = context.seen;
  return (
    <StepDialog
      open={snapshot.hasTag('open')}
      title={t('buy.title')}
      busy={snapshot.hasTag('busy')}
      onClose={() => send('CLOSE')}
      onSubmit={step === 'choosing' ? choose : undefined}
      footer={footer}
      testId="recharge-dialog"
    >
      {step === 'loading' && (
        <HStack gap="2" role="status">
          <Spinner size="sm" />
          <Text>{t('buy.loading')}</Text>
        </HStack>
      )}
      {step === 'loadFailed' && <FailureAlert error={context.error} />}
      {step === 'noneOnSale' && <Text role="status">{t('buy.noneOnSale')}</Text>}
      {step === 'choosing' && (
        <PackageChoice
          packages={context.packages}
          picked={context.picked}
          onPick={(id) => actor.send({ type: 'PICK', id })}
          error={context.pickError ? formatText(intl, context.pickError) : null}
          moneyName={moneyName}
        />
      )}
      {(step === 'confirming' || step === 'creating' || step === 'createFailed') && chosen && (
        <>
          <Text>{t('buy.confirmText')}</Text>
          {/* The only payment method today is the sandbox: say it charges nothing. */}
          <Text fontSize="sm" fontWeight="medium">
            {t('buy.testPayment')}
          </Text>
          <Summary
            label={t('buy.package')}
            items={[
              [t('buy.package'), chosen.name],
              [t('buy.price'), cny(chosen.price)],
              ...credited(chosen),
            ]}
          />
        </>
      )}
      {step === 'createFailed' && (
        <FailureAlert
          error={context.error}
          hint={context.uncertain ? t('buy.uncertain') : undefined}
        />
      )}
      {step === 'paying' && order && (
        <>
          <Text>{t('buy.payingText')}</Text>
          {order.pay_way === 'sandbox' && (
            <Text fontSize="sm" fontWeight="medium">
              {t('buy.testPayment')}
            </Text>
          )}
          <Summary
            label={t('buy.order')}
            items={[...orderItems(order), [t('buy.payBy'), formatDateTime(order.expires_at)]]}
          />
          {/* A real link: popup blockers let it through and a keyboard reaches it. */}
          <Button asChild alignSelf="flex-start">
            <a href={payPageUrl(order.pay_url)} target="_blank" rel="noopener">
              {t('buy.goPay')}
            </a>
          </Button>
          <Stack gap="1" role="status" aria-live="polite">
            <HStack gap="2">
              {checking && <Spinner size="xs" />}
              <Text>{t('buy.waiting')}</Text>
            </HStack>
            {context.notPaidYet && <Text data-testid="not-paid-yet">{t('buy.notPaidYet')}</Text>}
            {context.pollFailures >= STILL_CHECKING_AFTER && (
              <Text color="fg.warning" data-testid="still-checking">
                {t('buy.stillChecking')}
              </Text>
            )}
          </Stack>
          <Text fontSize="sm" color="fg.muted">
            {t('buy.closeNote', { time: formatDateTime(order.expires_at) })}
          </Text>
        </>
      )}
      {step === 'lastCheck' && (
        <HStack gap="2" role="status">
          <Spinner size="sm" />
          <Text>{t('buy.lastCheck')}</Text>
        </HStack>
      )}
      {step === 'paid' && seen && (
        <>
          <Text role="status">{t('buy.paid')}</Text>
          <Text>{t('buy.paidText')}</Text>
          <Summary label={t('buy.paid')} items={[...orderItems(seen), ...credited(seen)]} />
        </>
      )}
      {step === 'expired' && (
        <>
          <Text role="status">{t('buy.expired')}</Text>
          <Text>{t('buy.expiredText')}</Text>
          {order && <Summary label={t('buy.order')} items={orderItems(order)} />}
        </>
      )}
    </StepDialog>
  );
}
