import { Badge, Button, Checkbox, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { IntlShape } from 'react-intl';
import type { CardRow } from '../../api/contract/cards';
import { CopyButton } from '../../components/copy-button';
import type { Column } from '../../components/data-table';
import { formatDateTime } from '../../components/dates';
import type { MessageId } from '../../i18n/messages';
import {
  CARD_AMOUNT,
  CARD_ASSET_LABEL,
  CARD_STATE_LABEL,
  CARD_STATE_PALETTE,
  cardState,
} from '../shared/card-format';

type T = (id: MessageId, values?: Record<string, string | number>) => string;

/** The holder's own password: masked until shown, copied in full. Others get it masked. */
function Password(props: { row: CardRow; t: T }) {
  const { row, t } = props;
  const [shown, setShown] = useState(false);
  if (row.pwd_masked) {
    return (
      <Text as="span" fontFamily="mono" data-testid="card-pwd">
        {row.card_pwd}
      </Text>
    );
  }
  const pwd = row.card_pwd;
  const masked = `${pwd.slice(0, 4)}${'*'.repeat(Math.max(0, pwd.length - 8))}${pwd.slice(-4)}`;
  return (
    <HStack gap="1">
      <Text as="span" fontFamily="mono" data-testid="card-pwd">
        {shown ? pwd : masked}
      </Text>
      <Button
        size="2xs"
        variant="ghost"
        aria-pressed={shown}
        aria-label={t('cards.showPwdOf', { card: row.card_no })}
        onClick={() => setShown((s) => !s)}
      >
        {t('cards.show')}
      </Button>
      <CopyButton label={t('cards.copyPwdOf', { card: row.card_no })} text={pwd} />
    </HStack>
  );
}

export interface CardColumnOptions {
  t: T;
  intl: IntlShape;
  moneyName: string;
  isAdmin: boolean;
  selected: ReadonlySet<number>;
  onSelect: (id: number, on: boolean) => void;
  onBatch: (batchNo: string) => void;
  onStatus: (row: CardRow, status: 0 | 2) => void;
  onRemark: (row: CardRow) => void;
  onExpiry: (row: CardRow) => void;
  onDelete: (row: CardRow) => void;
  /** A row action is under way (its buttons wait). */
  busy: boolean;
}

/** The columns of the card list, row actions included. */
export function cardColumns(o: CardColumnOptions): Column<CardRow>[] {
  const { t, moneyName } = o;
  const amount = (row: Pick<CardRow, 'asset'>, value: string) =>
    t(CARD_AMOUNT[row.asset], { amount: value, moneyName });
  return [
    {
      key: 'select',
      header: t('cards.select'),
      cell: (row) => (
        <Checkbox.Root
          size="sm"
          checked={o.selected.has(row.id)}
          onCheckedChange={(e) => o.onSelect(row.id, e.checked === true)}
        >
          <Checkbox.HiddenInput aria-label={t('cards.selectCard', { card: row.card_no })} />
          <Checkbox.Control />
        </Checkbox.Root>
      ),
    },
    {
      key: 'card_no',
      header: t('cards.cardNo'),
      cell: (row) => (
        <HStack gap="1">
          <Text as="span" fontFamily="mono">
            {row.card_no}
          </Text>
          <CopyButton label={t('cards.copyNo', { card: row.card_no })} text={row.card_no} />
        </HStack>
      ),
    },
    { key: 'card_pwd', header: t('cards.cardPwd'), cell: (row) => <Password row={row} t={t} /> },
    {
      key: 'asset',
      header: t('cards.asset'),
      cell: (row) => t(CARD_ASSET_LABEL[row.asset], { moneyName }),
    },
    {
      key: 'face_value',
      header: t('cards.faceValue'),
      align: 'end',
      cell: (row) => amount(row, row.face_value),
    },
    {
      key: 'price',
      header: t('cards.price'),
      align: 'end',
      cell: (row) => amount({ asset: 'money' }, row.price),
    },
    {
      key: 'status',
      header: t('cards.status'),
      cell: (row) => {
        const state = cardState(row);
        return (
          <Badge colorPalette={CARD_STATE_PALETTE[state]} data-testid="card-status">
            {t(CARD_STATE_LABEL[state])}
          </Badge>
        );
      },
    },
    { key: 'owner', header: t('cards.owner'), cell: (row) => row.owner_username },
    {
      key: 'used_by',
      header: t('cards.usedBy'),
      cell: (row) =>
        row.used_by_username ? (
          <Stack gap="0">
            <Text as="span">{row.used_by_username}</Text>
            {row.used_at !== null && (
              <Text as="span" fontSize="xs" color="fg.muted">
                {formatDateTime(row.used_at)}
              </Text>
            )}
          </Stack>
        ) : (
          ''
        ),
    },
    {
      key: 'expire_at',
      header: t('cards.expiry'),
      cell: (row) => (row.expire_at === null ? t('cards.never') : formatDateTime(row.expire_at)),
    },
    {
      key: 'batch_no',
      header: t('cards.batchNo'),
      cell: (row) => (
        <Button
          size="2xs"
          variant="plain"
          textDecoration="underline"
          aria-label={t('cards.showBatchOf', { batch: row.batch_no })}
          onClick={() => o.onBatch(row.batch_no)}
        >
          {row.batch_no}
        </Button>
      ),
    },
    {
      key: 'remarks',
      header: t('cards.remarks'),
      cell: (row) => (
        <Stack gap="0" fontSize="sm">
          {o.isAdmin && row.remark_admin && (
            <Text as="span">{t('cards.remarkAdmin', { remark: row.remark_admin })}</Text>
          )}
          {row.remark_owner && (
            <Text as="span">{t('cards.remarkOwner', { remark: row.remark_owner })}</Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'created_at',
      header: t('cards.created'),
      cell: (row) => formatDateTime(row.created_at),
    },
    {
      key: 'actions',
      pinned: 'end',
      header: t('cards.actions'),
      cell: (row) => {
        const unusedOrVoid = row.status === 0 || row.status === 2;
        return (
          <HStack gap="1">
            {row.status === 0 && (
              <Button
                size="2xs"
                variant="outline"
                disabled={o.busy}
                aria-label={t('cards.voidCard', { card: row.card_no })}
                onClick={() => o.onStatus(row, 2)}
              >
                {t('cards.void')}
              </Button>
            )}
            {row.status === 2 && (
              <Button
                size="2xs"
                variant="outline"
                disabled={o.busy}
                aria-label={t('cards.restoreCard', { card: row.card_no })}
                onClick={() => o.onStatus(row, 0)}
              >
                {t('cards.restore')}
              </Button>
            )}
            {row.status === 0 && (
              <Button
                size="2xs"
                variant="outline"
                disabled={o.busy}
                aria-label={t('cards.expiryOf', { card: row.card_no })}
                onClick={() => o.onExpiry(row)}
              >
                {t('cards.expiry')}
              </Button>
            )}
            <Button
              size="2xs"
              variant="outline"
              aria-label={t('cards.remarkCard', { card: row.card_no })}
              onClick={() => o.onRemark(row)}
            >
              {t('cards.remark')}
            </Button>
            {unusedOrVoid && (
              <Button
                size="2xs"
                variant="outline"
                colorPalette="red"
                aria-label={t('cards.deleteCard', { card: row.card_no })}
                onClick={() => o.onDelete(row)}
              >
                {t('cards.delete')}
              </Button>
            )}
          </HStack>
        );
      },
    },
  ];
}
