import { Badge, HStack, Stack, Text } from '@chakra-ui/react';
import type { PayStatus, RechargeOrder } from '../../api/contract/recharge';
import { CopyButton } from '../../components/copy-button';
import type { Column } from '../../components/data-table';
import { formatDateTime } from '../../components/dates';
import type { MessageId } from '../../i18n/messages';
import { formatMoney } from '../shared/amounts';

type T = (id: MessageId, values?: Record<string, string | number>) => string;

export const PAY_STATUS_LABEL: Record<PayStatus, MessageId> = {
  pending: 'orders.statusPending',
  paid: 'orders.statusPaid',
  closed: 'orders.statusClosed',
  refunded: 'orders.statusRefunded',
};

const PAY_STATUS_PALETTE: Record<PayStatus, string> = {
  pending: 'orange',
  paid: 'green',
  closed: 'gray',
  refunded: 'purple',
};

const PAY_WAY_LABEL: Record<string, MessageId> = { sandbox: 'orders.paySandbox' };

/** Shown where an order has no value yet (no transaction, not paid). */
const NONE = '—';

/** The columns of the order list. */
export function orderColumns(t: T, moneyName: string): Column<RechargeOrder>[] {
  return [
    {
      key: 'order_no',
      header: t('orders.orderNo'),
      cell: (row) => (
        <HStack gap="1">
          <Text as="span" fontFamily="mono" data-testid="order-no">
            {row.order_no}
          </Text>
          <CopyButton
            label={t('orders.copyOrderNo', { orderNo: row.order_no })}
            text={row.order_no}
          />
        </HStack>
      ),
    },
    {
      key: 'buyer',
      header: t('orders.buyer'),
      cell: (row) => (
        <Stack gap="0">
          <Text as="span">{row.username}</Text>
          {row.name && row.name !== row.username && (
            <Text as="span" fontSize="xs" color="fg.muted">
              {row.name}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'package', header: t('orders.package'), cell: (row) => row.package_name },
    {
      key: 'amount',
      header: t('orders.amountCny'),
      align: 'end',
      cell: (row) => formatMoney(row.amount),
    },
    {
      key: 'credited',
      header: t('orders.credited', { moneyName }),
      align: 'end',
      cell: (row) =>
        t('orders.moneyPlusGift', {
          money: formatMoney(row.money),
          gift: formatMoney(row.gift_money),
        }),
    },
    {
      key: 'pay_way',
      header: t('orders.payWay'),
      cell: (row) => (PAY_WAY_LABEL[row.pay_way] ? t(PAY_WAY_LABEL[row.pay_way]) : row.pay_way),
    },
    {
      key: 'pay_status',
      header: t('orders.payStatus'),
      cell: (row) => (
        <Badge colorPalette={PAY_STATUS_PALETTE[row.pay_status]} data-testid="order-status">
          {t(PAY_STATUS_LABEL[row.pay_status])}
        </Badge>
      ),
    },
    {
      key: 'transaction_id',
      header: t('orders.transactionId'),
      cell: (row) => (
        <Text as="span" fontFamily={row.transaction_id ? 'mono' : undefined}>
          {row.transaction_id ?? NONE}
        </Text>
      ),
    },
    { key: 'created', header: t('orders.created'), cell: (row) => formatDateTime(row.created_at) },
    {
      key: 'paid_at',
      header: t('orders.paidAt'),
      cell: (row) => (row.paid_at === null ? NONE : formatDateTime(row.paid_at)),
    },
  ];
}
