import { Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { ASSETS, LEDGER_TYPES, type MoneyLogRow } from '../../api/contract/money';
import { NO_LEDGER_FILTERS, type LedgerFilters } from '../../app/actors/money';
import type { ListHandle } from '../../app/hooks/use-list';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterDate, FilterSelect } from '../../components/filter-bar';
import { formatDateTime } from '../../components/dates';
import type { MessageId } from '../../i18n/messages';
import { ASSET_LABEL, formatAmount } from './amounts';

/** The caller's ledger: filters (asset, type, days) and the rows. */
export function LedgerSection(props: {
  list: ListHandle<LedgerFilters, MoneyLogRow>;
  moneyName: string;
  /** The assets the filter offers (default all; the voice record: the voice ledger's one). */
  assets?: readonly MoneyLogRow['asset'][];
}) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { list, moneyName } = props;
  const [draft, setDraft] = useState<LedgerFilters>(list.query.filters);
  const set = (key: keyof LedgerFilters) => (value: string) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const asset = (a: MoneyLogRow['asset']) => t(ASSET_LABEL[a], { moneyName });
  const columns: Column<MoneyLogRow>[] = [
    { key: 'time', header: t('property.time'), cell: (r) => formatDateTime(r.created_at) },
    { key: 'asset', header: t('property.asset'), cell: (r) => asset(r.asset) },
    {
      key: 'type',
      header: t('property.type'),
      cell: (r) => t(`ledgerType.${r.type}` as MessageId),
    },
    {
      key: 'change',
      header: t('property.change'),
      align: 'end',
      cell: (r) => formatAmount(intl, r.asset, r.change, true),
    },
    {
      key: 'before',
      header: t('property.before'),
      align: 'end',
      cell: (r) => formatAmount(intl, r.asset, r.before),
    },
    {
      key: 'after',
      header: t('property.after'),
      align: 'end',
      cell: (r) => formatAmount(intl, r.asset, r.after),
    },
    { key: 'memo', header: t('property.memo'), cell: (r) => r.memo },
  ];
  return (
    <Stack gap="4">
      <FilterBar
        label={t('property.ledgerFilters')}
        onApply={() => list.setFilters(draft)}
        onReset={() => {
          setDraft(NO_LEDGER_FILTERS);
          list.setFilters(NO_LEDGER_FILTERS);
        }}
      >
        <FilterSelect
          label={t('property.asset')}
          value={draft.asset}
          onChange={set('asset')}
          options={(props.assets ?? ASSETS).map((a) => ({ value: a, label: asset(a) }))}
        />
        <FilterSelect
          label={t('property.type')}
          value={draft.type}
          onChange={set('type')}
          options={LEDGER_TYPES.map((type) => ({
            value: type,
            label: t(`ledgerType.${type}` as MessageId),
          }))}
        />
        <FilterDate label={t('property.fromDate')} value={draft.from} onChange={set('from')} />
        <FilterDate label={t('property.toDate')} value={draft.to} onChange={set('to')} />
      </FilterBar>
      <DataTable
        label={t('property.ledger')}
        testId="ledger"
        columns={columns}
        rowKey={(r) => r.id}
        {...list.table}
      />
    </Stack>
  );
}
