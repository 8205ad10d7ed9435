import { Badge, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import type { Domain, DomainEditBody } from '../../api/contract/domains';
import { useArea } from '../../app/actors/areas';
import {
  domainsArea,
  NO_DOMAIN_FILTERS,
  type DomainActors,
  type DomainFilters,
} from '../../app/actors/domains';
import { useListActor } from '../../app/hooks/use-list';
import { useSubmitActor } from '../../app/hooks/use-submit-actor';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { formatDateTime } from '../../components/dates';
import { Page } from '../../components/page';
import { AuditTimelineLink } from '../shared/audit-link';
import { CustomerDialogFrame, frameProps } from '../shared/customer-dialog-frame';
import { useDialogState } from '../shared/use-dialog-state';
import { useT, type T } from '../shared/use-t';
import { DomainFormDialog } from './domain-form-dialog';

/**
 * /domain/domainList (admin): the domains and their brands (docs/domain.md §12) with the keyword
 * and owner filters and paging; add and edit in a form with a live preview of the brand; enable /
 * disable; delete after a confirmation.
 */
export default function DomainListPage() {
  const t = useT();
  const area = useArea(domainsArea);
  const list = useListActor(area.list);
  const [draft, setDraft] = useState<DomainFilters>(list.query.filters);
  const partners = useSelector(area.owners, (s) => s.context.data?.list ?? []);
  const status = useSubmitActor<DomainEditBody, Domain>(area.status);
  const { form, remove } = area;

  const columns = useMemo(
    () =>
      domainColumns(t, {
        busy: status.submitting,
        onEdit: (row) => form.send({ type: 'OPEN', target: row }),
        onStatus: (row) => status.submit({ id: row.id, status: row.status === 1 ? 0 : 1 }),
        onDelete: (row) => remove.send({ type: 'OPEN', target: row }),
      }),
    [t, status, form, remove],
  );

  return (
    <Page
      title={t('route.domainList')}
      actions={
        <Button onClick={() => form.send({ type: 'OPEN', target: null })}>
          {t('domains.add')}
        </Button>
      }
    >
      <Stack gap="4">
        <FilterBar
          label={t('domains.filters')}
          onApply={() => list.setFilters(draft)}
          onReset={() => {
            setDraft(NO_DOMAIN_FILTERS);
            list.setFilters(NO_DOMAIN_FILTERS);
          }}
        >
          <FilterText
            label={t('domains.keyword')}
            value={draft.keyword}
            onChange={(keyword) => setDraft((d) => ({ ...d, keyword }))}
          />
          <FilterSelect
            label={t('domains.owner')}
            value={draft.owner}
            allLabel={t('domains.ownerAll')}
            onChange={(owner) => setDraft((d) => ({ ...d, owner }))}
            options={[
              { value: '0', label: t('domains.ownerPlatform') },
              ...partners.map((p) => ({ value: String(p.id), label: p.name || p.username })),
            ]}
          />
        </FilterBar>
        <DataTable
          label={t('domains.list')}
          testId="domains"
          columns={columns}
          rowKey={(r) => r.id}
          emptyText={t('domains.empty')}
          {...list.table}
        />
      </Stack>
      <DomainFormDialog area={area} />
      <DomainDeleteDialog actor={remove} t={t} />
    </Page>
  );
}

function domainColumns(
  t: T,
  o: {
    busy: boolean;
    onEdit: (row: Domain) => void;
    onStatus: (row: Domain) => void;
    onDelete: (row: Domain) => void;
  },
): Column<Domain>[] {
  return [
    { key: 'hostname', header: t('domains.hostname'), cell: (row) => row.hostname },
    { key: 'name', header: t('domains.name'), cell: (row) => row.name },
    {
      key: 'owner',
      header: t('domains.owner'),
      cell: (row) => (row.owner_id === null ? t('domains.ownerPlatform') : row.owner_name),
    },
    { key: 'money', header: t('domains.moneyName'), cell: (row) => row.money_name },
    {
      key: 'status',
      header: t('domains.status'),
      cell: (row) => (
        <Badge colorPalette={row.status === 1 ? 'green' : 'gray'} data-testid="domain-status">
          {t(row.status === 1 ? 'domains.enabled' : 'domains.disabled')}
        </Badge>
      ),
    },
    {
      key: 'updated',
      header: t('domains.updatedAt'),
      cell: (row) => formatDateTime(row.updated_at),
    },
    {
      key: 'actions',
      pinned: 'end',
      header: t('domains.actions'),
      cell: (row) => (
        <HStack gap="1">
          <Button
            size="2xs"
            variant="outline"
            aria-label={t('domains.editOne', { hostname: row.hostname })}
            onClick={() => o.onEdit(row)}
          >
            {t('domains.edit')}
          </Button>
          <Button
            size="2xs"
            variant="outline"
            disabled={o.busy}
            aria-label={t(row.status === 1 ? 'domains.disableOne' : 'domains.enableOne', {
              hostname: row.hostname,
            })}
            onClick={() => o.onStatus(row)}
          >
            {t(row.status === 1 ? 'domains.disable' : 'domains.enable')}
          </Button>
          <Button
            size="2xs"
            variant="outline"
            colorPalette="red"
            aria-label={t('domains.deleteOne', { hostname: row.hostname })}
            onClick={() => o.onDelete(row)}
          >
            {t('domains.delete')}
          </Button>
          <AuditTimelineLink
            type="domain"
            id={row.id}
            name={row.hostname}
            size="2xs"
            variant="outline"
          />
        </HStack>
      ),
    },
  ];
}

function DomainDeleteDialog(props: { actor: DomainActors['remove']; t: T }) {
  const { t } = props;
  const state = useDialogState(props.actor);
  const row = state.target;
  return (
    <CustomerDialogFrame
      {...frameProps(props.actor, state)}
      title={t('domains.deleteTitle', { hostname: row?.hostname ?? '' })}
      submitLabel={t('domains.delete')}
      danger
      testId="domain-delete-dialog"
      onSubmit={() => props.actor.send({ type: 'SUBMIT', payload: { ids: row ? [row.id] : [] } })}
    >
      <Text>{t('domains.deleteText')}</Text>
    </CustomerDialogFrame>
  );
}
