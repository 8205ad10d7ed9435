import type { Executor } from '../../platform/db/schema';
import { findActiveDomain, normalizeHost } from '../system';

/** The owner id of the platform's own articles and agreements (docs/domain.md "Articles and agreements"). */
export const PLATFORM_OWNER = 0;

/**
 * The partner whose overrides apply on a host (docs/domain.md "Articles and agreements"):
 * the owner of the active `domains` row of that host, or the platform (0) for an unknown,
 * disabled or platform-owned domain (`owner_id` null). The one place that maps a domain to its
 * partner.
 */
export async function partnerOfDomain(db: Executor, host: string | undefined): Promise<number> {
  const name = normalizeHost(host);
  if (!name) return PLATFORM_OWNER;
  const row = await findActiveDomain(db, name);
  return row?.owner_id ? Number(row.owner_id) : PLATFORM_OWNER;
}
