import { Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import type { Industry } from '../../api/contract/ai-tools';
import { NEW_INDUSTRY, type AiToolActors } from '../../app/actors/ai-tools';
import { useLoadActor } from '../../app/hooks/use-load';
import { FormDialog } from '../../components/form-dialog';
import { FormRefusal, TextField, useFieldError } from '../../components/form-fields';
import { useT } from '../shared/use-t';
import { useDraftDialog } from './use-draft-dialog';

/** The industry tree (two levels): add a top-level one or a sub-industry, edit, delete. */
export function IndustriesTab({ area }: { area: AiToolActors }) {
  const t = useT();
  const industries = useLoadActor(area.industries);
  const dialog = useDraftDialog(area.industryDialog);
  const rows: { industry: Industry; level: 1 | 2 }[] = [];
  for (const top of industries.data?.list ?? []) {
    rows.push({ industry: top, level: 1 });
    for (const child of top.children) rows.push({ industry: child, level: 2 });
  }
  const remove = (industry: Industry) =>
    area.remove.send({
      type: 'OPEN',
      target: { kind: 'industry', id: industry.id, label: industry.name },
    });
  return (
    <Stack gap="4" pt="4">
      <HStack justifyContent="flex-end">
        <Button onClick={() => dialog.open(NEW_INDUSTRY, null)}>{t('aiTool.industryAdd')}</Button>
      </HStack>
      {industries.failed && (
        <HStack>
          <Text role="alert">{t('aiTool.loadFailed')}</Text>
          <Button size="sm" onClick={industries.reload}>
            {t('aiTool.retry')}
          </Button>
        </HStack>
      )}
      {industries.data && rows.length === 0 && <Text>{t('aiTool.industriesEmpty')}</Text>}
      {rows.length > 0 && (
        <Table.Root size="sm" aria-label={t('aiTool.industryList')} data-testid="industries">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('aiTool.industryName')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('aiTool.sort')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('aiTool.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map(({ industry, level }) => (
              <Table.Row key={industry.id}>
                <Table.Cell ps={level === 2 ? '8' : undefined}>
                  {level === 2 ? `└ ${industry.name}` : industry.name}
                </Table.Cell>
                <Table.Cell>{industry.sort}</Table.Cell>
                <Table.Cell>
                  <HStack gap="1">
                    {level === 1 && (
                      <Button
                        size="xs"
                        variant="outline"
                        aria-label={`${t('aiTool.industryAddSub')} ${industry.name}`}
                        onClick={() =>
                          dialog.open({ ...NEW_INDUSTRY, parent_id: String(industry.id) }, null)
                        }
                      >
                        {t('aiTool.industryAddSub')}
                      </Button>
                    )}
                    <Button
                      size="xs"
                      variant="ghost"
                      aria-label={`${t('aiTool.edit')} ${industry.name}`}
                      onClick={() =>
                        dialog.open(
                          {
                            name: industry.name,
                            parent_id: String(industry.parent_id),
                            sort: String(industry.sort),
                          },
                          industry.id,
                        )
                      }
                    >
                      {t('aiTool.edit')}
                    </Button>
                    <Button
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      aria-label={`${t('aiTool.delete')} ${industry.name}`}
                      onClick={() => remove(industry)}
                    >
                      {t('aiTool.delete')}
                    </Button>
                  </HStack>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      {dialog.shown && <IndustryDialog area={area} tops={industries.data?.list ?? []} />}
    </Stack>
  );
}

function IndustryDialog({ area, tops }: { area: AiToolActors; tops: readonly Industry[] }) {
  const t = useT();
  const d = useDraftDialog(area.industryDialog);
  const fieldError = useFieldError(d.errors);
  const parent = tops.find((top) => String(top.id) === d.draft.parent_id);
  return (
    <FormDialog
      open
      title={
        d.target === null
          ? t('aiTool.industryAddTitle')
          : t('aiTool.industryEditTitle', { name: d.draft.name })
      }
      submitLabel={t('form.save')}
      submitting={d.submitting}
      onClose={d.close}
      onSubmit={d.submit}
    >
      {d.target === null && (
        <Text fontSize="sm">
          {t('aiTool.industryParent')}: {parent ? parent.name : t('aiTool.industryTop')}
        </Text>
      )}
      <TextField
        label={t('aiTool.industryName')}
        value={d.draft.name}
        onChange={(v) => d.set('name', v)}
        error={fieldError('name')}
        required
      />
      <TextField
        label={t('aiTool.sort')}
        value={d.draft.sort}
        onChange={(v) => d.set('sort', v)}
        error={fieldError('sort')}
        numeric
      />
      <FormRefusal error={d.error} />
    </FormDialog>
  );
}
