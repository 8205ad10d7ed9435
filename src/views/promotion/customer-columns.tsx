import { Button, HStack, Menu, Portal, Switch } from '@chakra-ui/react';
import type { CustomerRow } from '../../api/contract/customers';
import type { Column } from '../../components/data-table';
import { formatDateTime } from '../../components/dates';
import type { MessageId } from '../../i18n/messages';
import { formatMoney } from '../shared/amounts';
import { AuditTimelineLink } from '../shared/audit-link';
import { formatDhTime } from '../shared/dh-time';
import { customerLabel, type ColumnKey } from './customer-kinds';

export type RowAction = 'edit' | 'password' | 'permissions' | 'transfer' | 'loginAs' | 'delete';

export interface ColumnContext {
  t: (id: MessageId, values?: Record<string, string | number>) => string;
  moneyName: string;
  /** Merchants only: "log in as" opens the merchant's console in a new tab. */
  loginAs: boolean;
  /** The caller may transfer something (admin; a partner with a transfer permission). */
  transfer: boolean;
  onStatus: (row: CustomerRow) => void;
  onAction: (action: RowAction, row: CustomerRow) => void;
}

const limitText = (t: ColumnContext['t'], row: CustomerRow) =>
  row.merchant_count_limit < 0
    ? t('customers.ofUnlimited', { count: row.merchant_count })
    : t('customers.ofLimit', { count: row.merchant_count, limit: row.merchant_count_limit });

/** The table columns of a kind's column list. */
export function customerColumns(
  keys: readonly ColumnKey[],
  c: ColumnContext,
): Column<CustomerRow>[] {
  const { t } = c;
  const all: Record<ColumnKey, Column<CustomerRow>> = {
    id: { key: 'id', header: t('customers.id'), cell: (r) => r.id, sortable: true },
    username: {
      key: 'username',
      header: t('customers.username'),
      cell: (r) => r.username,
      sortable: true,
    },
    name: { key: 'name', header: t('customers.name'), cell: (r) => r.name, sortable: true },
    mobile: { key: 'mobile', header: t('customers.mobile'), cell: (r) => r.mobile },
    parent: { key: 'parent', header: t('customers.parent'), cell: (r) => r.parent_name },
    prefix: { key: 'prefix', header: t('customers.prefix'), cell: (r) => r.service_prefix_no },
    merchants: {
      key: 'merchant_count',
      header: t('customers.merchants'),
      align: 'end',
      sortable: true,
      cell: (r) => (r.user_type === 1 ? limitText(t, r) : r.merchant_count),
    },
    money: {
      key: 'money',
      header: t('stats.money', { moneyName: c.moneyName }),
      align: 'end',
      sortable: true,
      cell: (r) => formatMoney(r.money),
    },
    minutes: {
      key: 'digital_man_seconds',
      header: t('stats.digitalManTime'),
      align: 'end',
      sortable: true,
      cell: (r) => formatDhTime(c.t, r.digital_man_seconds),
    },
    clones: {
      key: 'voice_clone_count',
      header: t('customers.clones'),
      align: 'end',
      sortable: true,
      cell: (r) =>
        t('customers.clonesValue', { voice: r.voice_clone_count, image: r.image_clone_count }),
    },
    status: {
      key: 'status',
      header: t('customers.status'),
      cell: (r) => (
        <Switch.Root size="sm" checked={r.status === 1} onCheckedChange={() => c.onStatus(r)}>
          <Switch.HiddenInput aria-label={t('customers.enabledOf', { name: customerLabel(r) })} />
          <Switch.Control />
        </Switch.Root>
      ),
    },
    expire: {
      key: 'expire_at',
      header: t('customers.expire'),
      sortable: true,
      cell: (r) => (r.expire_at === null ? t('customers.never') : formatDateTime(r.expire_at)),
    },
    created: {
      key: 'created_at',
      header: t('customers.created'),
      sortable: true,
      cell: (r) => formatDateTime(r.created_at),
    },
    actions: {
      key: 'actions',
      pinned: 'end',
      header: t('customers.actions'),
      cell: (r) => (
        <HStack gap="1">
          <RowMenu row={r} c={c} />
          {/* The customer's audit timeline (docs/domain.md "The audit log viewer"). */}
          <AuditTimelineLink type="user" id={r.id} name={r.username} />
        </HStack>
      ),
    },
  };
  return keys.map((k) => all[k]);
}

function RowMenu(props: { row: CustomerRow; c: ColumnContext }) {
  const { row, c } = props;
  const items: { action: RowAction; label: MessageId }[] = [
    { action: 'edit', label: 'customers.edit' },
    { action: 'password', label: 'customers.resetPassword' },
    { action: 'permissions', label: 'customers.transferPermissions' },
    ...(c.transfer ? [{ action: 'transfer' as const, label: 'customers.transfer' as const }] : []),
    ...(c.loginAs && row.user_type === 2
      ? [{ action: 'loginAs' as const, label: 'customers.loginAs' as const }]
      : []),
    { action: 'delete', label: 'customers.delete' },
  ];
  return (
    <Menu.Root onSelect={(e) => c.onAction(e.value as RowAction, row)}>
      <Menu.Trigger asChild>
        <Button
          size="xs"
          variant="outline"
          aria-label={c.t('customers.actionsOf', { name: row.username })}
        >
          {c.t('customers.actions')}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {items.map((item) => (
              <Menu.Item key={item.action} value={item.action}>
                {c.t(item.label)}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
