import type { AppContext, AuthContext } from '../../context';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { lockUsers } from '../ledger';
import { endSessionsOfUser } from '../sessions';
import { findUserById, updateUser } from '../users';
import { managedUser } from './customer-rules';
import { PARTNER, hasChildren, ownsDomains } from './repo';

/**
 * POST /provider_service/delete (admin, or the user's partner): soft delete, only with all four
 * balances at zero and nobody under it; its sessions end. Its username, mobile and prefix stay
 * taken.
 */
export async function deleteCustomer(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  audit: AuditTrail,
): Promise<void> {
  const target = await managedUser(ctx.db, auth, id);
  await runInTransaction(
    ctx.db,
    async (trx) => {
      await lockUsers(ctx, trx, [target.id]);
      const fresh = await findUserById(trx, target.id);
      if (!fresh) throw refuse('customer.notFound');
      const balances = [
        fresh.money,
        fresh.digital_man_seconds,
        fresh.voice_clone_count,
        fresh.image_clone_count,
      ];
      if (balances.some((b) => Number(b) !== 0)) throw refuse('customer.hasBalance');
      if (await hasChildren(trx, target.id)) throw refuse('customer.hasChildren');
      if (target.user_type === PARTNER && (await ownsDomains(trx, target.id))) {
        throw refuse('customer.hasDomains');
      }
      const now = ctx.now();
      await updateUser(trx, target.id, { deleted_at: now, updated_at: now });
      await endSessionsOfUser(ctx, trx, target.id, 'admin');
      audit.change({ deleted_at: null }, { deleted_at: now });
    },
    { audit },
  );
}
