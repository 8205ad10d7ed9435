import type { Executor } from '../../platform/db/schema';

export interface AuditEntry {
  actorId: number | null;
  action: string;
  targetType: string;
  targetId: number | null;
  ip?: string;
  detail?: Record<string, unknown>;
  now: number;
}

/** Appends one audit row (who did what to which row, from where). */
export async function writeAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      ip: entry.ip ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
      created_at: entry.now,
    })
    .execute();
}
