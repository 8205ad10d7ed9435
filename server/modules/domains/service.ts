import type {
  Domain,
  DomainAddInput,
  DomainEditInput,
  DomainListFilter,
} from '../../../src/api/contract/domains';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../platform/db/errors';
import type { Updateable } from 'kysely';
import type { DomainsTable, Executor } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { checkImageUse, PLATFORM_IMAGE_OWNER } from '../uploads';
import { findDomain, findDomainRow, hostnameTaken, isPartner, listDomains } from './repo';

/**
 * Domains and brands (docs/domain.md §12). Admin only (the routes' policy); every write runs in
 * one transaction with its audit row. `get_system_info` sees a change at once in this process
 * (its cache follows the table's writes) and within a few seconds in others.
 */

export function domainList(
  ctx: AppContext,
  filter: DomainListFilter,
): Promise<{ list: Domain[]; total: number }> {
  return listDomains(ctx.db, filter);
}

async function domainOrFail(db: Executor, id: number): Promise<Domain> {
  const domain = await findDomain(db, id);
  if (!domain) throw refuse('domain.notFound');
  return domain;
}

/** The owner must be the platform (null) or a live partner. */
async function checkOwner(db: Executor, ownerId: number | null | undefined): Promise<void> {
  if (ownerId === null || ownerId === undefined) return;
  if (!(await isPartner(db, ownerId))) throw refuse('domain.ownerNotPartner');
}

/**
 * A logo or favicon is an image the admin uploaded for it (docs/domain.md §12): the platform's,
 * of that purpose. '' (the platform's own) and a field not sent pass.
 */
async function checkImages(
  db: Executor,
  input: { logo?: string | undefined; favicon?: string | undefined },
): Promise<void> {
  const owners = [PLATFORM_IMAGE_OWNER];
  if (input.logo) await checkImageUse(db, [input.logo], 'logo', owners, 'validation.brandLogo');
  if (input.favicon) {
    await checkImageUse(db, [input.favicon], 'favicon', owners, 'validation.brandFavicon');
  }
}

async function checkHostname(db: Executor, hostname: string, exceptId?: number): Promise<void> {
  if (await hostnameTaken(db, hostname, exceptId)) {
    throw refuse('domain.hostnameTaken', { hostname });
  }
}

/** Two calls racing for one hostname: the unique index refuses the second. */
async function uniqueHostname<T>(hostname: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (hostname !== undefined && isUniqueViolation(error)) {
      throw refuse('domain.hostnameTaken', { hostname });
    }
    throw error;
  }
}

export async function addDomain(
  ctx: AppContext,
  input: DomainAddInput,
  audit: AuditTrail,
): Promise<Domain> {
  const now = ctx.now();
  const id = await uniqueHostname(input.hostname, () =>
    runInTransaction(
      ctx.db,
      async (trx) => {
        await checkHostname(trx, input.hostname);
        await checkOwner(trx, input.owner_id);
        await checkImages(trx, input);
        const values = {
          hostname: input.hostname,
          owner_id: input.owner_id ?? null,
          name: input.name,
          logo: input.logo ?? '',
          favicon: input.favicon ?? '',
          copyright: input.copyright ?? '',
          icp_record_number: input.icp_record_number ?? '',
          police_record: String(input.police_record ?? 0),
          police_record_number: input.police_record_number ?? '',
          money_name: input.money_name ?? '',
          theme_color: input.theme_color ?? '',
          dy_auth_publish_show: input.dy_auth_publish_show ?? 1,
          expirence_money_show: input.expirence_money_show ?? 1,
          saler_show: input.saler_show ?? 1,
          status: input.status ?? 1,
        };
        const row = await trx
          .insertInto('domains')
          .values({ ...values, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        audit.change(null, values);
        return Number(row.id);
      },
      { audit },
    ),
  );
  return domainOrFail(ctx.db, id);
}

/** Changes the fields sent; `status: 0` disables the domain (its visitors see the platform's brand). */
export async function editDomain(
  ctx: AppContext,
  input: DomainEditInput,
  audit: AuditTrail,
): Promise<Domain> {
  const { id, ...fields } = input;
  const changes: Record<string, string | number | null> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    changes[key] = key === 'police_record' ? String(value) : (value as string | number | null);
  }
  await uniqueHostname(input.hostname, () =>
    runInTransaction(
      ctx.db,
      async (trx) => {
        const before = await findDomainRow(trx, id);
        if (!before) throw refuse('domain.notFound');
        if (input.hostname !== undefined) await checkHostname(trx, input.hostname, id);
        await checkOwner(trx, input.owner_id);
        await checkImages(trx, input);
        await trx
          .updateTable('domains')
          .set({ ...(changes as Updateable<DomainsTable>), updated_at: ctx.now() })
          .where('id', '=', id)
          .execute();
        audit.change(
          Object.fromEntries(
            Object.keys(changes).map((k) => [k, before[k as keyof typeof before]]),
          ),
          changes,
        );
      },
      { audit },
    ),
  );
  return domainOrFail(ctx.db, id);
}

/** Deletes every listed domain, or none when one of them does not exist. */
export async function deleteDomains(
  ctx: AppContext,
  ids: readonly number[],
  audit: AuditTrail,
): Promise<{ ids: number[] }> {
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const rows = await trx.selectFrom('domains').selectAll().where('id', 'in', ids).execute();
      if (rows.length !== ids.length) throw refuse('domain.notFound');
      await trx.deleteFrom('domains').where('id', 'in', ids).execute();
      for (const row of rows) {
        audit.change({ [`${row.id}.hostname`]: row.hostname, [`${row.id}.name`]: row.name }, null);
      }
    },
    { audit },
  );
  return { ids: [...ids] };
}
