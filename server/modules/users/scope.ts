import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Role } from '../../../src/api/contract/roles';
import type { Database } from '../../db/schema';

export interface ScopeSubject {
  role: Role;
  user: { id: number };
}

/**
 * DOMAIN.md §0 `visible(u)` over the users table: admin – everyone; partner – its subtree
 * (`service_id = u.id`, itself included); agent – itself and the merchants it referred;
 * merchant (and anyone else) – itself.
 */
export function visibleUsers(subject: ScopeSubject) {
  return (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> => {
    const id = subject.user.id;
    switch (subject.role) {
      case 'admin':
        return sql<SqlBool>`1 = 1`;
      case 'partner':
        return eb('users.service_id', '=', id);
      case 'agent':
        return eb.or([
          eb('users.id', '=', id),
          eb.and([eb('users.agent_id', '=', id), eb('users.user_type', '=', 2)]),
        ]);
      default:
        return eb('users.id', '=', id);
    }
  };
}

/**
 * Whom the caller may act on as an ancestor (transfers, cards, transfer permissions): admin – any
 * user but an admin; partner – its descendants; anyone else – nobody. Callers answer a user out of
 * reach exactly like a missing one.
 */
export function reachesUser<T extends { id: number; user_type: number; service_id: number }>(
  subject: ScopeSubject,
  target: T | undefined,
): target is T {
  if (!target) return false;
  if (subject.role === 'admin') return target.user_type !== 0;
  if (subject.role === 'partner') {
    return target.service_id === subject.user.id && target.id !== subject.user.id;
  }
  return false;
}
