import {
  Badge,
  Box,
  Button,
  Checkbox,
  CloseButton,
  Dialog,
  HStack,
  Image,
  Input,
  Portal,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { Actor } from 'xstate';
import type { GroupListReply, Resource, ResourceType } from '../../api/contract/resources';
import { useArea } from '../../app/actors/areas';
import type { ListActor, LoadActor } from '../../app/actors/factories';
import type { GroupFilter, ResourceFilters } from '../../app/actors/resources';
import { videoTaskFormsArea } from '../../app/actors/video-task-forms';
import { useListActor } from '../../app/hooks/use-list';
import { FormField } from '../../components/form-field';
import type { resourcePickerMachine, PickerSlot } from '../../machines/resource-picker';
import { SelectField } from './form-parts';
import { formatDuration } from './format';
import { GridPager, GridSkeleton } from './resource-grid';
import { RESOURCE_TYPE_LABEL } from './upload-drop-zone';
import { useT } from './use-t';

/** The resource picker: the caller's library by type and name, one or several ticked. */
export function ResourcePickerDialog(props: {
  form: PickerSlot['form'];
  /** Inside another modal (the drawer): kept in its tree, so the drawer does not hide it. */
  nested?: boolean;
  /** Another area's picker and its list (the digital-human video form's); else the task forms'. */
  actors?: PickerActors;
}) {
  const t = useT();
  const area = useArea(videoTaskFormsArea);
  const actors = props.actors ?? area;
  const picker = actors.picker;
  // Each form renders the picker; the one whose form opened it shows it.
  const open = useSelector(picker, (s) => s.hasTag('open') && s.context.slot?.form === props.form);
  const types = useSelector(picker, (s) => s.context.types);
  const multiple = useSelector(picker, (s) => s.context.multiple);
  const chosen = useSelector(picker, (s) => s.context.picked);
  const close = () => picker.send({ type: 'CLOSE' });
  // Mounted while closed: closing hands the focus back to the button that opened it.
  return (
    <Dialog.Root
      open={open}
      lazyMount
      unmountOnExit
      onOpenChange={(e) => {
        if (!e.open) close();
      }}
      placement="center"
      size="xl"
      scrollBehavior="inside"
    >
      <Portal disabled={props.nested}>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="resource-picker">
            <Dialog.Header>
              <Dialog.Title>
                {t(multiple ? 'taskForm.pickerTitleMany' : 'taskForm.pickerTitleOne')}
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {open && (
                <PickerList
                  resources={actors.pickerResources}
                  groups={actors.pickerGroups}
                  types={types}
                  chosen={chosen.map((p) => p.id)}
                  onToggle={(resource) => picker.send({ type: 'TOGGLE', resource })}
                />
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Text fontSize="sm" marginEnd="auto">
                {t('taskForm.pickedCount', { count: chosen.length })}
              </Text>
              <Button variant="outline" onClick={close}>
                {t('form.cancel')}
              </Button>
              <Button onClick={() => picker.send({ type: 'CONFIRM' })}>
                {t('taskForm.pickConfirm')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** A picker and the list of the library it shows (an area's). */
export interface PickerActors {
  picker: Actor<typeof resourcePickerMachine>;
  pickerResources: ListActor<ResourceFilters, Resource>;
  /** The library's groups: with them, the picker filters by group too. */
  pickerGroups?: LoadActor<GroupListReply>;
}

/** All groups, the ungrouped ones, or one group (the works group among them). */
function GroupFilter(props: {
  groups: LoadActor<GroupListReply>;
  value: GroupFilter;
  onChange: (group: GroupFilter) => void;
}) {
  const t = useT();
  const data = useSelector(props.groups, (s) => s.context.data);
  const options = [
    { value: 'all', label: t('resources.allGroups') },
    { value: 'ungrouped', label: t('resources.ungrouped') },
    ...(data?.list ?? []).map((g) => ({ value: String(g.id), label: g.name })),
  ];
  return (
    <Box minWidth="32">
      <SelectField
        label={t('resources.group')}
        value={String(props.value)}
        options={options}
        onChange={(v) => props.onChange(v === 'all' || v === 'ungrouped' ? v : Number(v))}
      />
    </Box>
  );
}

/**
 * The types the place takes, all together ('': the picker opens so: stickers and images in one
 * list) or one of them.
 */
function TypeFilter(props: {
  types: readonly ResourceType[];
  value: ResourceType | '';
  onChange: (type: ResourceType | '') => void;
}) {
  const t = useT();
  const intl = useIntl();
  const labels = props.types.map((r) => t(RESOURCE_TYPE_LABEL[r]));
  const options: { value: ResourceType | ''; label: string }[] = [
    {
      value: '',
      label: t('taskForm.pickerAnyType', {
        types: intl.formatList(labels, { type: 'disjunction' }),
      }),
    },
    ...props.types.map((r, i) => ({ value: r, label: labels[i]! })),
  ];
  return (
    <Box minWidth="32">
      <SelectField
        label={t('resources.type')}
        value={props.value}
        options={options}
        onChange={props.onChange}
      />
    </Box>
  );
}

function PickerList(props: {
  resources: ListActor<ResourceFilters, Resource>;
  groups: LoadActor<GroupListReply> | undefined;
  types: readonly ResourceType[];
  chosen: readonly number[];
  onToggle: (resource: Resource) => void;
}) {
  const t = useT();
  const list = useListActor(props.resources);
  const applied = list.query.filters;
  const [keyword, setKeyword] = useState(applied.keyword);
  return (
    <Stack gap="3">
      <HStack
        as="form"
        role="search"
        aria-label={t('taskForm.pickerFilters')}
        gap="2"
        alignItems="flex-end"
        onSubmit={(e) => {
          e.preventDefault();
          list.setFilters({ ...applied, keyword });
        }}
      >
        {props.types.length > 1 && (
          <TypeFilter
            types={props.types}
            value={applied.type}
            onChange={(type) => list.setFilters({ ...applied, type, keyword })}
          />
        )}
        {props.groups && (
          <GroupFilter
            groups={props.groups}
            value={applied.group}
            onChange={(group) => list.setFilters({ ...applied, group, keyword })}
          />
        )}
        <Box flex="1">
          <FormField label={t('resources.keyword')}>
            <Input value={keyword} onChange={(e) => setKeyword(e.currentTarget.value)} />
          </FormField>
        </Box>
        <Button type="submit" variant="outline">
          {t('filter.search')}
        </Button>
      </HStack>
      {list.failed ? (
        <Stack gap="2" alignItems="flex-start" role="alert">
          <Text>{t('taskForm.pickerFailed')}</Text>
          <Button size="sm" variant="outline" onClick={list.reload}>
            {t('taskForm.estimateRetry')}
          </Button>
        </Stack>
      ) : list.loading && list.rows.length === 0 ? (
        <GridSkeleton label={t('resources.loading')} />
      ) : list.rows.length === 0 ? (
        <Text role="status">{t('taskForm.pickerEmpty')}</Text>
      ) : (
        <Stack gap="3" aria-busy={list.loading}>
          <SimpleGrid
            as="ul"
            aria-label={t('taskForm.pickerList')}
            listStyleType="none"
            minChildWidth="36"
            gap="3"
          >
            {list.rows.map((r) => {
              const on = props.chosen.includes(r.id);
              return (
                <Stack
                  as="li"
                  key={r.id}
                  gap="1"
                  borderWidth="1px"
                  borderRadius="md"
                  padding="2"
                  borderColor={on ? 'colorPalette.solid' : 'border'}
                >
                  <Box
                    position="relative"
                    aspectRatio={16 / 9}
                    bg="bg.muted"
                    borderRadius="sm"
                    overflow="hidden"
                  >
                    {r.cover && (
                      <Image src={r.cover} alt="" width="100%" height="100%" objectFit="cover" />
                    )}
                    {r.duration !== null && (
                      <Badge position="absolute" insetEnd="1" bottom="1" size="sm">
                        {formatDuration(r.duration)}
                      </Badge>
                    )}
                  </Box>
                  <HStack gap="2" minWidth="0">
                    <Checkbox.Root size="sm" checked={on} onCheckedChange={() => props.onToggle(r)}>
                      <Checkbox.HiddenInput aria-label={t('resources.select', { name: r.name })} />
                      <Checkbox.Control />
                    </Checkbox.Root>
                    <Text fontSize="sm" truncate title={r.name}>
                      {r.name}
                    </Text>
                  </HStack>
                </Stack>
              );
            })}
          </SimpleGrid>
          <GridPager
            label={t('taskForm.pickerList')}
            page={list.query.page}
            limit={list.query.limit}
            total={list.total}
            loading={list.loading}
            onPage={(page) => props.resources.send({ type: 'SET_PAGE', page })}
          />
        </Stack>
      )}
    </Stack>
  );
}
