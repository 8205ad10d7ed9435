import { Button, Card, HStack, Heading, Skeleton, Stack, Tabs, Text } from '@chakra-ui/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { useIntl } from 'react-intl';
import { fromPromise } from 'xstate';
import type { MoneyLogRow, TransferRecord } from '../../api/contract/money';
import { getAccount } from '../../api/dashboard';
import { exchange, getMoneyLog, getTransferRecords, newIdempotencyKey } from '../../api/money';
import { useAppActors } from '../../app/actors/actors-context';
import { useArea } from '../../app/actors/areas';
import { cardsArea } from '../../app/actors/cards';
import { rechargeArea } from '../../app/actors/recharge';
import { useList } from '../../app/hooks/use-list';
import { useLoad } from '../../app/hooks/use-load';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { LoadFailed } from '../../components/load-failed';
import { Page } from '../../components/page';
import { StatGrid } from '../../components/stat-grid';
import type { MessageId } from '../../i18n/messages';
import { exchangeMachine } from '../../machines/exchange';
import {
  ASSET_LABEL,
  exchangeOptions,
  formatMinutes,
  formatMoney,
  transferableAssets,
} from './amounts';
import { CardRedeem } from '../promotion/card-redeem-dialog';
import { MyOrdersSection } from './my-orders-section';
import { RechargeBuy } from './recharge-dialog';
import { movedSomething, useTransferActor } from './use-transfer';
import { ExchangeDialog } from './exchange-dialog';
import { TransferDialog } from './transfer-dialog';
import {
  LedgerSection,
  NO_LEDGER_FILTERS,
  ledgerQuery,
  type LedgerFilters,
} from './ledger-section';
import {
  NO_TRANSFER_FILTERS,
  TransfersSection,
  transferQuery,
  type TransferFilters,
} from './transfers-section';

const PER_UNIT: Record<string, MessageId> = {
  digital_man: 'property.perMinute',
  digital_voice: 'property.perClone',
  image_clone: 'property.perClone',
};

/** /account/property: balances, exchange, transfer (admin, partner), the ledger and transfers. */
export default function PropertyPage() {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const moneyName = useMoneyName();
  const { auth, branding } = useAppActors();
  const user = useSelector(auth, (s) => s.context.user);
  const info = useSelector(branding, (s) => s.context.info);
  const account = useLoad('propertyAccount', () => getAccount());

  const ledger = useList<LedgerFilters, MoneyLogRow>(
    'ledger',
    ({ filters, page, limit }, signal) =>
      getMoneyLog({ ...ledgerQuery(filters), page, limit }, { signal }),
    NO_LEDGER_FILTERS,
  );
  const transfers = useList<TransferFilters, TransferRecord>(
    'transferRecords',
    ({ filters, page, limit }, signal) =>
      getTransferRecords({ ...transferQuery(filters), page, limit }, { signal }),
    NO_TRANSFER_FILTERS,
  );

  const exchangeActor = useActorRef(
    exchangeMachine.provide({
      actors: {
        submit: fromPromise(({ input }) =>
          exchange({ asset: input.draft.asset, quantity: input.draft.quantity }, input.key),
        ),
      },
    }),
    { input: { newKey: newIdempotencyKey } },
  );
  const transferActor = useTransferActor();

  // After a call that may have moved something, show the balances and lists afresh.
  const { reload: reloadAccount } = account;
  const { reload: reloadLedger } = ledger;
  const { reload: reloadTransfers } = transfers;
  const exchangeMoved = useSelector(exchangeActor, movedSomething);
  const transferMoved = useSelector(transferActor, movedSomething);
  useEffect(() => {
    if (!exchangeMoved && !transferMoved) return;
    reloadAccount();
    reloadLedger();
    reloadTransfers();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [exchangeMoved, transferMoved]);

  const options = useMemo(() => exchangeOptions(info, user), [info, user]);
  const assets = useMemo(() => transferableAssets(user), [user]);
  const balances = account.data;
  const money = formatMoney(balances?.money ?? '0');
  const me = user && user.user_type !== 0 ? user.nickname || user.username : null;
  const isMerchant = user?.user_type === 2;
  /** Payments seen by the buy dialog: the merchant's order list reloads after each. */
  const paid = useSelector(useArea(rechargeArea).buy, (st) => st.context.paid);
  const redeemed = useSelector(useArea(cardsArea).redeem, (st) => st.context.redeemed);
  useEffect(() => {
    if (paid === 0 && redeemed === 0) return;
    reloadAccount();
    reloadLedger();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [paid, redeemed]);

  return (
    <Page
      title={t('route.property')}
      actions={
        <HStack gap="2">
          {options.length > 0 && (
            <Button onClick={() => exchangeActor.send({ type: 'OPEN' })}>
              {t('property.exchange')}
            </Button>
          )}
          {assets.length > 0 && (
            <Button variant="outline" onClick={() => transferActor.send({ type: 'OPEN' })}>
              {t('property.transfer')}
            </Button>
          )}
          {(user?.user_type === 1 || user?.user_type === 2) && <CardRedeem />}
          {/* The accounts that hold balances buy; the admin is the platform (overstep may buy). */}
          {(user?.user_type === 1 || user?.user_type === 2) && <RechargeBuy />}
        </HStack>
      }
    >
      {account.failed && <LoadFailed onRetry={account.reload} />}
      <Heading as="h2" size="md">
        {t('property.balances')}
      </Heading>
      <Skeleton loading={account.loading && !balances}>
        <StatGrid
          stats={[
            {
              testId: 'balance-money',
              label: t('stats.money', { moneyName }),
              value: money,
            },
            {
              testId: 'balance-minutes',
              label: t('stats.digitalManMinutes'),
              value: formatMinutes(balances?.digital_man_seconds ?? 0),
            },
            {
              testId: 'balance-voices',
              label: t('stats.voiceClones'),
              value: balances?.voice_clone_count ?? 0,
            },
            {
              testId: 'balance-images',
              label: t('stats.imageClones'),
              value: balances?.image_clone_count ?? 0,
            },
          ]}
        />
      </Skeleton>
      {options.length > 0 && (
        <Card.Root size="sm" variant="subtle">
          <Card.Body>
            <Stack gap="1" as="ul" listStyleType="none" aria-label={t('property.rates')}>
              {options.map((o) => (
                <Text as="li" key={o.asset} fontSize="sm" data-testid={`rate-${o.asset}`}>
                  {`${t(ASSET_LABEL[o.asset], { moneyName })}: ${
                    o.price === null
                      ? t('property.priceUnknown')
                      : t(PER_UNIT[o.asset], { price: `${formatMoney(o.price)} ${moneyName}` })
                  }`}
                </Text>
              ))}
            </Stack>
          </Card.Body>
        </Card.Root>
      )}
      <Tabs.Root defaultValue="ledger" variant="line">
        <Tabs.List>
          <Tabs.Trigger value="ledger">{t('property.ledger')}</Tabs.Trigger>
          <Tabs.Trigger value="transfers">{t('property.transfers')}</Tabs.Trigger>
          {isMerchant && <Tabs.Trigger value="orders">{t('property.myOrders')}</Tabs.Trigger>}
        </Tabs.List>
        <Tabs.Content value="ledger">
          <LedgerSection list={ledger} moneyName={moneyName} />
        </Tabs.Content>
        <Tabs.Content value="transfers">
          <TransfersSection list={transfers} moneyName={moneyName} />
        </Tabs.Content>
        {isMerchant && (
          <Tabs.Content value="orders">
            <MyOrdersSection moneyName={moneyName} />
          </Tabs.Content>
        )}
      </Tabs.Root>
      <ExchangeDialog actor={exchangeActor} options={options} moneyName={moneyName} money={money} />
      {assets.length > 0 && (
        <TransferDialog actor={transferActor} assets={assets} moneyName={moneyName} me={me} />
      )}
    </Page>
  );
}
