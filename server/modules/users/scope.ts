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
