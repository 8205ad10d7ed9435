import { Button } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { useT } from './use-t';

/**
 * The search parameter that opens the audit log filtered to one record: `?record=user:5`, or
 * `?record=platform_config` for a record that is one of its kind, without an id (the platform's
 * settings, the system init settings: docs/domain.md "The audit log viewer").
 */
export const AUDIT_RECORD_PARAM = 'record';

/**
 * The audit log's timeline of one record (its type as the log names it: `user`, `domain`, …;
 * no id: the one record of its type, e.g. `platform_config`).
 */
export function auditTimelineLink(type: string, id?: number): string {
  const record = id === undefined ? type : `${type}:${id}`;
  return `/account/audit?${AUDIT_RECORD_PARAM}=${encodeURIComponent(record)}`;
}

/** A `?record=` value as a resource type and id (id null: the type alone; null: malformed). */
export function parseAuditRecord(value: string): { type: string; id: number | null } | null {
  const m = /^([a-z][a-z0-9_.]{0,63})(?::(\d{1,15}))?$/.exec(value);
  if (!m) return null;
  if (m[2] === undefined) return { type: m[1], id: null };
  const id = Number(m[2]);
  return Number.isSafeInteger(id) && id > 0 ? { type: m[1], id } : null;
}

/**
 * "History" on a record (a customer, a domain, a setting): the audit log page filtered to that
 * record's rows in time order. Shown only to the roles that may read the log (admin, partner),
 * whose page checks the scope again on the server. `name` names the record in the link's
 * accessible name.
 */
export function AuditTimelineLink(props: {
  type: string;
  /** None: the one record of its type (the platform's settings). */
  id?: number;
  name: string;
  size?: '2xs' | 'xs' | 'sm';
  variant?: 'ghost' | 'outline' | 'solid';
}) {
  const t = useT();
  return (
    <Button asChild size={props.size ?? 'xs'} variant={props.variant ?? 'ghost'}>
      <Link
        to={auditTimelineLink(props.type, props.id)}
        aria-label={t('audit.timelineOf', { name: props.name })}
      >
        {t('audit.timeline')}
      </Link>
    </Button>
  );
}
