import type { MessageId } from '../../i18n/messages';
import { Alert, Button, Heading, SimpleGrid, Skeleton, Stack } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { getAccount, getDashboardData } from '../../api/dashboard';
import { useLoad } from '../../app/use-load';
import { useMoneyName } from '../../app/use-money-name';
import { Page } from '../../components/page';
import { StatCard } from '../../components/stat-card';

async function loadWorkBench() {
  const [account, totals] = await Promise.all([getAccount(), getDashboardData()]);
  return { account, totals };
}

/** /dashboard/workBench: the user's own balances and the counts of what they look after. */
export default function WorkBenchPage() {
  const intl = useIntl();
  const moneyName = useMoneyName();
  const { data, loading, failed, reload } = useLoad('workBench', loadWorkBench);
  const t = (id: MessageId) => intl.formatMessage({ id });
  const account = data?.account;
  const totals = data?.totals;
  return (
    <Page title={t('route.workBench')}>
      {failed && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{t('load.failed')}</Alert.Title>
          <Button size="xs" variant="outline" marginStart="auto" onClick={reload}>
            {t('load.retry')}
          </Button>
        </Alert.Root>
      )}
      <Skeleton loading={loading}>
        <Stack gap="6">
          <Stack gap="3">
            <Heading as="h2" size="md">
              {t('workBench.balances')}
            </Heading>
            <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
              <StatCard
                testId="balance-money"
                label={intl.formatMessage({ id: 'stats.money' }, { moneyName })}
                value={account?.money ?? '0'}
              />
              <StatCard
                testId="balance-minutes"
                label={t('stats.digitalManMinutes')}
                value={Math.floor((account?.digital_man_seconds ?? 0) / 60)}
              />
              <StatCard
                testId="balance-voices"
                label={t('stats.voiceClones')}
                value={account?.voice_clone_count ?? 0}
              />
              <StatCard
                testId="balance-images"
                label={t('stats.imageClones')}
                value={account?.image_clone_count ?? 0}
              />
            </SimpleGrid>
          </Stack>
          <Stack gap="3">
            <Heading as="h2" size="md">
              {t('workBench.counts')}
            </Heading>
            <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
              <StatCard
                testId="count-agents"
                label={t('stats.agents')}
                value={totals?.agents ?? 0}
              />
              <StatCard
                testId="count-merchants"
                label={t('stats.merchants')}
                value={totals?.merchants ?? 0}
              />
              <StatCard
                testId="count-users-today"
                label={t('stats.usersToday')}
                value={totals?.users_today ?? 0}
              />
            </SimpleGrid>
          </Stack>
        </Stack>
      </Skeleton>
    </Page>
  );
}
