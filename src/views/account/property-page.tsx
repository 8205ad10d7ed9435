import { Button, Card, HStack, Heading, Skeleton, Stack, Tabs, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { useAppActors } from '../../app/actors/actors-context';
import { useArea } from '../../app/actors/areas';
import { moneyArea } from '../../app/actors/money';
import { useListActor } from '../../app/hooks/use-list';
import { useLoadActor } from '../../app/hooks/use-load';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { LoadFailed } from '../../components/load-failed';
import { Page } from '../../components/page';
import { StatGrid } from '../../components/stat-grid';
import type { MessageId } from '../../i18n/messages';
import { ASSET_LABEL, exchangeOptions, formatMoney, transferableAssets } from '../shared/amounts';
import { formatDhTime } from '../shared/dh-time';
import { CardRedeem } from '../shared/card-redeem-dialog';
import { MyOrdersSection } from './my-orders-section';
import { RechargeBuy } from './recharge-dialog';
import { ExchangeDialog } from './exchange-dialog';
import { TransferDialog } from '../shared/transfer-dialog';
import { LedgerSection } from '../shared/ledger-section';
import { TransfersSection } from './transfers-section';

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
  // The money name and the exchange offer come with the branding: until it is known, a
  // skeleton holds their place (no "余额" first, no button appearing later).
  const brandingKnown = useSelector(branding, (s) => !s.hasTag('brandingPending'));
  const area = useArea(moneyArea);
  const account = useLoadActor(area.account);
  const ledger = useListActor(area.ledger);
  const transfers = useListActor(area.transfers);
  const { exchange: exchangeActor, transfer: transferActor } = area;

  const options = useMemo(() => exchangeOptions(info, user), [info, user]);
  const assets = useMemo(() => transferableAssets(user), [user]);
  const balances = account.data;
  const money = formatMoney(balances?.money ?? '0');
  const me = user && user.user_type !== 0 ? { name: user.name, username: user.username } : null;
  const isMerchant = user?.user_type === 2;
  return (
    <Page
      title={t('route.property')}
      actions={
        <HStack gap="2">
          {!brandingKnown && <Skeleton height="10" width="24" data-testid="exchange-pending" />}
          {brandingKnown && options.length > 0 && (
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
      <Skeleton loading={(account.loading && !balances) || !brandingKnown}>
        <StatGrid
          stats={[
            {
              testId: 'balance-money',
              // No default name first: the label waits for the branding (under the skeleton).
              label: brandingKnown ? t('stats.money', { moneyName }) : '',
              value: money,
            },
            {
              testId: 'balance-minutes',
              label: t('stats.digitalManTime'),
              value: formatDhTime(t, balances?.digital_man_seconds ?? 0),
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
        <TransferDialog
          actor={transferActor}
          assets={assets}
          moneyName={moneyName}
          me={me}
          balances={me ? balances : null}
        />
      )}
    </Page>
  );
}
