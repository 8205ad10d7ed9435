import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Role } from '../../../src/api/contract/roles';

export interface ScopeSubject {
  role: Role;
  user: { id: number };
}

/**
 * docs/domain.md §2 `visible(u)` over the users table: admin – everyone; partner – its subtree
 * (`service_id = u.id`, itself included); agent – itself and the merchants it referred;
 * merchant (and anyone else) – itself. An SQL condition on the table `users` (not aliased).
 */
export function visibleUsers(subject: ScopeSubject): RawBuilder<SqlBool> {
  const id = subject.user.id;
  switch (subject.role) {
    case 'admin':
      return sql<SqlBool>`1 = 1`;
    case 'partner':
      return sql<SqlBool>`users.service_id = ${id}`;
    case 'agent':
      return sql<SqlBool>`(users.id = ${id} or (users.agent_id = ${id} and users.user_type = 2))`;
    default:
      return sql<SqlBool>`users.id = ${id}`;
  }
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
