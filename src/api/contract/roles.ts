/** Roles of docs/domain.md §13. The user_type index maps to a role; 'developer' only gates diagnostic groups. */
export const ROLES = ['admin', 'partner', 'merchant', 'agent', 'developer'] as const;
export type Role = (typeof ROLES)[number];

export const USER_TYPES = [0, 1, 2, 3] as const;
export type UserType = (typeof USER_TYPES)[number];

const byIndex: Record<UserType, Role> = { 0: 'admin', 1: 'partner', 2: 'merchant', 3: 'agent' };

/** Default user_type is 1 (docs/domain.md §17). */
export const DEFAULT_USER_TYPE: UserType = 1;

export function roleOf(userType: number | null | undefined): Role {
  const t = (userType ?? DEFAULT_USER_TYPE) as UserType;
  return byIndex[t] ?? byIndex[DEFAULT_USER_TYPE];
}
