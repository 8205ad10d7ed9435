import type { CustomerRow } from '../../api/contract/customers';
import type { CustomerKind } from '../../app/actors/customers';
import type { MessageId } from '../../i18n/messages';

/**
 * The customer pages share one component (customer-page.tsx); each kind (customers area) says
 * which users it lists and which columns and form fields it has.
 */

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

/** "Name (account)", or the account alone when the name is the account. */
export const customerLabel = (row: Pick<CustomerRow, 'name' | 'username'>): string =>
  row.name && row.name !== row.username ? `${row.name} (${row.username})` : row.username;
