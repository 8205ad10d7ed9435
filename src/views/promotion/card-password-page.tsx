import { Button, Checkbox, HStack, Stack, Wrap } from '@chakra-ui/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { fromPromise } from 'xstate';
import { MAX_CARD_PAGE_SIZE, type CardRow, type EditCardBody } from '../../api/contract/cards';
import { addCards, editCard, getCards, transferCards } from '../../api/cards';
import { newIdempotencyKey } from '../../api/money';
import { useAppActors } from '../../app/actors/actors-context';
import { useFormSubmit } from '../../app/hooks/use-form-submit';
import { useList } from '../../app/hooks/use-list';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { DataTable } from '../../components/data-table';
import { Page } from '../../components/page';
import type { MessageId } from '../../i18n/messages';
import { generateCardsMachine } from '../../machines/cards/generate';
import { cardTransferMachine, type CardSelection } from '../../machines/cards/transfer';
import { cardColumns } from './card-columns';
import { CardExport } from './card-export';
import { CardFilterBar, NO_CARD_FILTERS, cardQuery, type CardFilters } from './card-filters';
import { CardGenerateDialog } from './card-generate-dialog';
import { CardRedeem } from './card-redeem-dialog';
import { CardDeleteDialog, CardExpiryDialog, CardRemarkDialog } from './card-row-dialogs';
import { CardTransferDialog } from './card-transfer-dialog';

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

  const list = useList<CardFilters, CardRow>(
    'cards',
    ({ filters, page, limit }, signal) =>
      getCards({ ...cardQuery(filters), page, limit }, { signal }),
    NO_CARD_FILTERS,
    { maxLimit: MAX_CARD_PAGE_SIZE },
  );
  const filters = list.query.filters;
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const { reload, setFilters } = list;
  const refresh = () => {
    setSelected(new Set());
    reload();
  };
  const applyFilters = (next: CardFilters) => {
    setSelected(new Set());
    setFilters(next);
  };
  const showBatch = (batchNo: string) => applyFilters({ ...NO_CARD_FILTERS, batchNo });

  const generateActor = useActorRef(
    generateCardsMachine.provide({
      actors: {
        submit: fromPromise(({ input }) =>
          addCards(
            {
              asset: input.draft.asset,
              face_value: input.draft.faceValue,
              quantity: input.draft.quantity,
              expire_at: input.draft.expireAt,
              price: input.draft.price,
              ...(input.draft.remark ? { remark: input.draft.remark } : {}),
            },
            input.key,
          ),
        ),
      },
    }),
    { input: { newKey: newIdempotencyKey } },
  );
  const transferActor = useActorRef(
    cardTransferMachine.provide({
      actors: {
        submit: fromPromise(({ input }) =>
          transferCards({
            ...('ids' in input.selection
              ? { ids: input.selection.ids }
              : { batch_no: input.selection.batchNo }),
            to_user_id: input.target.id,
          }),
        ),
      },
    }),
  );
  // After a call that may have changed cards, show the list afresh.
  const generated = useSelector(generateActor, (s) =>
    s.value === 'done' || s.value === 'failed' ? `${s.context.attempts}:${String(s.value)}` : '',
  );
  const transferred = useSelector(transferActor, (s) => s.value === 'done');
  useEffect(() => {
    if (generated || transferred) refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [generated, transferred]);

  const status = useFormSubmit<EditCardBody, CardRow>((body) => editCard(body));
  const { done: statusDone, reset: statusReset } = status;
  useEffect(() => {
    if (!statusDone) return;
    statusReset();
    reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [statusDone]);
  const [deleting, setDeleting] = useState<CardSelection | null>(null);
  const [remarking, setRemarking] = useState<CardRow | null>(null);
  const [expiring, setExpiring] = useState<CardRow | null>(null);

  const rows = list.rows;
  const columns = useMemo(
    () =>
      cardColumns({
        t,
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
        onRemark: setRemarking,
        onExpiry: setExpiring,
        onDelete: (row) => setDeleting({ ids: [row.id] }),
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [intl, moneyName, isAdmin, selected, status.submitting],
  );
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
          {isPartner && <CardRedeem onRedeemed={reload} />}
          <Button onClick={() => generateActor.send({ type: 'OPEN' })}>
            {t('cards.generate')}
          </Button>
        </HStack>
      }
    >
      <CardFilterBar applied={filters} onApply={applyFilters} moneyName={moneyName} me={me} />
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
        <Button variant="outline" disabled={ids.length === 0} onClick={() => setDeleting({ ids })}>
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
            <Button variant="outline" onClick={() => setDeleting({ batchNo })}>
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
      {deleting && (
        <CardDeleteDialog
          selection={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            refresh();
          }}
        />
      )}
      {expiring && (
        <CardExpiryDialog
          row={expiring}
          onClose={() => setExpiring(null)}
          onSaved={() => {
            setExpiring(null);
            reload();
          }}
        />
      )}
      {remarking && (
        <CardRemarkDialog
          row={remarking}
          isAdmin={isAdmin}
          onClose={() => setRemarking(null)}
          onSaved={() => {
            setRemarking(null);
            reload();
          }}
        />
      )}
    </Page>
  );
}
