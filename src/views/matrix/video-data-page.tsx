import {
  Alert,
  Box,
  Button,
  Card,
  Field,
  Heading,
  HStack,
  Link,
  NativeSelect,
  Spinner,
  Stack,
  Table,
  Text,
  VisuallyHidden,
  Wrap,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useId, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { VideoData } from '../../api/contract/matrix-plans';
import { useArea } from '../../app/actors/areas';
import {
  matrixVideoDataArea,
  type MatrixVideoDataActors,
} from '../../app/actors/matrix-video-data';
import { FilterSelect } from '../../components/filter-bar';
import { Page } from '../../components/page';
import { StatGrid } from '../../components/stat-grid';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { VIDEO_DATA_PERIODS, type VideoDataPeriod } from '../../machines/matrix-video-data';
import { useT } from '../shared/use-t';

/** The CSV's header row, in its columns' order (src/app/actors/matrix-video-data.ts). */
const CSV_HEADERS: MessageId[] = [
  'videoData.colPublishedAt',
  'videoData.colAccount',
  'videoData.colPlan',
  'videoData.colTitle',
  'videoData.plays',
  'videoData.likes',
  'videoData.comments',
  'videoData.shares',
  'videoData.colShareUrl',
];

/**
 * /matrix-distribution/video-data (partner, merchant): the published posts' numbers over the last
 * 7, 30 or 90 days, for an account and a plan or all: the totals, a chart of each day's plays and
 * likes (its numbers also as a table), per account, the top posts, and "Export CSV" (the rows).
 * The video data area owns the calls and the file; this view selects and sends.
 */
export default function VideoDataPage() {
  const t = useT();
  const intl = useIntl();
  const area = useArea(matrixVideoDataArea);
  const data = useSelector(area.page, (s) => (s.matches('ready') ? s.context.data : null));
  const canExport = (data?.rows.length ?? 0) > 0;
  return (
    <Page
      title={t('route.videoData')}
      actions={
        <Button
          size="sm"
          variant="outline"
          disabled={!canExport}
          onClick={() =>
            area.page.send({
              type: 'EXPORT',
              locale: intl.locale,
              headers: CSV_HEADERS.map((id) => t(id)),
            })
          }
        >
          {t('videoData.export')}
        </Button>
      }
    >
      <VideoDataFilters area={area} />
      <VideoDataBody area={area} />
    </Page>
  );
}

/** Period, account and plan: each change loads at once. */
function VideoDataFilters(props: { area: MatrixVideoDataActors }) {
  const t = useT();
  const { page } = props.area;
  const filters = useSelector(page, (s) => s.context.filters);
  const accounts = useSelector(props.area.accounts, (s) => s.context.data?.list ?? []);
  const plans = useSelector(props.area.plans, (s) => s.context.data?.list ?? []);
  const toId = (v: string) => (v === '' ? null : Number(v));
  return (
    <Wrap gap="3" role="group" aria-label={t('videoData.filters')} alignItems="flex-end">
      <Field.Root width="auto" minWidth="36">
        <Field.Label fontSize="sm">{t('videoData.period')}</Field.Label>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            value={String(filters.period)}
            onChange={(e) =>
              page.send({
                type: 'SET_PERIOD',
                period: Number(e.currentTarget.value) as VideoDataPeriod,
              })
            }
          >
            {VIDEO_DATA_PERIODS.map((days) => (
              <option key={days} value={days}>
                {t('videoData.lastDays', { days })}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <FilterSelect
        label={t('videoData.account')}
        value={filters.accountId === null ? '' : String(filters.accountId)}
        allLabel={t('videoData.allAccounts')}
        onChange={(v) => page.send({ type: 'SET_ACCOUNT', accountId: toId(v) })}
        options={accounts.map((a) => ({ value: String(a.id), label: a.nickname }))}
      />
      <FilterSelect
        label={t('videoData.plan')}
        value={filters.planId === null ? '' : String(filters.planId)}
        allLabel={t('videoData.allPlans')}
        onChange={(v) => page.send({ type: 'SET_PLAN', planId: toId(v) })}
        options={plans.map((p) => ({ value: String(p.id), label: p.name }))}
      />
    </Wrap>
  );
}

function VideoDataBody(props: { area: MatrixVideoDataActors }) {
  const t = useT();
  const intl = useIntl();
  const { page } = props.area;
  const state = useSelector(page, (s) =>
    s.matches('ready') ? 'ready' : s.matches('failed') ? 'failed' : 'loading',
  );
  const data = useSelector(page, (s) => s.context.data);
  const error = useSelector(page, (s) => s.context.error);
  if (state === 'loading')
    return (
      <HStack role="status" gap="2" data-testid="video-data-loading">
        <Spinner size="sm" />
        <Text>{t('videoData.loading')}</Text>
      </HStack>
    );
  if (state === 'failed' || !data)
    return (
      <Alert.Root status="error" role="alert" data-testid="video-data-failed">
        <Alert.Indicator />
        <Alert.Title flex="1">{formatText(intl, error ?? 'http.requestError')}</Alert.Title>
        <Button size="xs" variant="outline" onClick={() => page.send({ type: 'RELOAD' })}>
          {t('load.retry')}
        </Button>
      </Alert.Root>
    );
  if (data.totals.posts === 0)
    return (
      <Text color="fg.muted" data-testid="video-data-empty">
        {t('videoData.empty')}
      </Text>
    );
  return <VideoDataReport data={data} />;
}

function VideoDataReport(props: { data: VideoData }) {
  const t = useT();
  const intl = useIntl();
  const n = (v: number) => intl.formatNumber(v);
  const { totals, accounts, top } = props.data;
  const names = new Map(accounts.map((a) => [a.account_id, a.nickname]));
  return (
    <Stack gap="5" data-testid="video-data-report">
      <StatGrid
        stats={[
          { testId: 'video-data-posts', label: t('videoData.posts'), value: n(totals.posts) },
          { testId: 'video-data-plays', label: t('videoData.plays'), value: n(totals.plays) },
          { testId: 'video-data-likes', label: t('videoData.likes'), value: n(totals.likes) },
          {
            testId: 'video-data-comments',
            label: t('videoData.comments'),
            value: n(totals.comments),
          },
          { testId: 'video-data-shares', label: t('videoData.shares'), value: n(totals.shares) },
        ]}
      />
      <DailyChart daily={props.data.daily} />
      <Section title={t('videoData.perAccount')}>
        <SimpleTable
          label={t('videoData.perAccount')}
          testId="video-data-accounts"
          headers={[
            t('videoData.colAccount'),
            t('videoData.posts'),
            t('videoData.plays'),
            t('videoData.likes'),
            t('videoData.comments'),
            t('videoData.shares'),
          ]}
          rows={accounts.map((a) => ({
            key: a.account_id,
            cells: [a.nickname, n(a.posts), n(a.plays), n(a.likes), n(a.comments), n(a.shares)],
          }))}
        />
      </Section>
      <Section title={t('videoData.top')}>
        <SimpleTable
          label={t('videoData.top')}
          testId="video-data-top"
          headers={[
            t('videoData.colTitle'),
            t('videoData.colAccount'),
            t('videoData.plays'),
            t('videoData.likes'),
            t('videoData.comments'),
            t('videoData.shares'),
            t('videoData.colShareUrl'),
          ]}
          rows={top.map((p) => ({
            key: p.id,
            cells: [
              p.title,
              names.get(p.account_id) ?? `#${p.account_id}`,
              n(p.metrics.plays),
              n(p.metrics.likes),
              n(p.metrics.comments),
              n(p.metrics.shares),
              p.share_url ? (
                <Link
                  href={p.share_url}
                  target="_blank"
                  rel="noopener noreferrer"
                  color="blue.fg"
                  aria-label={t('videoData.openPost', { title: p.title })}
                >
                  {t('videoData.open')}
                </Link>
              ) : (
                '—'
              ),
            ],
          }))}
        />
      </Section>
    </Stack>
  );
}

function Section(props: { title: string; children: ReactNode }) {
  return (
    <Card.Root size="sm" variant="outline">
      <Card.Body gap="3">
        <Heading as="h2" size="sm">
          {props.title}
        </Heading>
        {props.children}
      </Card.Body>
    </Card.Root>
  );
}

function SimpleTable(props: {
  label: string;
  testId: string;
  headers: string[];
  rows: { key: number; cells: ReactNode[] }[];
}) {
  return (
    <Box overflowX="auto">
      <Table.Root size="sm" aria-label={props.label} data-testid={props.testId}>
        <Table.Header>
          <Table.Row>
            {props.headers.map((h, i) => (
              <Table.ColumnHeader key={h} textAlign={i === 0 ? 'start' : 'end'}>
                {h}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {props.rows.map((r) => (
            <Table.Row key={r.key}>
              {r.cells.map((c, i) => (
                <Table.Cell key={i} textAlign={i === 0 ? 'start' : 'end'}>
                  {c}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}

const CHART_HEIGHT = 160;

/** Each day's plays and likes as bars (one scale), and the same numbers as a table. */
function DailyChart(props: { daily: VideoData['daily'] }) {
  const t = useT();
  const intl = useIntl();
  const titleId = useId();
  const { daily } = props;
  const max = Math.max(1, ...daily.map((d) => Math.max(d.plays, d.likes)));
  const slot = 24;
  const width = Math.max(slot, daily.length * slot);
  const bar = (v: number) => (v / max) * (CHART_HEIGHT - 4);
  return (
    <Section title={t('videoData.daily')}>
      <HStack gap="4" fontSize="sm" aria-hidden="true">
        <HStack gap="1">
          <Box width="3" height="3" bg="blue.500" />
          <Text>{t('videoData.plays')}</Text>
        </HStack>
        <HStack gap="1">
          <Box width="3" height="3" bg="orange.400" />
          <Text>{t('videoData.likes')}</Text>
        </HStack>
      </HStack>
      <Box overflowX="auto">
        <svg
          role="img"
          aria-labelledby={titleId}
          viewBox={`0 0 ${width} ${CHART_HEIGHT}`}
          width="100%"
          height={CHART_HEIGHT}
          preserveAspectRatio="none"
          data-testid="video-data-chart"
        >
          <title id={titleId}>{t('videoData.chartLabel', { days: daily.length })}</title>
          {daily.map((d, i) => (
            <g key={d.date}>
              <rect
                x={i * slot + 3}
                y={CHART_HEIGHT - bar(d.plays)}
                width={9}
                height={bar(d.plays)}
                fill="var(--chakra-colors-blue-500)"
              />
              <rect
                x={i * slot + 12}
                y={CHART_HEIGHT - bar(d.likes)}
                width={9}
                height={bar(d.likes)}
                fill="var(--chakra-colors-orange-400)"
              />
            </g>
          ))}
        </svg>
      </Box>
      <details data-testid="video-data-daily">
        <summary>
          <Text as="span" fontSize="sm">
            {t('videoData.showTable')}
          </Text>
        </summary>
        <Table.Root size="sm" marginTop="2">
          <Table.Caption>
            <VisuallyHidden>{t('videoData.daily')}</VisuallyHidden>
          </Table.Caption>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('videoData.date')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('videoData.plays')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('videoData.likes')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('videoData.comments')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('videoData.shares')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {daily.map((d) => (
              <Table.Row key={d.date}>
                <Table.Cell>{d.date}</Table.Cell>
                <Table.Cell textAlign="end">{intl.formatNumber(d.plays)}</Table.Cell>
                <Table.Cell textAlign="end">{intl.formatNumber(d.likes)}</Table.Cell>
                <Table.Cell textAlign="end">{intl.formatNumber(d.comments)}</Table.Cell>
                <Table.Cell textAlign="end">{intl.formatNumber(d.shares)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </details>
    </Section>
  );
}
