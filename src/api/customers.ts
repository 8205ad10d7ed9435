/**
 * Customers (partners, merchants, agents; docs/domain.md §1) under `/provider_service`, and the
 * transfer permissions of one user (`/platform/edit_transfer_config`). Contracts:
 * ./contract/customers.ts and ./contract/money.ts. The user picker (`platform_user_list`) is
 * `getPlatformUsers` in ./money.ts.
 */
import type {
  AddByServiceBody,
  AddCustomerBody,
  CustomerSort,
  CustomerPage,
  CustomerRow,
  DeleteCustomerBody,
  EditAccountBody,
  EditByServiceBody,
  EditCustomerBody,
} from './contract/customers';
import type { EditTransferConfigBody } from './contract/money';
import { get, post, type RequestOptions } from './http';

/** The list's query string (contract: `customerListQuery`; '' and undefined are left out). */
export interface CustomerListParams {
  user_type: 1 | 2 | 3;
  keyword?: string;
  status?: 0 | 1;
  service_id?: number | string;
  agent_id?: number | string;
  /** Lists the direct children of this user in the tree. */
  pid?: number;
  /** Epoch ms, half-open range `created_from <= created_at < created_to`. */
  created_from?: number;
  created_to?: number;
  sort?: CustomerSort;
  order?: 'asc' | 'desc';
  page?: number;
  limit?: number;
}

/** One page of the customers of a type the caller may see (admin: all; partner: its subtree). */
export function getCustomers(
  query: CustomerListParams,
  options?: RequestOptions,
): Promise<CustomerPage> {
  return get<CustomerPage>('/provider_service', { ...query }, options);
}

/** Admin: a partner, or a merchant / agent under the partner `service_id`. */
export function addCustomer(body: AddCustomerBody, options?: RequestOptions): Promise<CustomerRow> {
  return post<CustomerRow>('/provider_service/add', body, options);
}

/** Admin: profile fields, flags and partner fields of any customer. */
export function editCustomer(
  body: EditCustomerBody,
  options?: RequestOptions,
): Promise<CustomerRow> {
  return post<CustomerRow>('/provider_service/edit', body, options);
}

/** Partner: a merchant or agent under itself (agent / trial credit as the settings allow). */
export function addByService(
  body: AddByServiceBody,
  options?: RequestOptions,
): Promise<CustomerRow> {
  return post<CustomerRow>('/provider_service/add_by_service', body, options);
}

/** Partner: profile fields of one of its merchants or agents. */
export function editByService(
  body: EditByServiceBody,
  options?: RequestOptions,
): Promise<CustomerRow> {
  return post<CustomerRow>('/provider_service/edit_by_service', body, options);
}

/** Account name, password reset, enable / disable (a reset or a disable ends its sessions). */
export function editAccount(body: EditAccountBody, options?: RequestOptions): Promise<CustomerRow> {
  return post<CustomerRow>('/provider_service/edit_account', body, options);
}

/** Soft delete: refused unless every balance is zero and nobody is under the user. */
export function deleteCustomer(
  body: DeleteCustomerBody,
  options?: RequestOptions,
): Promise<unknown> {
  return post<unknown>('/provider_service/delete', body, options);
}

/** Every partner prefix in use (upper case), deleted partners' included. */
export function getUsedPrefixes(options?: RequestOptions): Promise<string[]> {
  return get<string[]>('/provider_service/used_service_prefix_no_list', undefined, options);
}

export interface TransferConfig {
  id: number;
  can_transfer_money: number;
  can_transfer_digital_man: number;
  can_transfer_digital_voice: number;
}

/** Which assets a user may transfer; a partner grants only what it holds itself. */
export function editTransferConfig(
  body: EditTransferConfigBody,
  options?: RequestOptions,
): Promise<TransferConfig> {
  return post<TransferConfig>('/platform/edit_transfer_config', body, options);
}
