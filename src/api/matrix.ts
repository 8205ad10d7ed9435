/**
 * Matrix distribution's authorised accounts (`/matrix/*`); contract: ./contract/matrix.ts (the
 * groups share the resource library's group schemas). Only the caller's own accounts and groups
 * exist for it (another's answer like missing ones).
 */
import type {
  AccountDeleteBody,
  AccountListParams,
  AccountMoveBody,
  AccountPage,
  AuthUrlBody,
  AuthUrlReply,
  MatrixAccount,
} from './contract/matrix';
import type {
  GroupAddBody,
  GroupDeleteBody,
  GroupEditBody,
  GroupListReply,
  ResourceGroup,
} from './contract/resources';
import { get, post, type RequestOptions } from './http';

/** Where to send the person to authorise an account on `platform` (then back to the page). */
export function getAuthUrl(body: AuthUrlBody, options?: RequestOptions): Promise<AuthUrlReply> {
  return post<AuthUrlReply>('/matrix/auth_url', body, options);
}

/** One page of the caller's accounts (`group_id: 0`: the ungrouped ones). */
export function getAccounts(
  query: Partial<AccountListParams>,
  options?: RequestOptions,
): Promise<AccountPage> {
  return get<AccountPage>('/matrix/account_list', { ...query }, options);
}

/** Refreshes an account's tokens now; answers the account as it is after. */
export function refreshAccount(
  body: { id: number },
  options?: RequestOptions,
): Promise<MatrixAccount> {
  return post<MatrixAccount>('/matrix/account_refresh', body, options);
}

export function deleteAccounts(
  body: AccountDeleteBody,
  options?: RequestOptions,
): Promise<{ deleted: number }> {
  return post<{ deleted: number }>('/matrix/account_delete', body, options);
}

/** Moves accounts to a group, or to "ungrouped" (`group_id: 0`). */
export function moveAccounts(
  body: AccountMoveBody,
  options?: RequestOptions,
): Promise<{ moved: number }> {
  return post<{ moved: number }>('/matrix/account_move', body, options);
}

/** The caller's account groups with their counts, and the count of ungrouped accounts. */
export function getAccountGroups(options?: RequestOptions): Promise<GroupListReply> {
  return get<GroupListReply>('/matrix/account_group_list', undefined, options);
}

export function addAccountGroup(
  body: GroupAddBody,
  options?: RequestOptions,
): Promise<ResourceGroup> {
  return post<ResourceGroup>('/matrix/account_group_add', body, options);
}

export function editAccountGroup(
  body: GroupEditBody,
  options?: RequestOptions,
): Promise<ResourceGroup> {
  return post<ResourceGroup>('/matrix/account_group_edit', body, options);
}

/** Deletes a group; its accounts move to "ungrouped". */
export function deleteAccountGroup(body: GroupDeleteBody, options?: RequestOptions): Promise<null> {
  return post<null>('/matrix/account_group_delete', body, options);
}
