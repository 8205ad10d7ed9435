/**
 * The dashboard's charts (docs/domain.md §22): a chunk of its own, drawn by our small SVG bar
 * chart (./bar-chart.tsx; docs/decisions.md "The dashboard's charts are our own SVG"), loaded by
 * the home page and the work bench after their totals (React.lazy), so /login does not carry it
 * (docs/performance.md "b. Bytes"). Each chart is a figure named by its title, with a text
 * summary and a table of its days for screen readers (the drawing itself is hidden from them).
 */
import {
  Box,
  Button,
  ButtonGroup,
  Heading,
  HStack,
  SimpleGrid,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useIntl } from 'react-intl';
import { SERIES_DAYS, type SeriesPoint } from '../../api/contract/dashboard';
import { useArea } from '../../app/actors/areas';
import { dashboardArea } from '../../app/actors/dashboard';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { LoadFailed } from '../../components/load-failed';
import type { MessageId } from '../../i18n/messages';
import { BarChart } from './bar-chart';

type Figure = Exclude<keyof SeriesPoint, 'date'>;

/** Each chart: its figure, title and colour token; money figures are 2-decimal strings. */
const CHARTS: { figure: Figure; title: MessageId; color: string; money?: boolean }[] = [
  { figure: 'new_users', title: 'charts.newUsers', color: 'teal.solid' },
  { figure: 'recharge', title: 'charts.recharge', color: 'green.solid', money: true },
  { figure: 'spend_video', title: 'charts.spendVideo', color: 'orange.solid', money: true },
  { figure: 'spend_digital_human', title: 'charts.spendDigitalHuman', color: 'purple.solid' },
  { figure: 'spend_clones', title: 'charts.spendClones', color: 'pink.solid' },
  { figure: 'videos', title: 'charts.videos', color: 'blue.solid' },
  { figure: 'posts', title: 'charts.posts', color: 'cyan.solid' },
];

export interface DashboardChartsProps {
  /** Leave out the new-users chart (a merchant signs nobody up). */
  withoutNewUsers?: boolean;
}

export default function DashboardCharts({ withoutNewUsers = false }: DashboardChartsProps) {
  const intl = useIntl();
  const series = useArea(dashboardArea).series;
  const days = useSelector(series, (s) => s.context.days);
  const data = useSelector(series, (s) => s.context.data);
  const failed = useSelector(series, (s) => s.matches('failed'));
  const loading = useSelector(series, (s) => s.hasTag('loading'));
  const headingId = useId();
  const t = (id: MessageId) => intl.formatMessage({ id });
  const charts = CHARTS.filter((c) => !(withoutNewUsers && c.figure === 'new_users'));
  return (
    <Stack as="section" aria-labelledby={headingId} gap="4" mt="6" data-testid="dashboard-charts">
      <HStack justify="space-between" wrap="wrap">
        <Heading as="h2" size="md" id={headingId}>
          {t('charts.title')}
        </Heading>
        <ButtonGroup
          size="sm"
          variant="outline"
          attached
          role="group"
          aria-label={t('charts.range')}
        >
          {SERIES_DAYS.map((d) => (
            <Button
              key={d}
              aria-pressed={days === d}
              variant={days === d ? 'solid' : 'outline'}
              onClick={() => series.send({ type: 'RANGE', days: d })}
            >
              {t(d === 7 ? 'charts.days7' : 'charts.days30')}
            </Button>
          ))}
        </ButtonGroup>
      </HStack>
      {failed && <LoadFailed onRetry={() => series.send({ type: 'RELOAD' })} />}
      {data && (
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" aria-busy={loading}>
          {charts.map((c) => (
            <SeriesChart key={c.figure} points={data.points} {...c} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function SeriesChart({
  points,
  figure,
  title: titleId,
  color,
  money = false,
}: {
  points: SeriesPoint[];
  figure: Figure;
  title: MessageId;
  color: string;
  money?: boolean;
}) {
  const intl = useIntl();
  const moneyName = useMoneyName();
  const titleElementId = useId();
  const title = intl.formatMessage({ id: titleId }, { moneyName });
  const rows = points.map((p) => ({ date: p.date, value: Number(p[figure]) }));
  const format = (value: number) =>
    money
      ? intl.formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
      : intl.formatNumber(value);
  const total = rows.reduce((sum, r) => sum + r.value, 0);
  const today = rows.at(-1)?.value ?? 0;
  const shortDate = (date: string) => date.slice(5);
  return (
    <Box
      as="figure"
      aria-labelledby={titleElementId}
      borderWidth="1px"
      borderRadius="md"
      p="4"
      data-testid={`chart-${figure}`}
    >
      <Heading as="h3" size="sm" id={titleElementId}>
        {title}
      </Heading>
      <Text fontSize="sm" color="fg.muted" data-testid={`chart-${figure}-summary`}>
        {intl.formatMessage(
          { id: 'charts.summary' },
          { today: format(today), days: rows.length, total: format(total) },
        )}
      </Text>
      <Box aria-hidden="true" mt="2">
        <BarChart
          rows={rows.map((r) => ({ label: r.date, value: r.value }))}
          color={color}
          format={format}
          decimals={money}
          shortLabel={shortDate}
        />
      </Box>
      <VisuallyHidden>
        <Table.Root size="sm">
          <Table.Caption>{intl.formatMessage({ id: 'charts.tableOf' }, { title })}</Table.Caption>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{intl.formatMessage({ id: 'charts.date' })}</Table.ColumnHeader>
              <Table.ColumnHeader>{intl.formatMessage({ id: 'charts.value' })}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((r) => (
              <Table.Row key={r.date}>
                <Table.Cell>{r.date}</Table.Cell>
                <Table.Cell>{format(r.value)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </VisuallyHidden>
    </Box>
  );
}
