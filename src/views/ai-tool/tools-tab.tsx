import { Badge, Box, Button, HStack, Stack, Text, Textarea } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import {
  AI_TOOL_STATUSES,
  AI_TOOL_UNITS,
  templatePlaceholders,
  undeclaredPlaceholders,
  type AiTool,
  type AiToolTryReply,
} from '../../api/contract/ai-tools';
import { declaredOf, NEW_TOOL, toolDraftOf, type AiToolActors } from '../../app/actors/ai-tools';
import { useListActor } from '../../app/hooks/use-list';
import { useSubmitActor } from '../../app/hooks/use-submit-actor';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterText } from '../../components/filter-bar';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { FormRefusal, SelectField, TextField, useFieldError } from '../../components/form-fields';
import { useT, type T } from '../shared/use-t';
import { useDraftDialog } from './use-draft-dialog';

/** The AI tools: list, add / edit dialog (template editor), delete, try-it. */
export function ToolsTab({ area }: { area: AiToolActors }) {
  const t = useT();
  const tools = useListActor(area.tools);
  const dialog = useDraftDialog(area.toolDialog);
  const [keyword, setKeyword] = useState(tools.query.filters.keyword);
  const [trying, setTrying] = useState<AiTool | null>(null);
  const columns = useMemo<Column<AiTool>[]>(
    () => [
      { key: 'key', header: t('aiTool.key'), cell: (r) => r.key },
      { key: 'name', header: t('aiTool.name'), cell: (r) => r.name },
      { key: 'model', header: t('aiTool.model'), cell: (r) => r.model || t('aiTool.defaultModel') },
      {
        key: 'cost',
        header: t('aiTool.cost'),
        cell: (r) => `${r.cost} ${t(`aiTool.unit.${r.unit}`)}`,
      },
      {
        key: 'status',
        header: t('aiTool.status'),
        cell: (r) => (
          <Badge colorPalette={r.status === 'enabled' ? 'green' : 'gray'}>
            {t(`aiTool.status.${r.status}`)}
          </Badge>
        ),
      },
      {
        key: 'actions',
        header: t('aiTool.actions'),
        cell: (r) => (
          <HStack gap="1">
            <Button
              size="xs"
              variant="outline"
              aria-label={`${t('aiTool.try')} ${r.key}`}
              onClick={() => setTrying(r)}
            >
              {t('aiTool.try')}
            </Button>
            <Button
              size="xs"
              variant="ghost"
              aria-label={`${t('aiTool.edit')} ${r.key}`}
              onClick={() => dialog.open(toolDraftOf(r), r.id)}
            >
              {t('aiTool.edit')}
            </Button>
            <Button
              size="xs"
              variant="ghost"
              colorPalette="red"
              aria-label={`${t('aiTool.delete')} ${r.key}`}
              onClick={() =>
                area.remove.send({
                  type: 'OPEN',
                  target: { kind: 'tool', id: r.id, label: r.name },
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
          label={t('aiTool.filters')}
          onApply={() => tools.setFilters({ keyword })}
          onReset={() => {
            setKeyword('');
            tools.setFilters({ keyword: '' });
          }}
        >
          <FilterText label={t('aiTool.keyword')} value={keyword} onChange={setKeyword} />
        </FilterBar>
        <Button onClick={() => dialog.open(NEW_TOOL, null)}>{t('aiTool.add')}</Button>
      </HStack>
      <DataTable
        label={t('aiTool.tabTools')}
        testId="ai-tools"
        columns={columns}
        rowKey={(r) => r.id}
        emptyText={t('aiTool.empty')}
        {...tools.table}
      />
      {dialog.shown && <ToolDialog area={area} />}
      {trying && <TryPanel area={area} tool={trying} onClose={() => setTrying(null)} />}
    </Stack>
  );
}

function ToolDialog({ area }: { area: AiToolActors }) {
  const t = useT();
  const d = useDraftDialog(area.toolDialog);
  const fieldError = useFieldError(d.errors);
  const declared = declaredOf(d.draft.variables);
  const undeclared = undeclaredPlaceholders(d.draft.template, declared);
  return (
    <FormDialog
      open
      title={
        d.target === null ? t('aiTool.addTitle') : t('aiTool.editTitle', { name: d.draft.name })
      }
      submitLabel={t('form.save')}
      submitting={d.submitting}
      onClose={d.close}
      onSubmit={d.submit}
    >
      <TextField
        label={t('aiTool.key')}
        value={d.draft.key}
        onChange={(v) => d.set('key', v)}
        error={fieldError('key')}
        helper={t('aiTool.keyHelp')}
        required
      />
      <TextField
        label={t('aiTool.name')}
        value={d.draft.name}
        onChange={(v) => d.set('name', v)}
        error={fieldError('name')}
        required
      />
      <TextField
        label={t('aiTool.model')}
        value={d.draft.model}
        onChange={(v) => d.set('model', v)}
        error={fieldError('model')}
        helper={t('aiTool.modelHelp')}
      />
      <TextField
        label={t('aiTool.variables')}
        value={d.draft.variables}
        onChange={(v) => d.set('variables', v)}
        error={fieldError('variables')}
        helper={t('aiTool.variablesHelp')}
      />
      <FormField
        label={t('aiTool.template')}
        error={
          fieldError('template') ??
          (undeclared.length ? t('aiTool.undeclared', { names: undeclared.join(', ') }) : null)
        }
        helper={t('aiTool.templateHelp')}
        required
      >
        <Textarea
          rows={6}
          value={d.draft.template}
          onChange={(e) => d.set('template', e.currentTarget.value)}
        />
      </FormField>
      <Box data-testid="declared-variables" aria-live="polite">
        {declared.length ? (
          <HStack gap="1" flexWrap="wrap">
            <Text fontSize="sm">{t('aiTool.variables')}</Text>
            {declared.map((name) => (
              <Badge key={name} colorPalette={undeclared.includes(name) ? 'red' : 'blue'}>
                {name}
              </Badge>
            ))}
          </HStack>
        ) : (
          <Text fontSize="sm">{t('aiTool.noneDeclared')}</Text>
        )}
      </Box>
      <HStack gap="3" alignItems="flex-start">
        <SelectField
          label={t('aiTool.unit')}
          value={d.draft.unit}
          onChange={(v) => d.set('unit', v)}
          options={AI_TOOL_UNITS.map((u) => ({ value: u, label: t(`aiTool.unit.${u}`) }))}
        />
        <TextField
          label={t('aiTool.cost')}
          value={d.draft.cost}
          onChange={(v) => d.set('cost', v)}
          error={fieldError('cost')}
          numeric
        />
        <SelectField
          label={t('aiTool.status')}
          value={d.draft.status}
          onChange={(v) => d.set('status', v)}
          options={AI_TOOL_STATUSES.map((s) => ({ value: s, label: t(`aiTool.status.${s}`) }))}
        />
      </HStack>
      <FormRefusal error={d.error} />
    </FormDialog>
  );
}

/** Try-it: a value per placeholder, run, the answer (badged when it is demonstration output). */
function TryPanel(props: { area: AiToolActors; tool: AiTool; onClose: () => void }) {
  const t = useT();
  const run = useSubmitActor<{ id: number; vars: Record<string, string> }, AiToolTryReply>(
    props.area.tryIt,
  );
  const names = templatePlaceholders(props.tool.template);
  const [vars, setVars] = useState<Record<string, string>>({});
  const state = useSelector(props.area.tryIt, (s) => s.value);
  const close = () => {
    if (state === 'done') run.reset();
    props.onClose();
  };
  return (
    <FormDialog
      open
      title={t('aiTool.tryTitle', { name: props.tool.name })}
      submitLabel={t('aiTool.tryRun')}
      submitting={run.submitting}
      onClose={close}
      onSubmit={() => {
        if (state === 'done') run.reset();
        run.submit({ id: props.tool.id, vars });
      }}
    >
      {names.length === 0 && <Text>{t('aiTool.tryNoVars')}</Text>}
      {names.map((name) => (
        <FormField key={name} label={name}>
          <Textarea
            rows={2}
            value={vars[name] ?? ''}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setVars((v) => ({ ...v, [name]: value }));
            }}
          />
        </FormField>
      ))}
      <FormRefusal error={run.error} />
      {run.result && <TryAnswer t={t} reply={run.result} />}
    </FormDialog>
  );
}

function TryAnswer({ t, reply }: { t: T; reply: AiToolTryReply }) {
  return (
    <Stack gap="2" as="section" aria-label={t('aiTool.tryAnswer')} data-testid="try-answer">
      <HStack>
        <Text fontWeight="semibold">{t('aiTool.tryAnswer')}</Text>
        {reply.demonstration && <Badge colorPalette="orange">{t('aiTool.demonstration')}</Badge>}
      </HStack>
      {reply.demonstration && <Text fontSize="sm">{t('aiTool.demonstrationNote')}</Text>}
      <Box as="pre" whiteSpace="pre-wrap" fontFamily="inherit" borderWidth="1px" p="2" rounded="md">
        {reply.answer}
      </Box>
      <Text fontSize="sm" fontWeight="semibold">
        {t('aiTool.tryPrompt')}
      </Text>
      <Box as="pre" whiteSpace="pre-wrap" fontFamily="inherit" fontSize="sm" color="fg.muted">
        {reply.prompt}
      </Box>
    </Stack>
  );
}
