import { Alert, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { auditListQuery } from '../../api/contract/audit';
import { useArea } from '../../app/actors/areas';
import { auditArea, auditQuery, NO_AUDIT_FILTERS, type AuditFilters } from '../../app/actors/audit';
import { useListActor } from '../../app/hooks/use-list';
import { fieldErrors } from '../../app/hooks/zod-errors';
import { DataTable } from '../../components/data-table';
import { FilterBar, FilterDate, FilterSelect, FilterText } from '../../components/filter-bar';
import { Page } from '../../components/page';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { AUDIT_RECORD_PARAM, parseAuditRecord } from '../shared/audit-link';
import { useDeepLinkValue } from '../shared/deep-links';
import { auditColumns } from './audit-columns';
import { AuditExport } from './audit-export';

/** The filters' problems as the server would name them (message ids), none when it accepts them. */
function filterProblems(f: AuditFilters): string[] {
  const parsed = auditListQuery.safeParse({ ...auditQuery(f), page: 1, limit: 20 });
  if (parsed.success) {
    const { from, to } = parsed.data;
    return from !== undefined && to !== undefined && from > to ? ['audit.rangeInverted'] : [];
  }
  return [...new Set(Object.values(fieldErrors(parsed.error)))];
}

/**
 * /account/audit (admin: every row; partner: its subtree's — docs/domain.md "The audit log
 * viewer"): the audit log newest first, filtered by actor, action, resource and days; a row's
 * changes open in place; Export CSV downloads every filtered row. `?record=user:5` (a record's
 * "History" link; `?record=platform_config`: the one record of a type) opens the log filtered to
 * that record: its timeline.
 */
export default function AuditPage() {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const area = useArea(auditArea);
  const list = useListActor(area.rows);
  const actions = useSelector(area.actions, (s) => s.context.data?.list ?? []);
  const [draft, setDraft] = useState<AuditFilters>(list.query.filters);
  const [problems, setProblems] = useState<string[]>([]);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const set = (key: keyof AuditFilters) => (value: string) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const apply = (filters: AuditFilters) => {
    setDraft(filters);
    setProblems([]);
    list.setFilters(filters);
  };
  // The filters a record's link applied: its timeline while they are the ones applied.
  const [linked, setLinked] = useState<AuditFilters | null>(null);
  useDeepLinkValue(AUDIT_RECORD_PARAM, (value) => {
    const record = parseAuditRecord(value);
    if (record) {
      const filters = {
        ...NO_AUDIT_FILTERS,
        resourceType: record.type,
        resourceId: record.id === null ? '' : String(record.id),
      };
      setLinked(filters);
      apply(filters);
    }
  });
  const columns = useMemo(
    () =>
      auditColumns({
        t: (id, values) => intl.formatMessage({ id }, values),
        expanded,
        onToggle: (id) =>
          setExpanded((open) => {
            const next = new Set(open);
            if (!next.delete(id)) next.add(id);
            return next;
          }),
      }),
    [intl, expanded],
  );
  const applied = list.query.filters;
  // A record's timeline: its type and id, or (a record one of its kind) the type alone; also when
  // typed in the filters (a type and an id), as before the links without an id.
  const byLink =
    linked !== null &&
    (Object.keys(linked) as (keyof AuditFilters)[]).every((k) => linked[k] === applied[k]);
  const timeline =
    applied.resourceType && (applied.resourceId || byLink)
      ? { type: applied.resourceType, id: applied.resourceId }
      : null;

  return (
    <Page
      title={t('route.auditLog')}
      actions={<AuditExport query={auditQuery(applied)} count={list.total} />}
    >
      <Stack gap="4">
        <FilterBar
          label={t('audit.filters')}
          onApply={() => {
            const found = filterProblems(draft);
            setProblems(found);
            if (found.length === 0) list.setFilters(draft);
          }}
          onReset={() => apply(NO_AUDIT_FILTERS)}
        >
          <FilterText label={t('audit.actor')} value={draft.actor} onChange={set('actor')} />
          <FilterSelect
            label={t('audit.action')}
            value={draft.action}
            onChange={set('action')}
            options={[...new Set([...actions, ...(draft.action ? [draft.action] : [])])].map(
              (a) => ({ value: a, label: a }),
            )}
          />
          <FilterText
            label={t('audit.resourceType')}
            value={draft.resourceType}
            onChange={set('resourceType')}
          />
          <FilterText
            label={t('audit.resourceId')}
            value={draft.resourceId}
            onChange={set('resourceId')}
          />
          <FilterDate label={t('audit.from')} value={draft.from} onChange={set('from')} />
          <FilterDate label={t('audit.to')} value={draft.to} onChange={set('to')} />
        </FilterBar>
        {problems.length > 0 && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{problems.map((p) => formatText(intl, p)).join(' ')}</Alert.Title>
          </Alert.Root>
        )}
        {timeline && (
          <HStack gap="3" data-testid="audit-timeline">
            <Text fontWeight="medium">
              {timeline.id
                ? t('audit.timelineFor', { type: timeline.type, id: timeline.id })
                : t('audit.timelineForType', { type: timeline.type })}
            </Text>
            <Button size="xs" variant="outline" onClick={() => apply(NO_AUDIT_FILTERS)}>
              {t('audit.showAll')}
            </Button>
          </HStack>
        )}
        <DataTable
          label={t('audit.list')}
          testId="audit"
          columns={columns}
          rowKey={(r) => r.id}
          emptyText={t('audit.empty')}
          {...list.table}
        />
      </Stack>
    </Page>
  );
}
