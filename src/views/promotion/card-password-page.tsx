import { Button, Checkbox, HStack, Stack, Wrap } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { MAX_CARD_PAGE_SIZE, type CardRow, type EditCardBody } from '../../api/contract/cards';
import { useAppActors } from '../../app/actors/actors-context';
import { useArea } from '../../app/actors/areas';
import { cardQuery, cardsArea, NO_CARD_FILTERS } from '../../app/actors/cards';
import { useListActor } from '../../app/hooks/use-list';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { useSubmitActor } from '../../app/hooks/use-submit-actor';
import { DataTable } from '../../components/data-table';
import { Page } from '../../components/page';
import type { MessageId } from '../../i18n/messages';
import { cardColumns } from './card-columns';
import { CardExport } from './card-export';
import { CardFilterBar } from './card-filters';
import { CardGenerateDialog } from './card-generate-dialog';
import { CardRedeem } from '../shared/card-redeem-dialog';
import { CardDeleteDialog, CardExpiryDialog, CardRemarkDialog } from './card-row-dialogs';
import { CardTransferDialog } from './card-transfer-dialog';

const NONE: ReadonlySet<number> = new Set();

/** Up to a whole `add` batch (1000 cards) on one page; the table virtualises pages over 100. */
const CARD_PAGE_SIZES = [20, 50, 100, MAX_CARD_PAGE_SIZE] as const;

/**
 * /promotion/card-password (admin, partner): the cards the caller may see, filtered and paged by
 * the server; generate, transfer, delete (with refunds), export, redeem; per row void / restore,
 * remark, delete. Each flow is a machine (src/machines/cards, list.ts, form-submit.ts).
 */
export default function CardPasswordPage() {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const moneyName = useMoneyName();
  const { auth } = useAppActors();
  const user = useSelector(auth, (s) => s.context.user);
  const isAdmin = user?.user_type === 0;
  const isPartner = user?.user_type === 1;
  const me = user ? { id: user.accountId, label: user.nickname || user.username } : null;

  const area = useArea(cardsArea);
  const list = useListActor(area.cards);
  const filters = list.query.filters;
  // A selection belongs to the cards it was made on: a change of the cards (a new batch, a
  // transfer, a delete) or of the filters starts an empty one.
  const changes = useSelector(area.changes, (s) => s.context);
  const [picked, setPicked] = useState<{ at: unknown; ids: ReadonlySet<number> }>({
    at: null,
    ids: new Set(),
  });
  const at = `${changes}:${JSON.stringify(filters)}`;
  const selected = picked.at === at ? picked.ids : NONE;
  const setSelected = (next: (s: ReadonlySet<number>) => ReadonlySet<number>) =>
    setPicked({ at, ids: next(selected) });
  const { setFilters } = list;
  const showBatch = (batchNo: string) => setFilters({ ...NO_CARD_FILTERS, batchNo });
  const { generate: generateActor, transfer: transferActor } = area;
  const status = useSubmitActor<EditCardBody, CardRow>(area.status);

  const rows = list.rows;
  const columns = cardColumns({
    t: (id, values) => intl.formatMessage({ id }, values),
    intl,
    moneyName,
    isAdmin,
    selected,
    busy: status.submitting,
    onSelect: (id, on) =>
      setSelected((s) => {
        const next = new Set(s);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    onBatch: showBatch,
    onStatus: (row, to) => status.submit({ id: row.id, status: to }),
    onRemark: (row) => area.remark.send({ type: 'OPEN', target: row, given: isAdmin }),
    onExpiry: (row) => area.expiry.send({ type: 'OPEN', target: row }),
    onDelete: (row) => area.remove.send({ type: 'OPEN', target: { ids: [row.id] } }),
  });
  const ids = [...selected];
  const batchNo = filters.batchNo.trim();
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const someOnPage = rows.some((r) => selected.has(r.id));
  const exportQuery = ids.length ? { ids } : cardQuery(filters);

  return (
    <Page
      title={t('route.cardPassword')}
      actions={
        <HStack gap="2">
          {isPartner && <CardRedeem />}
          <Button onClick={() => generateActor.send({ type: 'OPEN' })}>
            {t('cards.generate')}
          </Button>
        </HStack>
      }
    >
      <CardFilterBar applied={filters} onApply={setFilters} moneyName={moneyName} me={me} />
      <Wrap gap="2" role="group" aria-label={t('cards.toolbar')} alignItems="center">
        <Checkbox.Root
          size="sm"
          checked={allOnPage ? true : someOnPage ? 'indeterminate' : false}
          disabled={rows.length === 0}
          onCheckedChange={(e) =>
            setSelected((s) => {
              const next = new Set(s);
              for (const r of rows) {
                if (e.checked === true) next.add(r.id);
                else next.delete(r.id);
              }
              return next;
            })
          }
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>{t('cards.selectPage')}</Checkbox.Label>
        </Checkbox.Root>
        <Button
          variant="outline"
          disabled={ids.length === 0}
          onClick={() => transferActor.send({ type: 'OPEN', selection: { ids } })}
        >
          {t('cards.transferSelected', { count: ids.length })}
        </Button>
        <Button
          variant="outline"
          disabled={ids.length === 0}
          onClick={() => area.remove.send({ type: 'OPEN', target: { ids } })}
        >
          {t('cards.deleteSelected', { count: ids.length })}
        </Button>
        {batchNo && (
          <>
            <Button
              variant="outline"
              onClick={() => transferActor.send({ type: 'OPEN', selection: { batchNo } })}
            >
              {t('cards.transferBatch', { batch: batchNo })}
            </Button>
            <Button
              variant="outline"
              onClick={() => area.remove.send({ type: 'OPEN', target: { batchNo } })}
            >
              {t('cards.deleteBatch', { batch: batchNo })}
            </Button>
          </>
        )}
        <CardExport
          query={exportQuery}
          count={ids.length || list.total}
          selected={ids.length > 0}
        />
      </Wrap>
      <Stack gap="2">
        <DataTable
          label={t('cards.list')}
          testId="cards"
          columns={columns}
          rowKey={(r) => r.id}
          pageSizes={CARD_PAGE_SIZES}
          {...list.table}
        />
      </Stack>
      <CardGenerateDialog
        actor={generateActor}
        moneyName={moneyName}
        pays={isPartner}
        onShowBatch={showBatch}
      />
      <CardTransferDialog actor={transferActor} />
      <CardDeleteDialog actor={area.remove} />
      <CardExpiryDialog actor={area.expiry} />
      <CardRemarkDialog actor={area.remark} />
    </Page>
  );
}
