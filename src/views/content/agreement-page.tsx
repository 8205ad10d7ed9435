import { Button, HStack, Input } from '@chakra-ui/react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import {
  AGREEMENT_KINDS,
  agreementSaveBody,
  type Agreement,
  type AgreementKind,
  type AgreementSaveBody,
} from '../../api/contract/content';
import { useArea } from '../../app/actors/areas';
import { contentArea, type ContentActors } from '../../app/actors/content';
import { useListActor } from '../../app/hooks/use-list';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterSelect } from '../../components/filter-bar';
import { formatDateTime } from '../../components/dates';
import { FormField } from '../../components/form-field';
import { LoadingSpinner } from '../../components/loading-spinner';
import { Page } from '../../components/page';
import { formatText } from '../../i18n/intl';
import { CallDialog, useCall } from '../shared/call-dialog';
import { SelectField } from '../../components/form-fields';
import { useT, type T } from '../shared/use-t';
import { StoredHtml } from '../../components/stored-html';
import { withLaterTheme } from '../../app/routes/lazy';

const RichTextEditor = lazy(withLaterTheme(() => import('./rich-text-editor')));

export const KIND_LABEL = {
  user: 'content.kind.user',
  privacy: 'content.kind.privacy',
  clone_consent: 'content.kind.clone_consent',
  recharge: 'content.kind.recharge',
} as const;

/** `datetime-local`'s value (to the second) of a time on the viewer's clock. */
const localInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 19);
};

/**
 * /protocol/agreement (admin: the platform's versions; partner: its own overrides beside the
 * platform's; docs/domain.md "Articles and agreements"): the versions of each agreement, one
 * opened to read, and "new version" (a body and an effective time; versions are never edited).
 */
export default function AgreementPage() {
  const t = useT();
  const area = useArea(contentArea);
  const list = useListActor(area.agreements);
  const [kind, setKind] = useState<AgreementKind | ''>(list.query.filters.kind);
  const [shown, setShown] = useState<Agreement | null>(null);
  const columns = useMemo(() => agreementColumns(t, setShown), [t]);
  return (
    <Page
      title={t('route.agreement')}
      actions={
        <Button onClick={() => area.agreementForm.send({ type: 'OPEN', target: kind || 'user' })}>
          {t('content.newVersion')}
        </Button>
      }
    >
      <FilterBar
        label={t('content.agreements')}
        onApply={() => list.setFilters({ kind })}
        onReset={() => {
          setKind('');
          list.setFilters({ kind: '' });
        }}
      >
        <FilterSelect
          label={t('content.kind')}
          value={kind}
          allLabel={t('content.allKinds')}
          onChange={(v) => setKind(v as AgreementKind | '')}
          options={AGREEMENT_KINDS.map((k) => ({ value: k, label: t(KIND_LABEL[k]) }))}
        />
      </FilterBar>
      <DataTable
        label={t('content.agreementTable')}
        testId="agreements"
        columns={columns}
        rowKey={(r) => r.id}
        emptyText={t('content.noAgreements')}
        {...list.table}
      />
      {shown && (
        <section aria-label={`${t(KIND_LABEL[shown.kind])} v${shown.version}`}>
          <StoredHtml html={shown.content} />
        </section>
      )}
      <AgreementDialog actor={area.agreementForm} images={area.bodyImage} />
    </Page>
  );
}

function agreementColumns(t: T, show: (row: Agreement) => void): Column<Agreement>[] {
  return [
    { key: 'kind', header: t('content.kind'), cell: (r) => t(KIND_LABEL[r.kind]) },
    { key: 'version', header: t('content.version'), cell: (r) => r.version, align: 'end' },
    {
      key: 'owner',
      header: t('content.owner'),
      cell: (r) => (r.owner_id === null ? t('content.ownerPlatform') : t('content.ownerOwn')),
    },
    {
      key: 'effective',
      header: t('content.effectiveAt'),
      cell: (r) => formatDateTime(r.effective_at),
    },
    {
      key: 'actions',
      header: t('content.actions'),
      pinned: 'end',
      cell: (r) => (
        <Button
          size="xs"
          variant="outline"
          aria-label={`${t('content.show')}: ${t(KIND_LABEL[r.kind])} v${r.version}`}
          onClick={() => show(r)}
        >
          {t('content.show')}
        </Button>
      ),
    },
  ];
}

function AgreementDialog(props: {
  actor: ContentActors['agreementForm'];
  images: ContentActors['bodyImage'];
}) {
  const call = useCall(props.actor);
  if (!call.open) return null;
  return (
    <AgreementForm
      key={call.target ?? 'user'}
      call={call}
      kind={call.target ?? 'user'}
      images={props.images}
    />
  );
}

function AgreementForm(props: {
  call: ReturnType<typeof useCall<AgreementKind, AgreementSaveBody, Agreement>>;
  kind: AgreementKind;
  images: ContentActors['bodyImage'];
}) {
  const t = useT();
  const intl = useIntl();
  const [kind, setKind] = useState<AgreementKind>(props.kind);
  const [effective, setEffective] = useState(() => localInput(Date.now()));
  const [content, setContent] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <CallDialog
      call={props.call}
      title={t('content.newVersionOf', { kind: t(KIND_LABEL[kind]) })}
      submitLabel={t('content.save')}
      onSubmit={() => {
        const parsed = agreementSaveBody.safeParse({
          kind,
          content,
          effective_at: new Date(effective).getTime(),
        });
        if (!parsed.success) {
          const next: Record<string, string> = {};
          for (const issue of parsed.error.issues) {
            next[String(issue.path[0] ?? '')] ??= formatText(intl, issue.message);
          }
          setErrors(next);
          return;
        }
        setErrors({});
        props.call.submit(parsed.data);
      }}
    >
      <HStack gap="4" align="start">
        <SelectField
          label={t('content.kind')}
          value={kind}
          onChange={setKind}
          options={AGREEMENT_KINDS.map((k) => ({ value: k, label: t(KIND_LABEL[k]) }))}
        />
        <FormField label={t('content.effectiveAt')} error={errors.effective_at}>
          <Input
            type="datetime-local"
            step="1"
            value={effective}
            onChange={(e) => setEffective(e.currentTarget.value)}
          />
        </FormField>
      </HStack>
      <FormField label={t('content.body')} error={errors.content}>
        <Suspense fallback={<LoadingSpinner label={t('content.editorLoading')} />}>
          <RichTextEditor
            value={content}
            onChange={setContent}
            label={t('content.editor')}
            images={props.images}
          />
        </Suspense>
      </FormField>
    </CallDialog>
  );
}
