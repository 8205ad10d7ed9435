import { Button, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import type { PackageStatusBody, RechargePackage } from '../../api/contract/recharge';
import { useArea } from '../../app/actors/areas';
import { rechargeArea, type PackageFilters, NO_PACKAGE_FILTERS } from '../../app/actors/recharge';
import { useListActor } from '../../app/hooks/use-list';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { useSubmitActor } from '../../app/hooks/use-submit-actor';
import { DataTable } from '../../components/data-table';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { Page } from '../../components/page';
import type { MessageId } from '../../i18n/messages';
import type { MoveDirection, PackageMove } from '../../machines/package-sort';
import { moveButtonKey, packageColumns } from './package-columns';
import { PackageDeleteDialog, PackageFormDialog } from './package-dialog';

const NO_FILTERS = NO_PACKAGE_FILTERS;
const filtered = (f: PackageFilters) => f.name.trim() !== '' || f.status !== '';

/**
 * /account/recharge (admin): the platform's recharge packages (docs/domain.md §6) with the name and
 * status filters; create and edit in a form checked with the server's schemas; on / off sale;
 * delete after a confirmation; move up / down (the whole order is sent, only without a filter).
 */
export default function RechargePage() {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const moneyName = useMoneyName();
  const area = useArea(rechargeArea);
  const list = useListActor(area.packages);
  const applied = list.query.filters;
  const [draft, setDraft] = useState<PackageFilters>(applied);
  const { packageForm: form, packageDelete: remove, packageSort: sorter } = area;
  const status = useSubmitActor<PackageStatusBody, RechargePackage>(area.packageStatus);
  const sorting = useSelector(sorter, (s) => s.hasTag('busy'));
  const settled = useSelector(sorter, (s) => s.context.settled);
  // The move whose button gets the focus back, and the rows shown when its list reload began.
  // (The area reloads the list when a move settles; the rows shown then are the old order.)
  const [focusAfter, setFocusAfter] = useState<{
    move: PackageMove;
    settledBefore: number;
    rowsBefore: RechargePackage[] | null;
  } | null>(null);
  if (focusAfter && !focusAfter.rowsBefore && settled !== focusAfter.settledBefore) {
    setFocusAfter({ ...focusAfter, rowsBefore: list.rows });
  }
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
        t: (id, values) => intl.formatMessage({ id }, values),
        moneyName,
        total: list.total,
        position: (row) => offset + list.rows.indexOf(row),
        sortBlocked,
        noteId,
        busy: sorting || status.submitting,
        onMove: (row, direction) => {
          setFocusAfter({
            move: { id: row.id, direction },
            settledBefore: settled,
            rowsBefore: null,
          });
          sorter.send({ type: 'MOVE', id: row.id, direction });
        },
        onEdit: (row) => form.send({ type: 'OPEN', target: row }),
        onStatus: (row) => status.submit({ id: row.id, status: row.status === 1 ? 0 : 1 }),
        onDelete: (row) => remove.send({ type: 'OPEN', target: row }),
      }),
    [
      intl,
      moneyName,
      list.rows,
      list.total,
      offset,
      sortBlocked,
      noteId,
      sorting,
      settled,
      status,
      form,
      remove,
      sorter,
    ],
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
