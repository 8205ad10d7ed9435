import { Button, Checkbox, Stack, Text, Wrap } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { RESOURCE_TYPES, type ResourceType } from '../../api/contract/resources';
import { useArea } from '../../app/actors/areas';
import {
  NO_RESOURCE_FILTERS,
  resourcesArea,
  type GroupFilter,
  type ResourceFilters,
} from '../../app/actors/resources';
import { useListActor } from '../../app/hooks/use-list';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { LoadFailed } from '../../components/load-failed';
import { Page } from '../../components/page';
import type { MessageId } from '../../i18n/messages';
import {
  DeleteDialog,
  GroupAddDialog,
  GroupDeleteDialog,
  GroupRenameDialog,
  groupsOf,
  MoveDialog,
  PreviewDialog,
  RenameDialog,
} from './resource-dialogs';
import { GridPager, GridSkeleton, ResourceGrid } from '../shared/resource-grid';
import { ResourceGroups } from './resource-groups';
import { RESOURCE_TYPE_LABEL, UploadDropZone } from '../shared/upload-drop-zone';
import { UploadQueue } from '../shared/upload-queue';

/**
 * /creation/resource (partner, merchant): the caller's resource library. Groups beside a grid of
 * posters, filters by type and keyword, a preview (player or image), rename, move, multi-select
 * delete, uploads (drop zone and queue of the uploads area). The resources area owns the calls and
 * the reloads after a change; this view selects and sends.
 */
export default function ResourcePage() {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const area = useArea(resourcesArea);
  const list = useListActor(area.resources);
  const applied = list.query.filters;
  const library = area.library;
  const selected = useSelector(library, (s) => s.context.selected);
  const anySelected = useSelector(library, (s) => s.hasTag('selected'));
  const groups = useSelector(area.groups, (s) => s.context.data);

  const setFilters = (next: Partial<ResourceFilters>) => list.setFilters({ ...applied, ...next });
  const chooseGroup = (group: GroupFilter) => setFilters({ group });
  const filtered = applied.type !== '' || applied.keyword.trim() !== '' || applied.group !== 'all';
  const ids = list.rows.map((r) => r.id);
  const allOnPage = ids.length > 0 && ids.every((id) => selected.includes(id));
  const someOnPage = ids.some((id) => selected.includes(id));

  return (
    <Page title={t('route.resource')}>
      <UploadDropZone
        otherTypes
        {...(applied.type ? { resourceType: applied.type } : {})}
        {...(typeof applied.group === 'number' ? { groupId: applied.group } : {})}
      />
      <UploadQueue />
      <Stack direction={{ base: 'column', md: 'row' }} gap="6" alignItems="flex-start">
        <ResourceGroups area={area} current={applied.group} onChoose={chooseGroup} />
        <Stack gap="3" flex="1" minWidth="0">
          <ResourceFilterBar
            key={`${applied.type}:${applied.keyword}`}
            applied={applied}
            onApply={(type, keyword) => setFilters({ type, keyword })}
          />
          <Wrap gap="2" role="group" aria-label={t('resources.toolbar')} alignItems="center">
            <Checkbox.Root
              size="sm"
              checked={allOnPage ? true : someOnPage ? 'indeterminate' : false}
              disabled={ids.length === 0}
              onCheckedChange={(e) =>
                e.checked === true
                  ? library.send({ type: 'SELECT_PAGE', ids })
                  : library.send({ type: 'CLEAR' })
              }
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{t('resources.selectPage')}</Checkbox.Label>
            </Checkbox.Root>
            <Button
              size="sm"
              variant="outline"
              disabled={!anySelected}
              onClick={() =>
                area.remove.send({ type: 'OPEN', target: { ids: selected, name: null } })
              }
            >
              {t('resources.deleteSelected', { count: selected.length })}
            </Button>
            <Button
              size="sm"
              variant="ghost"
              disabled={!anySelected}
              onClick={() => library.send({ type: 'CLEAR' })}
            >
              {t('resources.clearSelection')}
            </Button>
          </Wrap>
          {list.failed ? (
            <LoadFailed onRetry={list.reload} />
          ) : list.loading && list.rows.length === 0 ? (
            <GridSkeleton label={t('resources.loading')} />
          ) : list.rows.length === 0 ? (
            <Stack gap="2" alignItems="flex-start" role="status" data-testid="resource-empty">
              <Text>{t(filtered ? 'resources.noMatch' : 'resources.empty')}</Text>
              {filtered && (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => list.setFilters(NO_RESOURCE_FILTERS)}
                >
                  {t('resources.clearFilters')}
                </Button>
              )}
            </Stack>
          ) : (
            <Stack gap="3" aria-busy={list.loading}>
              <ResourceGrid
                rows={list.rows}
                selected={selected}
                onToggle={(id) => library.send({ type: 'TOGGLE', id })}
                onPreview={(resource) => library.send({ type: 'PREVIEW', resource })}
                onRename={(resource) => area.rename.send({ type: 'OPEN', target: resource })}
                onMove={(resource) => area.move.send({ type: 'OPEN', target: resource })}
                onDelete={(r) =>
                  area.remove.send({ type: 'OPEN', target: { ids: [r.id], name: r.name } })
                }
              />
              <GridPager
                label={t('resources.list')}
                page={list.query.page}
                limit={list.query.limit}
                total={list.total}
                loading={list.loading}
                onPage={(page) => area.resources.send({ type: 'SET_PAGE', page })}
              />
            </Stack>
          )}
        </Stack>
      </Stack>
      <PreviewDialog library={library} />
      <RenameDialog actor={area.rename} />
      <MoveDialog actor={area.move} groups={groupsOf(groups)} />
      <DeleteDialog actor={area.remove} />
      <GroupAddDialog actor={area.groupAdd} />
      <GroupRenameDialog actor={area.groupRename} />
      <GroupDeleteDialog actor={area.groupDelete} />
    </Page>
  );
}

/** Type and keyword: a draft the person edits, applied by Search (back to page 1). */
function ResourceFilterBar(props: {
  applied: ResourceFilters;
  onApply: (type: ResourceType | '', keyword: string) => void;
}) {
  const intl = useIntl();
  const t = (id: MessageId) => intl.formatMessage({ id });
  const [type, setType] = useState<ResourceType | ''>(props.applied.type);
  const [keyword, setKeyword] = useState(props.applied.keyword);
  return (
    <FilterBar
      label={t('resources.filters')}
      onApply={() => props.onApply(type, keyword)}
      onReset={() => props.onApply('', '')}
    >
      <FilterSelect
        label={t('resources.type')}
        value={type}
        onChange={(v) => setType(v as ResourceType | '')}
        options={RESOURCE_TYPES.map((r) => ({ value: r, label: t(RESOURCE_TYPE_LABEL[r]) }))}
      />
      <FilterText label={t('resources.keyword')} value={keyword} onChange={setKeyword} />
    </FilterBar>
  );
}
