/**
 * Batch authorisation links (`/matrix/batch_link_*`, `/matrix/batch_auth_url`); contract: the
 * "Batch authorisation" part of ./contract/matrix.ts, rules: docs/domain.md §19. The owner's calls
 * (add, list, revoke) need a session; `getBatchLinkInfo` and `getBatchAuthUrl` are public (the
 * token is the credential) and throttled per address.
 */
import type { AuthUrlReply, BatchLink, BatchLinkAddBody, BatchLinkInfo } from './contract/matrix';
import { get, post, type RequestOptions } from './http';

/** Makes a link: its id, its URL (shown as a QR code too) and when it expires (epoch ms). */
export function addBatchLink(
  body: BatchLinkAddBody,
  options?: RequestOptions,
): Promise<{ id: number; url: string; expires_at: number }> {
  return post<{ id: number; url: string; expires_at: number }>(
    '/matrix/batch_link_add',
    body,
    options,
  );
}

/** One page of the caller's links, newest first. */
export function getBatchLinks(
  query: { page: number; limit: number },
  options?: RequestOptions,
): Promise<{ list: BatchLink[]; total: number }> {
  return get<{ list: BatchLink[]; total: number }>('/matrix/batch_link_list', query, options);
}

/** Revokes one of the caller's links (a revoked link binds nothing more). */
export function revokeBatchLink(body: { id: number }, options?: RequestOptions): Promise<null> {
  return post<null>('/matrix/batch_link_revoke', body, options);
}

/** Public: whose link it is, for which platform, and whether it can be used now. */
export function getBatchLinkInfo(
  query: { token: string },
  options?: RequestOptions,
): Promise<BatchLinkInfo> {
  return get<BatchLinkInfo>('/matrix/batch_link_info', query, options);
}

/** Public: where to send the person to authorise an account through the link. */
export function getBatchAuthUrl(
  body: { token: string },
  options?: RequestOptions,
): Promise<AuthUrlReply> {
  return post<AuthUrlReply>('/matrix/batch_auth_url', body, options);
}
