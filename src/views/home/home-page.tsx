import { Skeleton } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { useIntl } from 'react-intl';
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
const DashboardCharts = lazy(withLaterTheme(() => import('../dashboard/dashboard-charts')));

/** /home/index: platform totals for the admin, and the latest notices (as its readers see them). */
export default function HomePage() {
  const intl = useIntl();
  const moneyName = useMoneyName();
  const { data, loading, failed, reload } = useLoadActor(useArea(dashboardArea).totals, {
    fresh: true,
  });
  const t = (id: MessageId) => intl.formatMessage({ id });
  return (
    <Page title={t('route.home')}>
      {failed && <LoadFailed onRetry={reload} />}
      <Skeleton loading={loading}>
        <StatGrid
          stats={[
            { testId: 'stat-partners', label: t('stats.partners'), value: data?.partners ?? 0 },
            { testId: 'stat-agents', label: t('stats.agents'), value: data?.agents ?? 0 },
            { testId: 'stat-merchants', label: t('stats.merchants'), value: data?.merchants ?? 0 },
            {
              testId: 'stat-users-today',
              label: t('stats.usersToday'),
              value: data?.users_today ?? 0,
            },
            {
              testId: 'stat-money',
              label: intl.formatMessage({ id: 'stats.money' }, { moneyName }),
              value: data?.money ?? '0',
            },
            {
              testId: 'stat-minutes',
              label: t('stats.digitalManTime'),
              value: formatDhTime(
                (id, values) => intl.formatMessage({ id }, values),
                data?.digital_man_seconds ?? 0,
              ),
            },
            {
              testId: 'stat-voices',
              label: t('stats.voiceClones'),
              value: data?.voice_clone_count ?? 0,
            },
            {
              testId: 'stat-images',
              label: t('stats.imageClones'),
              value: data?.image_clone_count ?? 0,
            },
          ]}
        />
      </Skeleton>
      <NoticeBoard />
      {data && (
        <Suspense fallback={null}>
          <DashboardCharts />
        </Suspense>
      )}
    </Page>
  );
}
