import {
  Box,
  Button,
  CloseButton,
  Dialog,
  HStack,
  Input,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import type { Industry, Script, ScriptKind } from '../../api/contract/ai-tools';
import { useArea } from '../../app/actors/areas';
import { scriptPickerArea, type ScriptPickFilters } from '../../app/actors/script-picker';
import { useListActor } from '../../app/hooks/use-list';
import { useLoadActor } from '../../app/hooks/use-load';
import { FormField } from '../../components/form-field';
import { LoadFailed } from '../../components/load-failed';
import { LoadingSpinner } from '../../components/loading-spinner';
import { SelectField } from './form-parts';
import { GridPager } from './resource-grid';
import { useT } from './use-t';

const TITLE = {
  copy: 'scripts.titleCopy',
  title: 'scripts.titleTitle',
  topic: 'scripts.titleTopic',
} as const;

/** Every industry as a choice: the top-level ones, then each sub-industry under its parent. */
function industryOptions(tree: readonly Industry[]) {
  return tree.flatMap((top) => [
    { value: String(top.id), label: top.name },
    ...top.children.map((c) => ({ value: String(c.id), label: `${top.name} / ${c.name}` })),
  ]);
}

/**
 * "From scripts" beside a form's text field (docs/domain.md §23): opens the scripts of one kind
 * (spoken copy, titles, topics), by industry and keyword; Use hands the chosen script's text to
 * `onPick` (the field decides how it goes in: ./script-text.ts) and closes.
 */
export function ScriptPicker(props: {
  kind: ScriptKind;
  /** The field's label: the button's name says what it fills. */
  field: string;
  onPick: (text: string) => void;
  disabled?: boolean;
  /** Inside another modal (a form's drawer): kept in its tree, so the drawer does not hide it. */
  nested?: boolean;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="outline"
        disabled={props.disabled}
        aria-label={t('scripts.pickFor', { field: props.field })}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {t('scripts.pick')}
      </Button>
      <Dialog.Root
        open={open}
        lazyMount
        unmountOnExit
        onOpenChange={(e) => setOpen(e.open)}
        placement="center"
        size="lg"
        scrollBehavior="inside"
      >
        <Portal disabled={props.nested}>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="script-picker">
              <Dialog.Header>
                <Dialog.Title>{t(TITLE[props.kind])}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <ScriptList
                  kind={props.kind}
                  onUse={(script) => {
                    props.onPick(script.content);
                    setOpen(false);
                  }}
                />
              </Dialog.Body>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('form.close')} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </>
  );
}

/** The scripts of the kind: filters (industry, keyword), the list with Use, the pager. */
function ScriptList(props: { kind: ScriptKind; onUse: (script: Script) => void }) {
  const t = useT();
  const area = useArea(scriptPickerArea);
  const industries = useLoadActor(area.industries);
  const list = useListActor(area.scripts);
  const applied = list.query.filters;
  const [industry, setIndustry] = useState(applied.industry_id);
  const [keyword, setKeyword] = useState(applied.keyword);
  const { kind } = props;
  // Opened for this kind: the list shows it afresh (the industry and keyword of last time kept).
  useEffect(() => {
    const { filters } = area.scripts.getSnapshot().context.query;
    area.scripts.send({ type: 'SET_FILTERS', filters: { ...filters, kind } });
  }, [area.scripts, kind]);
  const search = (next: Partial<ScriptPickFilters>) =>
    list.setFilters({ kind, industry_id: industry, keyword, ...next });
  // Another kind's rows (the last opening's) are never offered.
  const rows = applied.kind === kind ? list.rows : [];
  return (
    <Stack gap="3">
      {/* No <form>: the picker sits inside the forms it fills (a nested form's submit would
          reach theirs), so Enter in the keyword searches by hand. */}
      <HStack
        role="search"
        aria-label={t('scripts.filters')}
        gap="2"
        alignItems="flex-end"
        flexWrap="wrap"
      >
        <Box minWidth="40">
          <SelectField
            label={t('scripts.industry')}
            value={industry}
            options={[
              { value: '', label: t('scripts.allIndustries') },
              ...industryOptions(industries.data?.list ?? []),
            ]}
            onChange={(industry_id) => {
              setIndustry(industry_id);
              search({ industry_id });
            }}
          />
        </Box>
        <Box flex="1" minWidth="40">
          <FormField label={t('scripts.keyword')}>
            <Input
              value={keyword}
              onChange={(e) => setKeyword(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter') return;
                e.preventDefault();
                search({});
              }}
            />
          </FormField>
        </Box>
        <Button variant="outline" onClick={() => search({})}>
          {t('filter.search')}
        </Button>
      </HStack>
      {list.failed ? (
        <LoadFailed onRetry={list.reload} />
      ) : list.loading && rows.length === 0 ? (
        <LoadingSpinner label={t('scripts.loading')} alignSelf="center" />
      ) : rows.length === 0 ? (
        <Text role="status" color="fg.muted">
          {t('scripts.empty')}
        </Text>
      ) : (
        <Stack gap="3" aria-busy={list.loading}>
          <Stack as="ul" listStyleType="none" gap="2" aria-label={t('scripts.list')}>
            {rows.map((script) => (
              <HStack
                as="li"
                key={script.id}
                alignItems="flex-start"
                gap="3"
                borderWidth="1px"
                borderRadius="md"
                padding="2"
              >
                <Stack gap="1" flex="1" minWidth="0">
                  <Text fontSize="sm" whiteSpace="pre-wrap" lineClamp={4}>
                    {script.content}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {script.industry_name}
                  </Text>
                </Stack>
                <Button
                  size="xs"
                  aria-label={t('scripts.useOne', { text: script.content.slice(0, 40) })}
                  onClick={() => props.onUse(script)}
                >
                  {t('scripts.use')}
                </Button>
              </HStack>
            ))}
          </Stack>
          <GridPager
            label={t('scripts.list')}
            page={list.query.page}
            limit={list.query.limit}
            total={list.total}
            loading={list.loading}
            onPage={(page) => area.scripts.send({ type: 'SET_PAGE', page })}
          />
        </Stack>
      )}
    </Stack>
  );
}
