import { useState } from 'react';
import { useIntl } from 'react-intl';
import { CARD_ASSETS } from '../../api/contract/cards';
import { useArea } from '../../app/actors/areas';
import { cardsArea, NO_CARD_FILTERS, type CardFilters } from '../../app/actors/cards';
import { useLoadActor } from '../../app/hooks/use-load';
import { FilterBar, FilterDate, FilterSelect, FilterText } from '../../components/filter-bar';
import type { MessageId } from '../../i18n/messages';
import { CARD_ASSET_LABEL, CARD_STATE_LABEL, userLabel } from '../shared/card-format';

const STATUS_OPTIONS = [
  { value: '0', state: 'unused' },
  { value: '1', state: 'used' },
  { value: '2', state: 'void' },
  { value: 'expired', state: 'expired' },
] as const;

/** The filters of the card list; Search applies them, Reset clears them. */
export function CardFilterBar(props: {
  applied: CardFilters;
  onApply: (filters: CardFilters) => void;
  moneyName: string;
  me: { id: number; label: string } | null;
}) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const [draft, setDraft] = useState<CardFilters>(props.applied);
  // A filter applied from elsewhere (a batch link, a new batch) shows in the fields.
  const [seen, setSeen] = useState(props.applied);
  if (seen !== props.applied) {
    setSeen(props.applied);
    setDraft(props.applied);
  }
  const set = (key: keyof CardFilters) => (value: string) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const users = useLoadActor(useArea(cardsArea).filterUsers);
  const userOptions = [
    ...(props.me
      ? [{ value: String(props.me.id), label: t('cards.me', { name: props.me.label }) }]
      : []),
    ...(users.data?.list ?? []).map((u) => ({ value: String(u.id), label: userLabel(u) })),
  ];
  return (
    <FilterBar
      label={t('cards.filters')}
      onApply={() => props.onApply(draft)}
      onReset={() => {
        setDraft(NO_CARD_FILTERS);
        props.onApply(NO_CARD_FILTERS);
      }}
    >
      <FilterText label={t('cards.cardNo')} value={draft.cardNo} onChange={set('cardNo')} />
      <FilterText label={t('cards.batchNo')} value={draft.batchNo} onChange={set('batchNo')} />
      <FilterSelect
        label={t('cards.asset')}
        value={draft.asset}
        onChange={set('asset')}
        options={CARD_ASSETS.map((a) => ({
          value: a,
          label: t(CARD_ASSET_LABEL[a], { moneyName: props.moneyName }),
        }))}
      />
      <FilterSelect
        label={t('cards.status')}
        value={draft.status}
        onChange={set('status')}
        options={STATUS_OPTIONS.map((o) => ({
          value: o.value,
          label: t(CARD_STATE_LABEL[o.state]),
        }))}
      />
      <FilterSelect
        label={t('cards.owner')}
        value={draft.owner}
        onChange={set('owner')}
        options={userOptions}
      />
      <FilterSelect
        label={t('cards.usedBy')}
        value={draft.usedBy}
        onChange={set('usedBy')}
        options={userOptions}
      />
      <FilterDate label={t('cards.createdFrom')} value={draft.from} onChange={set('from')} />
      <FilterDate label={t('cards.createdTo')} value={draft.to} onChange={set('to')} />
    </FilterBar>
  );
}
