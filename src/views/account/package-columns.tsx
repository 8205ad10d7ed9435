import { Badge, Button, HStack, IconButton } from '@chakra-ui/react';
import type { RechargePackage } from '../../api/contract/recharge';
import type { Column } from '../../components/data-table';
import { formatDateTime } from '../../components/dates';
import type { MessageId } from '../../i18n/messages';
import type { MoveDirection } from '../../machines/package-sort';
import { formatMoney } from '../shared/amounts';

type T = (id: MessageId, values?: Record<string, string | number>) => string;

export interface PackageColumnOptions {
  t: T;
  moneyName: string;
  /** The place of each package shown in the whole list (0 = first); moves need no filter. */
  position: (row: RechargePackage) => number;
  total: number;
  /** A filter is applied: the order cannot change (the note above the table says why). */
  sortBlocked: boolean;
  /** The note that says how the order changes (or why it cannot now). */
  noteId: string;
  /** A move or a status change is under way: those buttons wait. */
  busy: boolean;
  onMove: (row: RechargePackage, direction: MoveDirection) => void;
  onEdit: (row: RechargePackage) => void;
  onStatus: (row: RechargePackage) => void;
  onDelete: (row: RechargePackage) => void;
}

/** The button of a move, found again after the list reloads (focus follows the package). */
export const moveButtonKey = (id: number, direction: MoveDirection) => `${id}:${direction}`;

const Arrow = (props: { direction: MoveDirection }) => (
  <svg width="14" height="14" viewBox="0 0 24 24" fill="none" aria-hidden="true">
    <path
      d={props.direction === 'up' ? 'M12 19V5M5 12l7-7 7 7' : 'M12 5v14M5 12l7 7 7-7'}
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

/** The columns of the package list, the order buttons and row actions included. */
export function packageColumns(o: PackageColumnOptions): Column<RechargePackage>[] {
  const { t } = o;
  const move = (row: RechargePackage, direction: MoveDirection) => {
    const at = o.position(row);
    const edge = direction === 'up' ? at <= 0 : at >= o.total - 1;
    return (
      <IconButton
        size="2xs"
        variant="outline"
        data-package-move={moveButtonKey(row.id, direction)}
        aria-describedby={o.noteId}
        aria-label={t(direction === 'up' ? 'packages.moveUp' : 'packages.moveDown', {
          name: row.name,
        })}
        disabled={o.sortBlocked || o.busy || edge}
        onClick={() => o.onMove(row, direction)}
      >
        <Arrow direction={direction} />
      </IconButton>
    );
  };
  return [
    {
      key: 'order',
      header: t('packages.order'),
      cell: (row) => (
        <HStack gap="1">
          {move(row, 'up')}
          {move(row, 'down')}
        </HStack>
      ),
    },
    { key: 'name', header: t('packages.name'), cell: (row) => row.name },
    {
      key: 'price',
      header: t('packages.priceCny'),
      align: 'end',
      cell: (row) => formatMoney(row.price),
    },
    {
      key: 'money',
      header: t('packages.moneyOf', { moneyName: o.moneyName }),
      align: 'end',
      cell: (row) => formatMoney(row.money),
    },
    {
      key: 'gift',
      header: t('packages.giftOf', { moneyName: o.moneyName }),
      align: 'end',
      cell: (row) => formatMoney(row.gift_money),
    },
    { key: 'sort', header: t('packages.sort'), align: 'end', cell: (row) => row.sort },
    {
      key: 'status',
      header: t('packages.status'),
      cell: (row) => (
        <Badge colorPalette={row.status === 1 ? 'green' : 'gray'} data-testid="package-status">
          {t(row.status === 1 ? 'packages.onSale' : 'packages.offSale')}
        </Badge>
      ),
    },
    { key: 'description', header: t('packages.description'), cell: (row) => row.description },
    {
      key: 'created',
      header: t('packages.created'),
      cell: (row) => formatDateTime(row.created_at),
    },
    {
      key: 'actions',
      pinned: 'end',
      header: t('packages.actions'),
      cell: (row) => (
        <HStack gap="1">
          <Button
            size="2xs"
            variant="outline"
            aria-label={t('packages.editOf', { name: row.name })}
            onClick={() => o.onEdit(row)}
          >
            {t('packages.edit')}
          </Button>
          <Button
            size="2xs"
            variant="outline"
            disabled={o.busy}
            aria-label={t(row.status === 1 ? 'packages.takeOffSaleOf' : 'packages.putOnSaleOf', {
              name: row.name,
            })}
            onClick={() => o.onStatus(row)}
          >
            {t(row.status === 1 ? 'packages.takeOffSale' : 'packages.putOnSale')}
          </Button>
          <Button
            size="2xs"
            variant="outline"
            colorPalette="red"
            aria-label={t('packages.deleteOf', { name: row.name })}
            onClick={() => o.onDelete(row)}
          >
            {t('packages.delete')}
          </Button>
        </HStack>
      ),
    },
  ];
}
