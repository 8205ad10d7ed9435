import { useEffect, useMemo } from 'react';
import { useIntl } from 'react-intl';
import type { RechargeOrder } from '../../api/contract/recharge';
import { getOrders } from '../../api/recharge';
import { useList } from '../../app/hooks/use-list';
import { DataTable } from '../../components/data-table';
import type { MessageId } from '../../i18n/messages';
import { orderColumns } from './recharge-order-columns';

/**
 * A merchant's own recharge orders on /account/property (DOMAIN.md §11: merchant, own); admin
 * and partners have /account/recharge-order. `version` changes after a payment: the list reloads.
 */
export function MyOrdersSection(props: { moneyName: string; version: number }) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const list = useList<Record<string, never>, RechargeOrder>(
    'myRechargeOrders',
    ({ page, limit }, signal) => getOrders({ page, limit }, { signal }),
    {},
  );
  const { reload } = list;
  useEffect(() => {
    if (props.version > 0) reload();
  }, [props.version, reload]);
  const columns = useMemo(
    () => orderColumns(t, props.moneyName).filter((c) => c.key !== 'buyer'),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [intl, props.moneyName],
  );
  return (
    <DataTable
      label={t('property.myOrders')}
      testId="my-orders"
      columns={columns}
      rowKey={(r) => r.id}
      emptyText={t('orders.empty')}
      {...list.table}
    />
  );
}
