import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { useArea } from '../../app/actors/areas';
import { rechargeArea } from '../../app/actors/recharge';
import { useListActor } from '../../app/hooks/use-list';
import { DataTable } from '../../components/data-table';
import type { MessageId } from '../../i18n/messages';
import { orderColumns } from './recharge-order-columns';

/**
 * A merchant's own recharge orders on /account/property (docs/domain.md §2: merchant, own); admin
 * and partners have /account/recharge-order. The recharge area reloads it after a payment.
 */
export function MyOrdersSection(props: { moneyName: string }) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const list = useListActor(useArea(rechargeArea).myOrders);
  const columns = useMemo(
    () =>
      orderColumns((id, values) => intl.formatMessage({ id }, values), props.moneyName).filter(
        (c) => c.key !== 'buyer',
      ),
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
