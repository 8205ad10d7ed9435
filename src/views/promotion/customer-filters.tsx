import { useIntl } from 'react-intl';
import { FilterBar, FilterDate, FilterSelect, FilterText } from '../../components/filter-bar';
import type { MessageId } from '../../i18n/messages';
import type { CustomerFilters } from '../../app/actors/customers';
import { UserFilter } from './customer-pickers';

/** Keyword, status, partner (admin), agent (merchants) and the created range. */
export function CustomerFilterBar(props: {
  draft: CustomerFilters;
  setDraft: (update: (d: CustomerFilters) => CustomerFilters) => void;
  isAdmin: boolean;
  agentFilter: boolean;
  onApply: () => void;
  onReset: () => void;
}) {
  const intl = useIntl();
  const t = (id: MessageId) => intl.formatMessage({ id });
  const { draft } = props;
  const set = (key: keyof CustomerFilters) => (value: string) =>
    props.setDraft((d) => ({ ...d, [key]: value }));
  return (
    <FilterBar label={t('customers.filters')} onApply={props.onApply} onReset={props.onReset}>
      <FilterText label={t('customers.keyword')} value={draft.keyword} onChange={set('keyword')} />
      <FilterSelect
        label={t('customers.status')}
        value={draft.status}
        onChange={set('status')}
        options={[
          { value: '1', label: t('customers.statusNormal') },
          { value: '0', label: t('customers.statusDisabled') },
        ]}
      />
      {props.isAdmin && (
        <UserFilter
          userType={1}
          label={t('customers.partner')}
          value={draft.serviceId}
          onChange={set('serviceId')}
        />
      )}
      {props.agentFilter && (
        <UserFilter
          userType={3}
          label={t('customers.agent')}
          value={draft.agentId}
          onChange={set('agentId')}
        />
      )}
      <FilterDate label={t('customers.createdFrom')} value={draft.from} onChange={set('from')} />
      <FilterDate label={t('customers.createdTo')} value={draft.to} onChange={set('to')} />
    </FilterBar>
  );
}
