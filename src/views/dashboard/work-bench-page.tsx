import { Button, Heading, Skeleton, Stack } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import { useAppActors } from '../../app/actors/actors-context';
import { useArea } from '../../app/actors/areas';
import { dashboardArea } from '../../app/actors/dashboard';
import { useLoadActor } from '../../app/hooks/use-load';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { LoadFailed } from '../../components/load-failed';
import { Page } from '../../components/page';
import { StatGrid } from '../../components/stat-grid';
import type { MessageId } from '../../i18n/messages';
import { formatDhTime } from '../shared/dh-time';
import { NoticeBoard } from '../shared/notice-board';
import { withLaterTheme } from '../../app/routes/lazy';

/** The charts and their library: a chunk loaded after the totals (docs/performance.md b). */
const DashboardCharts = lazy(withLaterTheme(() => import('./dashboard-charts')));

/**
 * /dashboard/workBench: the user's own balances, the way to create a video
 * (/dashboard/to-create-video), for a partner the counts of the customers it looks after (a
 * merchant has none), and the domain's latest notices.
 */
export default function WorkBenchPage() {
  const intl = useIntl();
  const merchant = useSelector(useAppActors().auth, (s) => s.context.role === 'merchant');
  const moneyName = useMoneyName();
  const { data, loading, failed, reload } = useLoadActor(useArea(dashboardArea).workBench, {
    fresh: true,
  });
  const t = (id: MessageId) => intl.formatMessage({ id });
  const account = data?.account;
  const totals = data?.totals;
  return (
    <Page
      title={t('route.workBench')}
      actions={
        <Button asChild size="sm">
          <RouterLink to="/dashboard/to-create-video">{t('route.toCreateVideo')}</RouterLink>
        </Button>
      }
    >
      {failed && <LoadFailed onRetry={reload} />}
      <Skeleton loading={loading}>
        <Stack gap="6">
          <Heading as="h2" size="md">
            {t('workBench.balances')}
          </Heading>
          <StatGrid
            stats={[
              {
                testId: 'balance-money',
                label: intl.formatMessage({ id: 'stats.money' }, { moneyName }),
                value: account?.money ?? '0',
              },
              {
                testId: 'balance-minutes',
                label: t('stats.digitalManTime'),
                value: formatDhTime(
                  (id, values) => intl.formatMessage({ id }, values),
                  account?.digital_man_seconds ?? 0,
                ),
              },
              {
                testId: 'balance-voices',
                label: t('stats.voiceClones'),
                value: account?.voice_clone_count ?? 0,
              },
              {
                testId: 'balance-images',
                label: t('stats.imageClones'),
                value: account?.image_clone_count ?? 0,
              },
            ]}
          />
          {!merchant && (
            <>
              <Heading as="h2" size="md">
                {t('workBench.counts')}
              </Heading>
              <StatGrid
                stats={[
                  { testId: 'count-agents', label: t('stats.agents'), value: totals?.agents ?? 0 },
                  {
                    testId: 'count-merchants',
                    label: t('stats.merchants'),
                    value: totals?.merchants ?? 0,
                  },
                  {
                    testId: 'count-users-today',
                    label: t('stats.usersToday'),
                    value: totals?.users_today ?? 0,
                  },
                ]}
              />
            </>
          )}
        </Stack>
      </Skeleton>
      <NoticeBoard />
      {data && (
        <Suspense fallback={null}>
          <DashboardCharts withoutNewUsers={merchant} />
        </Suspense>
      )}
    </Page>
  );
}
