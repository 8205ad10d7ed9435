import { Button, Stack, Text } from '@chakra-ui/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { fromPromise } from 'xstate';
import type { PackageStatusBody, RechargePackage } from '../../api/contract/recharge';
import {
  addPackage,
  deletePackage,
  editPackage,
  getPackages,
  setPackageStatus,
  sortPackages,
} from '../../api/recharge';
import { useFormSubmit } from '../../app/hooks/use-form-submit';
import { useList } from '../../app/hooks/use-list';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { DataTable } from '../../components/data-table';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { Page } from '../../components/page';
import { notify } from '../../components/toaster';
import type { MessageId } from '../../i18n/messages';
import {
  packageSortMachine,
  type MoveDirection,
  type PackageMove,
} from '../../machines/package-sort';
import { useCustomerDialog, useSaved } from '../promotion/use-customer-dialog';
import { moveButtonKey, packageColumns } from './package-columns';
import { PackageDeleteDialog, PackageFormDialog } from './package-dialog';
import type { PackagePayload } from './package-form-values';

interface PackageFilters {
  name: string;
  /** '' all, '1' on sale, '0' off sale. */
  status: string;
}
const NO_FILTERS: PackageFilters = { name: '', status: '' };
const filtered = (f: PackageFilters) => f.name.trim() !== '' || f.status !== '';

/** Packages are few: one page of 50 normally shows them all (moves work across pages too). */
const PAGE_SIZE = 50;
/** The sort call takes at most 1000 ids; the API lists at most 100 a page. */
const MAX_PAGES = 10;

/** The ids of every package in the list's order (the server's: sort, then id). */
async function packageOrder(signal: AbortSignal): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { list, total } = await getPackages({ page, limit: 100 }, { signal });
    ids.push(...list.map((p) => p.id));
    if (list.length === 0 || ids.length >= total) break;
  }
  return ids;
}

const savePackage = (p: PackagePayload) =>
  p.kind === 'add' ? addPackage(p.body) : editPackage(p.body);

/**
 * /account/recharge (admin): the platform's recharge packages (DOMAIN.md §5) with the name and
 * status filters; create and edit in a form checked with the server's schemas; on / off sale;
 * delete after a confirmation; move up / down (the whole order is sent, only without a filter).
 */
export default function RechargePage() {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const moneyName = useMoneyName();
  const list = useList<PackageFilters, RechargePackage>(
    'rechargePackages',
    ({ filters, page, limit }, signal) =>
      getPackages(
        {
          name: filters.name.trim(),
          status: filters.status === '' ? '' : filters.status === '1' ? 1 : 0,
          page,
          limit,
        },
        { signal },
      ),
    NO_FILTERS,
    PAGE_SIZE,
  );
  const { reload } = list;
  const applied = list.query.filters;
  const [draft, setDraft] = useState<PackageFilters>(applied);

  const form = useCustomerDialog<RechargePackage, PackagePayload>('packageForm', (_row, p) =>
    savePackage(p),
  );
  const remove = useCustomerDialog<RechargePackage, { id: number }>('packageDelete', (_row, p) =>
    deletePackage(p),
  );
  useSaved(form, reload, t('packages.saved'));
  useSaved(remove, reload, t('packages.deleted'));

  const status = useFormSubmit<PackageStatusBody, RechargePackage>((body) =>
    setPackageStatus(body),
  );
  const { done: statusDone, reset: statusReset, result: statusResult } = status;
  useEffect(() => {
    if (!statusDone) return;
    notify(
      'success',
      t(statusResult?.status === 1 ? 'packages.putOnSaleDone' : 'packages.takenOffSale', {
        name: statusResult?.name ?? '',
      }),
    );
    statusReset();
    reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [statusDone]);

  const sorter = useActorRef(
    packageSortMachine.provide({
      actors: {
        readOrder: fromPromise(({ signal }) => packageOrder(signal)),
        saveOrder: fromPromise(({ input }) => sortPackages({ ids: input.ids })),
      },
    }),
  );
  const sorting = useSelector(sorter, (s) => s.hasTag('busy'));
  const settled = useSelector(sorter, (s) => s.context.settled);
  // The move whose button gets the focus back, and the rows shown when its list reload began.
  const [focusAfter, setFocusAfter] = useState<{
    move: PackageMove;
    rowsBefore: RechargePackage[] | null;
  } | null>(null);
  useEffect(() => {
    if (settled === 0) return;
    const { moved } = sorter.getSnapshot().context;
    if (moved) {
      const row = list.rows.find((r) => r.id === moved.id);
      const text = moved.direction === 'up' ? 'packages.movedUp' : 'packages.movedDown';
      if (row) notify('success', t(text, { name: row.name }));
    }
    setFocusAfter((f) => f && { ...f, rowsBefore: list.rows });
    reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  // Once the list shows the new order, the focus goes back to the moved package's button (or, at
  // an end now, its other one), so a keyboard user can keep moving it.
  useEffect(() => {
    if (!focusAfter?.rowsBefore || list.loading || list.rows === focusAfter.rowsBefore) return;
    const { move } = focusAfter;
    const find = (direction: MoveDirection) =>
      document.querySelector<HTMLButtonElement>(
        `[data-package-move="${moveButtonKey(move.id, direction)}"]`,
      );
    const button = [find(move.direction), find(move.direction === 'up' ? 'down' : 'up')].find(
      (b) => b && !b.disabled,
    );
    button?.focus();
    setFocusAfter(null);
  }, [focusAfter, list.loading, list.rows]);

  const sortBlocked = filtered(applied);
  const noteId = useId();
  const offset = (list.query.page - 1) * list.query.limit;
  const columns = useMemo(
    () =>
      packageColumns({
        t,
        moneyName,
        total: list.total,
        position: (row) => offset + list.rows.indexOf(row),
        sortBlocked,
        noteId,
        busy: sorting || status.submitting,
        onMove: (row, direction) => {
          setFocusAfter({ move: { id: row.id, direction }, rowsBefore: null });
          sorter.send({ type: 'MOVE', id: row.id, direction });
        },
        onEdit: (row) => form.send({ type: 'OPEN', target: row }),
        onStatus: (row) => status.submit({ id: row.id, status: row.status === 1 ? 0 : 1 }),
        onDelete: (row) => remove.send({ type: 'OPEN', target: row }),
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [intl, moneyName, list.rows, list.total, offset, sortBlocked, sorting, status.submitting],
  );

  return (
    <Page
      title={t('route.recharge')}
      actions={
        <Button onClick={() => form.send({ type: 'OPEN', target: null })}>
          {t('packages.add')}
        </Button>
      }
    >
      <Stack gap="4">
        <FilterBar
          label={t('packages.filters')}
          onApply={() => list.setFilters(draft)}
          onReset={() => {
            setDraft(NO_FILTERS);
            list.setFilters(NO_FILTERS);
          }}
        >
          <FilterText
            label={t('packages.name')}
            value={draft.name}
            onChange={(name) => setDraft((d) => ({ ...d, name }))}
          />
          <FilterSelect
            label={t('packages.status')}
            value={draft.status}
            onChange={(value) => setDraft((d) => ({ ...d, status: value }))}
            options={[
              { value: '1', label: t('packages.onSale') },
              { value: '0', label: t('packages.offSale') },
            ]}
          />
        </FilterBar>
        <Text id={noteId} fontSize="sm" color="fg.muted" data-testid="sort-note">
          {t(sortBlocked ? 'packages.sortFiltered' : 'packages.sortHelpList')}
        </Text>
        <DataTable
          label={t('packages.list')}
          testId="packages"
          columns={columns}
          rowKey={(r) => r.id}
          emptyText={t('packages.empty')}
          {...list.table}
        />
      </Stack>
      <PackageFormDialog actor={form} moneyName={moneyName} />
      <PackageDeleteDialog actor={remove} />
    </Page>
  );
}
