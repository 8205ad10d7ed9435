import { Alert, Badge, Button, CloseButton, HStack, Text, Wrap } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { PLAN_STATUSES, type PlanStatus, type ReleasePlan } from '../../api/contract/matrix-plans';
import { useArea } from '../../app/actors/areas';
import {
  matrixPlansArea,
  type MatrixPlansActors,
  type PlanFilters,
} from '../../app/actors/matrix-plans';
import { useListActor } from '../../app/hooks/use-list';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterSelect } from '../../components/filter-bar';
import { FormDialog } from '../../components/form-dialog';
import { Page } from '../../components/page';
import { formatText } from '../../i18n/intl';
import type { PlanNotice } from '../../machines/matrix-plans';
import { useT } from '../shared/use-t';
import { PlanDetailDrawer } from './plan-detail';
import { PlanFormDrawer } from './plan-form';
import { PLAN_STATUS, POST_STATUS } from './plan-format';

/**
 * /matrix-distribution/release-plan (partner, merchant): the caller's release plans (status
 * filter, pages; each with its dates, its posts counted by status and pause / resume / cancel),
 * "New plan" (the form drawer: preview, then save), and a plan's posts (the detail drawer). The
 * release plans area owns the calls and the reloads; this view selects and sends.
 */
export default function ReleasePlanPage() {
  const t = useT();
  const area = useArea(matrixPlansArea);
  const list = useListActor(area.plans);
  const detailOpen = useSelector(area.page, (s) => s.hasTag('detail'));
  const applied = list.query.filters;
  return (
    <Page
      title={t('route.releasePlan')}
      actions={
        <Button size="sm" onClick={() => area.form.send({ type: 'OPEN' })}>
          {t('matrixPlans.new')}
        </Button>
      }
    >
      {!detailOpen && <PlanNoticeBar page={area.page} />}
      <PlanFilterBar
        key={applied.status}
        applied={applied}
        onApply={(next) => list.setFilters(next)}
      />
      <DataTable
        label={t('matrixPlans.list')}
        testId="matrix-plans"
        columns={usePlanColumns(area)}
        rowKey={(r) => r.id}
        emptyText={t(applied.status ? 'matrixPlans.noMatch' : 'matrixPlans.empty')}
        {...list.table}
      />
      <CancelPlanDialog page={area.page} />
      <PlanFormDrawer area={area} />
      <PlanDetailDrawer area={area} notice={<PlanNoticeBar page={area.page} />} />
    </Page>
  );
}

/** The page's one notice (the machine's `notice` region), with a button to dismiss it. */
function PlanNoticeBar(props: { page: MatrixPlansActors['page'] }) {
  const intl = useIntl();
  const t = useT();
  const notice: PlanNotice | null = useSelector(props.page, (s) =>
    s.hasTag('notice') ? s.context.notice : null,
  );
  if (!notice) return null;
  const error = notice.tone === 'error';
  return (
    <Alert.Root
      status={error ? 'error' : 'success'}
      role={error ? 'alert' : 'status'}
      data-testid="plan-notice"
    >
      <Alert.Indicator />
      <Alert.Title flex="1">{formatText(intl, notice.text, notice.values)}</Alert.Title>
      <CloseButton
        size="sm"
        aria-label={t('matrix.dismiss')}
        onClick={() => props.page.send({ type: 'DISMISS' })}
      />
    </Alert.Root>
  );
}

/** The status filter: a draft applied by Search (back to page 1). */
function PlanFilterBar(props: { applied: PlanFilters; onApply: (next: PlanFilters) => void }) {
  const t = useT();
  const [status, setStatus] = useState(props.applied.status);
  return (
    <FilterBar
      label={t('matrixPlans.filters')}
      onApply={() => props.onApply({ status })}
      onReset={() => props.onApply({ status: '' })}
    >
      <FilterSelect
        label={t('matrix.status')}
        value={status}
        onChange={(v) => setStatus(v as PlanStatus | '')}
        options={PLAN_STATUSES.map((s) => ({ value: s, label: t(PLAN_STATUS[s].label) }))}
      />
    </FilterBar>
  );
}

/** Asks before cancelling a plan (its waiting posts are cancelled). */
function CancelPlanDialog(props: { page: MatrixPlansActors['page'] }) {
  const t = useT();
  const open = useSelector(props.page, (s) => s.hasTag('confirmingCancel'));
  const plan = useSelector(props.page, (s) => s.context.acting?.plan ?? null);
  return (
    <FormDialog
      open={open}
      title={t('matrixPlans.cancelTitle')}
      submitLabel={t('matrixPlans.cancelPlan')}
      submitting={false}
      onClose={() => props.page.send({ type: 'KEEP' })}
      onSubmit={() => props.page.send({ type: 'CONFIRM' })}
    >
      <Text>{t('matrixPlans.cancelWhat', { name: plan?.name ?? '' })}</Text>
    </FormDialog>
  );
}

function usePlanColumns(area: MatrixPlansActors): Column<ReleasePlan>[] {
  const t = useT();
  const intl = useIntl();
  const acting = useSelector(area.page, (s) => s.context.acting);
  const busy = useSelector(area.page, (s) => !s.matches({ plan: 'idle' }));
  return [
    {
      key: 'name',
      header: t('matrixPlans.name'),
      cell: (r) => <Text fontWeight="medium">{r.name}</Text>,
    },
    {
      key: 'status',
      header: t('matrix.status'),
      cell: (r) => (
        <Badge size="sm" variant="subtle" colorPalette={PLAN_STATUS[r.status].palette}>
          {t(PLAN_STATUS[r.status].label)}
        </Badge>
      ),
    },
    {
      key: 'dates',
      header: t('matrixPlans.dates'),
      cell: (r) => (
        <Text fontSize="sm">
          {t('matrixPlans.dateRange', { start: r.start_date, end: r.end_date })}
          <Text as="span" color="fg.muted" display="block">
            {r.timezone}
          </Text>
        </Text>
      ),
    },
    {
      key: 'counts',
      header: t('matrixPlans.counts'),
      cell: (r) => (
        <Wrap gap="1" role="group" aria-label={t('matrixPlans.countsOf', { name: r.name })}>
          <Badge size="sm" variant="outline">
            {t('matrixPlans.total', { count: intl.formatNumber(r.total) })}
          </Badge>
          {Object.entries(r.counts)
            .filter(([, n]) => n > 0)
            .map(([status, n]) => {
              const known = POST_STATUS[status as keyof typeof POST_STATUS];
              return (
                <Badge key={status} size="sm" variant="subtle" colorPalette={known?.palette}>
                  {`${known ? t(known.label) : status} ${intl.formatNumber(n)}`}
                </Badge>
              );
            })}
        </Wrap>
      ),
    },
    {
      key: 'actions',
      header: t('matrix.colActions'),
      pinned: 'end',
      cell: (r) => {
        const plan = { id: r.id, name: r.name };
        const mine = acting?.plan.id === r.id;
        return (
          <HStack gap="1">
            <Button
              size="xs"
              variant="outline"
              aria-label={t('matrixPlans.postsOf', { name: r.name })}
              onClick={() =>
                area.page.send({ type: 'OPEN_DETAIL', plan: { ...plan, timezone: r.timezone } })
              }
            >
              {t('matrixPlans.posts')}
            </Button>
            {(r.status === 'running' || r.status === 'not_started') && (
              <Button
                size="xs"
                variant="outline"
                aria-label={t('matrixPlans.pauseOf', { name: r.name })}
                aria-busy={mine && acting?.action === 'pause'}
                disabled={busy}
                onClick={() => area.page.send({ type: 'PAUSE', plan })}
              >
                {t('matrixPlans.pause')}
              </Button>
            )}
            {r.status === 'paused' && (
              <Button
                size="xs"
                variant="outline"
                aria-label={t('matrixPlans.resumeOf', { name: r.name })}
                aria-busy={mine && acting?.action === 'resume'}
                disabled={busy}
                onClick={() => area.page.send({ type: 'RESUME', plan })}
              >
                {t('matrixPlans.resume')}
              </Button>
            )}
            {r.status !== 'done' && r.status !== 'cancelled' && (
              <Button
                size="xs"
                variant="ghost"
                colorPalette="red"
                aria-label={t('matrixPlans.cancelOf', { name: r.name })}
                aria-busy={mine && acting?.action === 'cancel'}
                disabled={busy}
                onClick={() => area.page.send({ type: 'CANCEL_PLAN', plan })}
              >
                {t('matrixPlans.cancelPlan')}
              </Button>
            )}
          </HStack>
        );
      },
    },
  ];
}
