import { Button, HStack, NativeSelect, Stack, Textarea } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { SCRIPT_KINDS, type Industry, type Script } from '../../api/contract/ai-tools';
import {
  NEW_SCRIPT,
  NO_SCRIPT_FILTERS,
  type AiToolActors,
  type ScriptFilters,
} from '../../app/actors/ai-tools';
import { useListActor } from '../../app/hooks/use-list';
import { useLoadActor } from '../../app/hooks/use-load';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { FormRefusal, SelectField, useFieldError } from '../../components/form-fields';
import { useT } from '../shared/use-t';
import { useDraftDialog } from './use-draft-dialog';

/** Every industry as a choice: the top-level ones, then each sub-industry under its parent. */
function industryOptions(tree: readonly Industry[]) {
  return tree.flatMap((top) => [
    { value: String(top.id), label: top.name },
    ...top.children.map((c) => ({ value: String(c.id), label: `${top.name} / ${c.name}` })),
  ]);
}

/** The scripts (spoken copy, titles, topics) of the industries: filters, list, add / edit. */
export function ScriptsTab({ area }: { area: AiToolActors }) {
  const t = useT();
  const scripts = useListActor(area.scripts);
  const industries = useLoadActor(area.industries);
  const dialog = useDraftDialog(area.scriptDialog);
  const [draft, setDraft] = useState<ScriptFilters>(scripts.query.filters);
  const options = industryOptions(industries.data?.list ?? []);
  const kinds = SCRIPT_KINDS.map((k) => ({ value: k, label: t(`aiTool.kind.${k}`) }));
  const columns = useMemo<Column<Script>[]>(
    () => [
      { key: 'industry', header: t('aiTool.scriptIndustry'), cell: (r) => r.industry_name },
      { key: 'kind', header: t('aiTool.scriptKind'), cell: (r) => t(`aiTool.kind.${r.kind}`) },
      { key: 'content', header: t('aiTool.scriptContent'), cell: (r) => r.content },
      {
        key: 'actions',
        header: t('aiTool.actions'),
        cell: (r) => (
          <HStack gap="1">
            <Button
              size="xs"
              variant="ghost"
              aria-label={`${t('aiTool.edit')} ${r.id}`}
              onClick={() =>
                dialog.open(
                  { industry_id: String(r.industry_id), kind: r.kind, content: r.content },
                  r.id,
                )
              }
            >
              {t('aiTool.edit')}
            </Button>
            <Button
              size="xs"
              variant="ghost"
              colorPalette="red"
              aria-label={`${t('aiTool.delete')} ${r.id}`}
              onClick={() =>
                area.remove.send({
                  type: 'OPEN',
                  target: { kind: 'script', id: r.id, label: r.content.slice(0, 20) },
                })
              }
            >
              {t('aiTool.delete')}
            </Button>
          </HStack>
        ),
      },
    ],
    [t, dialog, area.remove],
  );
  return (
    <Stack gap="4" pt="4">
      <HStack justifyContent="space-between" alignItems="flex-end" flexWrap="wrap">
        <FilterBar
          label={t('aiTool.scriptFilters')}
          onApply={() => scripts.setFilters(draft)}
          onReset={() => {
            setDraft(NO_SCRIPT_FILTERS);
            scripts.setFilters(NO_SCRIPT_FILTERS);
          }}
        >
          <FilterSelect
            label={t('aiTool.scriptIndustry')}
            value={draft.industry_id}
            onChange={(industry_id) => setDraft((d) => ({ ...d, industry_id }))}
            options={options}
          />
          <FilterSelect
            label={t('aiTool.scriptKind')}
            value={draft.kind}
            onChange={(kind) => setDraft((d) => ({ ...d, kind: kind as ScriptFilters['kind'] }))}
            options={kinds}
          />
          <FilterText
            label={t('aiTool.keyword')}
            value={draft.keyword}
            onChange={(keyword) => setDraft((d) => ({ ...d, keyword }))}
          />
        </FilterBar>
        <Button
          onClick={() => dialog.open({ ...NEW_SCRIPT, industry_id: options[0]?.value ?? '' }, null)}
        >
          {t('aiTool.scriptAdd')}
        </Button>
      </HStack>
      <DataTable
        label={t('aiTool.tabScripts')}
        testId="scripts"
        columns={columns}
        rowKey={(r) => r.id}
        emptyText={t('aiTool.scriptsEmpty')}
        {...scripts.table}
      />
      {dialog.shown && (
        <FormDialog
          open
          title={dialog.target === null ? t('aiTool.scriptAddTitle') : t('aiTool.scriptEditTitle')}
          submitLabel={t('form.save')}
          submitting={dialog.submitting}
          onClose={dialog.close}
          onSubmit={dialog.submit}
        >
          <ScriptFields area={area} options={options} />
        </FormDialog>
      )}
    </Stack>
  );
}

function ScriptFields(props: {
  area: AiToolActors;
  options: readonly { value: string; label: string }[];
}) {
  const t = useT();
  const d = useDraftDialog(props.area.scriptDialog);
  const fieldError = useFieldError(d.errors);
  return (
    <>
      <FormField label={t('aiTool.scriptIndustry')} error={fieldError('industry_id')} required>
        <SelectNative
          value={d.draft.industry_id}
          placeholder={t('aiTool.chooseIndustry')}
          options={props.options}
          onChange={(v) => d.set('industry_id', v)}
        />
      </FormField>
      <SelectField
        label={t('aiTool.scriptKind')}
        value={d.draft.kind}
        onChange={(v) => d.set('kind', v)}
        options={SCRIPT_KINDS.map((k) => ({ value: k, label: t(`aiTool.kind.${k}`) }))}
      />
      <FormField label={t('aiTool.scriptContent')} error={fieldError('content')} required>
        <Textarea
          rows={4}
          value={d.draft.content}
          onChange={(e) => d.set('content', e.currentTarget.value)}
        />
      </FormField>
      <FormRefusal error={d.error} />
    </>
  );
}

/** A native select inside a FormField (the field's label names it). */
function SelectNative(props: {
  value: string;
  placeholder: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <NativeSelect.Root>
      <NativeSelect.Field
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
