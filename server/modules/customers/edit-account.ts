import type { CustomerRow, EditAccountData } from '../../../src/api/contract/customers';
import type { AppContext, AuthContext } from '../../context';
import { USER_STATUS } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { hashPassword } from '../../platform/lib/passwords';
import { clearAttempts } from '../auth';
import { accountKey } from '../auth';
import { endSessionsOfUser } from '../sessions';
import { updateUser } from '../users';
import {
  assertFree,
  managedUser,
  rowOf,
  withUniqueCheck,
  type UserChanges,
} from './customer-rules';

/**
 * POST /provider_service/edit_account (admin, or the user's partner): account name, password
 * reset (ends the user's sessions) and enable / disable (disable ends its sessions), in one
 * transaction with the call's audit row.
 */
export async function editAccount(
  ctx: AppContext,
  auth: AuthContext,
  body: EditAccountData,
  audit: AuditTrail,
): Promise<CustomerRow> {
  const target = await managedUser(ctx.db, auth, body.id);
  const newName = body.username !== undefined && body.username !== target.username;
  if (newName) await assertFree(ctx.db, { username: body.username }, target.id);
  const passwordHash = body.password !== undefined ? await hashPassword(body.password) : undefined;
  const newStatus = body.status !== undefined && body.status !== target.status;
  const changes: UserChanges = {
    username: newName ? body.username : undefined,
    password_hash: passwordHash,
    status: newStatus ? body.status : undefined,
  };
  if (!newName && passwordHash === undefined && !newStatus) {
    audit.unchanged();
    return rowOf(ctx, target.id);
  }
  audit.change(target, changes);
  await withUniqueCheck(ctx, { username: body.username }, target.id, () =>
    runInTransaction(
      ctx.db,
      async (trx) => {
        await updateUser(trx, target.id, { ...changes, updated_at: ctx.now() });
        if (passwordHash !== undefined) {
          await endSessionsOfUser(ctx, trx, target.id, 'password_reset');
          // A reset by an ancestor also lifts a lock from failed logins.
          await clearAttempts(trx, accountKey(target.username).key);
        }
        // Disabling ends its sessions at once (docs/decisions.md).
        if (newStatus && body.status === USER_STATUS.disabled) {
          await endSessionsOfUser(ctx, trx, target.id, 'disabled');
        }
      },
      { audit },
    ),
  );
  return rowOf(ctx, target.id);
}
