import { Alert, Stack } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { PAY_STATUSES, orderListQuery } from '../../api/contract/recharge';
import { useArea } from '../../app/actors/areas';
import {
  NO_ORDER_FILTERS as NO_FILTERS,
  orderQuery,
  rechargeArea,
  type OrderFilters,
} from '../../app/actors/recharge';
import { useListActor } from '../../app/hooks/use-list';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { fieldErrors } from '../../app/hooks/zod-errors';
import { DataTable } from '../../components/data-table';
import { FilterBar, FilterDate, FilterSelect, FilterText } from '../../components/filter-bar';
import { Page } from '../../components/page';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { PAY_STATUS_LABEL, orderColumns } from './recharge-order-columns';

/** The filters' problems as the server would name them (message ids), none when it accepts them. */
function filterProblems(f: OrderFilters): string[] {
  const parsed = orderListQuery.safeParse(orderQuery(f));
  return parsed.success ? [] : [...new Set(Object.values(fieldErrors(parsed.error)))];
}

/**
 * /account/recharge-order (admin: every order; partner: its subtree's, its own included): the
 * recharge orders newest first, filtered by number, buyer, status and created days; the server
 * pages them.
 */
export default function RechargeOrderPage() {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const moneyName = useMoneyName();
  const list = useListActor(useArea(rechargeArea).orders);
  const [draft, setDraft] = useState<OrderFilters>(list.query.filters);
  const [problems, setProblems] = useState<string[]>([]);
  const set = (key: keyof OrderFilters) => (value: string) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const columns = useMemo(
    () => orderColumns((id, values) => intl.formatMessage({ id }, values), moneyName),
    [intl, moneyName],
  );

  return (
    <Page title={t('route.rechargeOrder')}>
      <Stack gap="4">
        <FilterBar
          label={t('orders.filters')}
          onApply={() => {
            const found = filterProblems(draft);
            setProblems(found);
            if (found.length === 0) list.setFilters(draft);
          }}
          onReset={() => {
            setDraft(NO_FILTERS);
            setProblems([]);
            list.setFilters(NO_FILTERS);
          }}
        >
          <FilterText label={t('orders.orderNo')} value={draft.orderNo} onChange={set('orderNo')} />
          <FilterText
            label={t('orders.buyerKeyword')}
            value={draft.keyword}
            onChange={set('keyword')}
          />
          <FilterSelect
            label={t('orders.payStatus')}
            value={draft.status}
            onChange={set('status')}
            options={PAY_STATUSES.map((s) => ({ value: s, label: t(PAY_STATUS_LABEL[s]) }))}
          />
          <FilterDate label={t('orders.createdFrom')} value={draft.from} onChange={set('from')} />
          <FilterDate label={t('orders.createdTo')} value={draft.to} onChange={set('to')} />
        </FilterBar>
        {problems.length > 0 && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{problems.map((p) => formatText(intl, p)).join(' ')}</Alert.Title>
          </Alert.Root>
        )}
        <DataTable
          label={t('orders.list')}
          testId="orders"
          columns={columns}
          rowKey={(r) => r.id}
          emptyText={t('orders.empty')}
          {...list.table}
        />
      </Stack>
    </Page>
  );
}
