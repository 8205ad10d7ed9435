import { Badge, Box, Button, Stack, Table, Text } from '@chakra-ui/react';
import type { AuditRow } from '../../api/contract/audit';
import type { Column } from '../../components/data-table';
import { formatDateTime } from '../../components/dates';
import type { MessageId } from '../../i18n/messages';

type T = (id: MessageId, values?: Record<string, string | number>) => string;

interface AuditColumnContext {
  t: T;
  /** The rows whose diff is shown. */
  expanded: ReadonlySet<number>;
  onToggle: (id: number) => void;
}

/** A value of a diff as text: strings as they are, empty as "(empty)", others as JSON. */
function valueText(t: T, value: unknown): string {
  if (value === undefined || value === null || value === '') return t('audit.empty.value');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A row's field diff: field, before → after; a secret only "changed" (the server never sends its
 * value: docs/domain.md "The audit log viewer").
 */
function AuditDiff(props: { row: AuditRow; t: T }) {
  const { row, t } = props;
  const fields = Object.entries(row.diff);
  if (fields.length === 0) return <Text fontSize="sm">{t('audit.noChanges')}</Text>;
  return (
    <Table.Root size="sm" variant="outline" data-testid="audit-diff">
      <Table.Caption captionSide="top" textAlign="start" fontSize="sm">
        {t('audit.changesOf', { id: row.id })}
      </Table.Caption>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>{t('audit.field')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('audit.before')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('audit.after')}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {fields.map(([field, change]) => (
          <Table.Row key={field}>
            <Table.Cell fontFamily="mono">{field}</Table.Cell>
            {change === 'changed' ? (
              <Table.Cell colSpan={2}>
                <Badge colorPalette="orange">{t('audit.changed')}</Badge>
              </Table.Cell>
            ) : (
              <>
                <Table.Cell wordBreak="break-all">
                  {'before' in change ? valueText(t, change.before) : '—'}
                </Table.Cell>
                <Table.Cell wordBreak="break-all">
                  {'after' in change ? valueText(t, change.after) : '—'}
                </Table.Cell>
              </>
            )}
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function Changes(props: { row: AuditRow; c: AuditColumnContext }) {
  const { row, c } = props;
  const count = Object.keys(row.diff).length;
  if (count === 0) return <Text fontSize="sm">{c.t('audit.noChanges')}</Text>;
  const open = c.expanded.has(row.id);
  const regionId = `audit-diff-${row.id}`;
  return (
    <Stack gap="2" alignItems="start">
      <Button
        size="xs"
        variant="outline"
        aria-expanded={open}
        aria-controls={regionId}
        onClick={() => c.onToggle(row.id)}
      >
        {open ? c.t('audit.hideChanges') : c.t('audit.showChanges', { count })}
      </Button>
      <Box id={regionId} hidden={!open} minWidth="72">
        {open && <AuditDiff row={row} t={c.t} />}
      </Box>
    </Stack>
  );
}

/** The log's columns: time, actor, role, action, target, result, IP, and the expandable diff. */
export function auditColumns(c: AuditColumnContext): Column<AuditRow>[] {
  const { t } = c;
  return [
    { key: 'time', header: t('audit.time'), cell: (r) => formatDateTime(r.created_at) },
    {
      key: 'actor',
      header: t('audit.actor'),
      cell: (r) => (
        <Stack gap="0">
          <Text>
            {r.actor_id === null
              ? t('audit.anonymous')
              : `${r.actor_username ?? '—'} (#${r.actor_id})`}
          </Text>
          {r.original_actor_username && (
            <Text fontSize="xs" color="fg.muted">
              {t('audit.onBehalf', { name: r.original_actor_username })}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'role',
      header: t('audit.role'),
      cell: (r) => (r.actor_role ? t(`role.${r.actor_role}`) : '—'),
    },
    {
      key: 'action',
      header: t('audit.action'),
      cell: (r) => <Text fontFamily="mono">{r.action}</Text>,
    },
    {
      key: 'target',
      header: t('audit.target'),
      cell: (r) =>
        `${r.resource_type}${r.resource_ids.length > 0 ? ` #${r.resource_ids.join(', #')}` : ''}`,
    },
    {
      key: 'result',
      header: t('audit.result'),
      cell: (r) =>
        r.result === 'ok' ? (
          <Badge colorPalette="green">{t('audit.ok')}</Badge>
        ) : (
          <Stack gap="0">
            <Badge colorPalette="red" alignSelf="start">
              {t('audit.refused')}
            </Badge>
            {r.error_code && (
              <Text fontSize="xs" fontFamily="mono">
                {r.error_code}
              </Text>
            )}
          </Stack>
        ),
    },
    { key: 'ip', header: t('audit.ip'), cell: (r) => r.ip ?? '—' },
    { key: 'changes', header: t('audit.changes'), cell: (r) => <Changes row={r} c={c} /> },
  ];
}
