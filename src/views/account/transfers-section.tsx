import { Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { ASSETS, type Asset, type TransferRecord } from '../../api/contract/money';
import { NO_TRANSFER_FILTERS, type TransferFilters } from '../../app/actors/money';
import type { ListHandle } from '../../app/hooks/use-list';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterDate, FilterSelect } from '../../components/filter-bar';
import { formatDateTime } from '../../components/dates';
import type { MessageId } from '../../i18n/messages';
import { ASSET_LABEL, formatAmount } from '../shared/amounts';

const who = (name: string, username: string) =>
  name && name !== username ? `${name} (${username})` : username;

/** Transfers touching the caller (or, for admin and partners, users they see). */
export function TransfersSection(props: {
  list: ListHandle<TransferFilters, TransferRecord>;
  moneyName: string;
}) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { list, moneyName } = props;
  const [draft, setDraft] = useState<TransferFilters>(list.query.filters);
  const set = (key: keyof TransferFilters) => (value: string) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const asset = (a: Asset) => t(ASSET_LABEL[a], { moneyName });
  const around = (a: Asset, before: string | null, after: string | null) =>
    before === null || after === null
      ? t('property.platform')
      : `${formatAmount(intl, a, before)} → ${formatAmount(intl, a, after)}`;
  const columns: Column<TransferRecord>[] = [
    { key: 'no', header: t('property.transferNo'), cell: (r) => r.transfer_no },
    { key: 'from', header: t('property.from'), cell: (r) => who(r.from_name, r.from_username) },
    { key: 'to', header: t('property.to'), cell: (r) => who(r.to_name, r.to_username) },
    { key: 'asset', header: t('property.asset'), cell: (r) => asset(r.asset) },
    {
      key: 'amount',
      header: t('property.amount'),
      align: 'end',
      cell: (r) => formatAmount(intl, r.asset, r.amount),
    },
    {
      key: 'fromBalance',
      header: t('property.fromBalance'),
      cell: (r) => around(r.asset, r.from_before, r.from_after),
    },
    {
      key: 'toBalance',
      header: t('property.toBalance'),
      cell: (r) => around(r.asset, r.to_before, r.to_after),
    },
    { key: 'remark', header: t('property.remark'), cell: (r) => r.remark },
    { key: 'operator', header: t('property.operator'), cell: (r) => r.operator_username },
    { key: 'time', header: t('property.time'), cell: (r) => formatDateTime(r.created_at) },
  ];
  return (
    <Stack gap="4">
      <FilterBar
        label={t('property.transferFilters')}
        onApply={() => list.setFilters(draft)}
        onReset={() => {
          setDraft(NO_TRANSFER_FILTERS);
          list.setFilters(NO_TRANSFER_FILTERS);
        }}
      >
        <FilterSelect
          label={t('property.direction')}
          value={draft.direction}
          onChange={set('direction')}
          options={[
            { value: 'in', label: t('property.in') },
            { value: 'out', label: t('property.out') },
          ]}
        />
        <FilterSelect
          label={t('property.asset')}
          value={draft.asset}
          onChange={set('asset')}
          options={ASSETS.map((a) => ({ value: a, label: asset(a) }))}
        />
        <FilterDate label={t('property.fromDate')} value={draft.from} onChange={set('from')} />
        <FilterDate label={t('property.toDate')} value={draft.to} onChange={set('to')} />
      </FilterBar>
      <DataTable
        label={t('property.transfers')}
        testId="transfers"
        columns={columns}
        rowKey={(r) => r.id}
        {...list.table}
      />
    </Stack>
  );
}
