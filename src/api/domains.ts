/**
 * Domains and brands (docs/domain.md §12) under `/domain`; contract: ./contract/domains.ts.
 */
import type {
  Domain,
  DomainAddBody,
  DomainDeleteBody,
  DomainEditBody,
  DomainPage,
} from './contract/domains';
import { get, post, type RequestOptions } from './http';

/** GET /domain/list's query; '' or absent: no filter (`owner_id` 0: the platform's domains). */
export interface DomainListParams {
  keyword?: string;
  owner_id?: number | '';
  page?: number;
  limit?: number;
}

export function getDomains(query: DomainListParams, options?: RequestOptions): Promise<DomainPage> {
  return get<DomainPage>('/domain/list', { ...query }, options);
}

export function addDomain(body: DomainAddBody, options?: RequestOptions): Promise<Domain> {
  return post<Domain>('/domain/add', body, options);
}

export function editDomain(body: DomainEditBody, options?: RequestOptions): Promise<Domain> {
  return post<Domain>('/domain/edit', body, options);
}

export function deleteDomains(
  body: DomainDeleteBody,
  options?: RequestOptions,
): Promise<{ ids: number[] }> {
  return post<{ ids: number[] }>('/domain/delete', body, options);
}
