import type { MessageId } from '../../i18n/messages';
import { Alert, Button, SimpleGrid, Skeleton } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { getDashboardData } from '../../api/dashboard';
import { useLoad } from '../../app/use-load';
import { Page } from '../../components/page';
import { StatCard } from '../../components/stat-card';
import { useMoneyName } from '../../app/use-money-name';

/** /home/index: platform totals for the admin. */
export default function HomePage() {
  const intl = useIntl();
  const moneyName = useMoneyName();
  const { data, loading, failed, reload } = useLoad('homeTotals', getDashboardData);
  const t = (id: MessageId) => intl.formatMessage({ id });
  return (
    <Page title={t('route.home')}>
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
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
          <StatCard
            testId="stat-partners"
            label={t('stats.partners')}
            value={data?.partners ?? 0}
          />
          <StatCard testId="stat-agents" label={t('stats.agents')} value={data?.agents ?? 0} />
          <StatCard
            testId="stat-merchants"
            label={t('stats.merchants')}
            value={data?.merchants ?? 0}
          />
          <StatCard
            testId="stat-users-today"
            label={t('stats.usersToday')}
            value={data?.users_today ?? 0}
          />
          <StatCard
            testId="stat-money"
            label={intl.formatMessage({ id: 'stats.money' }, { moneyName })}
            value={data?.money ?? '0'}
          />
          <StatCard
            testId="stat-minutes"
            label={t('stats.digitalManMinutes')}
            value={Math.floor((data?.digital_man_seconds ?? 0) / 60)}
          />
          <StatCard
            testId="stat-voices"
            label={t('stats.voiceClones')}
            value={data?.voice_clone_count ?? 0}
          />
          <StatCard
            testId="stat-images"
            label={t('stats.imageClones')}
            value={data?.image_clone_count ?? 0}
          />
        </SimpleGrid>
      </Skeleton>
    </Page>
  );
}
