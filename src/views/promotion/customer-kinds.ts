import type { CustomerRow, CustomerSort } from '../../api/contract/customers';
import type { CustomerListParams } from '../../api/customers';
import { dayRange } from '../../components/filter-bar';
import type { MessageId } from '../../i18n/messages';

/**
 * The customer pages share one component (customer-page.tsx); each kind says which users it
 * lists and which columns and form fields it has.
 */
export type CustomerKind = 'merchant' | 'partner' | 'agent' | 'allMerchant';

export type ColumnKey =
  | 'id'
  | 'username'
  | 'name'
  | 'mobile'
  | 'parent'
  | 'prefix'
  | 'merchants'
  | 'money'
  | 'minutes'
  | 'clones'
  | 'status'
  | 'expire'
  | 'created'
  | 'actions';

export interface KindConfig {
  userType: 1 | 2 | 3;
  titleId: MessageId;
  addId: MessageId;
  /** Who may create users of this kind: partners create merchants and agents only. */
  partnerCreates: boolean;
  columns: readonly ColumnKey[];
  /** Filters by agent (merchants only). */
  agentFilter: boolean;
}

const BALANCES: readonly ColumnKey[] = ['money', 'minutes', 'clones'];
const TAIL: readonly ColumnKey[] = ['status', 'expire', 'created', 'actions'];

const MERCHANT: KindConfig = {
  userType: 2,
  titleId: 'route.merchant',
  addId: 'customers.addMerchant',
  partnerCreates: true,
  columns: ['id', 'username', 'name', 'mobile', 'parent', ...BALANCES, ...TAIL],
  agentFilter: true,
};

export const KINDS: Record<CustomerKind, KindConfig> = {
  merchant: MERCHANT,
  allMerchant: { ...MERCHANT, titleId: 'route.allMerchant' },
  partner: {
    userType: 1,
    titleId: 'route.partner',
    addId: 'customers.addPartner',
    partnerCreates: false,
    columns: ['id', 'username', 'name', 'mobile', 'prefix', 'merchants', ...BALANCES, ...TAIL],
    agentFilter: false,
  },
  agent: {
    userType: 3,
    titleId: 'route.agent',
    addId: 'customers.addAgent',
    partnerCreates: true,
    columns: ['id', 'username', 'name', 'mobile', 'parent', 'merchants', ...BALANCES, ...TAIL],
    agentFilter: false,
  },
};

export const TYPE_LABEL: Record<number, MessageId> = {
  1: 'customers.typePartner',
  2: 'customers.typeMerchant',
  3: 'customers.typeAgent',
};

/** The filters a person edits (strings of the form), plus the sort of the table. */
export interface CustomerFilters {
  keyword: string;
  status: string;
  serviceId: string;
  agentId: string;
  from: string;
  to: string;
  sort: CustomerSort | '';
  order: 'asc' | 'desc' | '';
}

export const NO_CUSTOMER_FILTERS: CustomerFilters = {
  keyword: '',
  status: '',
  serviceId: '',
  agentId: '',
  from: '',
  to: '',
  sort: '',
  order: '',
};

/** The list query of the filters (the API's range is half-open: `to` is the next day's start). */
export function customerQuery(userType: 1 | 2 | 3, f: CustomerFilters): CustomerListParams {
  const range = dayRange(f.from, f.to);
  return {
    user_type: userType,
    keyword: f.keyword.trim() || undefined,
    status: f.status === '' ? undefined : (Number(f.status) as 0 | 1),
    service_id: f.serviceId || undefined,
    agent_id: f.agentId || undefined,
    created_from: range.start,
    created_to: range.end === undefined ? undefined : range.end + 1,
    sort: f.sort || undefined,
    order: f.order || undefined,
  };
}

/** "Name (account)", or the account alone when the name is the account. */
export const customerLabel = (row: Pick<CustomerRow, 'name' | 'username'>): string =>
  row.name && row.name !== row.username ? `${row.name} (${row.username})` : row.username;
