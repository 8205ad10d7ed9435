/**
 * The resource library area (/creation/resource): the list of the caller's resources
 * (filters: type, keyword, group or "ungrouped"; pages), the groups with their counts, the page's
 * selection and preview (resource-library machine), and the dialogs: rename, move to a group,
 * delete (the selection or one), new group, rename group, delete group. After each change the area
 * reloads what shows it, as events between its actors; a resource an upload added (uploads area)
 * reloads the list and the group counts the same way.
 */
import { createActor, type ActorRefFrom, type Subscription } from 'xstate';
import {
  groupAddBody,
  groupEditBody,
  resourceEditBody,
  type GroupAddBody,
  type GroupDeleteBody,
  type GroupEditBody,
  type GroupListReply,
  type Resource,
  type ResourceDeleteBody,
  type ResourceDeleteReply,
  type ResourceEditBody,
  type ResourceGroup,
  type ResourceListParams,
  type ResourceType,
} from '../../api/contract/resources';
import * as resourcesApi from '../../api/resources';
import { resourceLibraryMachine } from '../../machines/resource-library';
import type { PickerSlot, resourcePickerMachine } from '../../machines/resource-picker';
import type { Picked } from '../../machines/task-form';
import { defineArea, lazyActors } from './areas';
import {
  dialogActor,
  type DialogActor,
  listActor,
  loadActor,
  toast,
  whenChanged,
} from './factories';
import { groupFields, textFields, type GroupValues, type TextValues } from './small-forms';
import { uploadsArea } from './uploads';

export interface ResourcesEndpoints {
  getResources: typeof resourcesApi.getResources;
  editResource: typeof resourcesApi.editResource;
  deleteResources: typeof resourcesApi.deleteResources;
  getGroups: typeof resourcesApi.getGroups;
  addGroup: typeof resourcesApi.addGroup;
  editGroup: typeof resourcesApi.editGroup;
  deleteGroup: typeof resourcesApi.deleteGroup;
}

/** Every group, the ungrouped resources, or one group's. */
export type GroupFilter = 'all' | 'ungrouped' | number;

export interface ResourceFilters {
  /** One type; '' any type (of `types` when given). */
  type: ResourceType | '';
  keyword: string;
  group: GroupFilter;
  /** The types a picker's place takes: with `type` '', the list shows all of them. */
  types?: readonly ResourceType[];
}

export const NO_RESOURCE_FILTERS: ResourceFilters = { type: '', keyword: '', group: 'all' };

/** Posters per page (a grid of 4–6 columns). */
export const RESOURCE_PAGE_SIZE = 24;

/** The list call's filters of the page's. */
export function resourceQuery(f: ResourceFilters): Partial<ResourceListParams> {
  const query: Partial<ResourceListParams> = {};
  if (f.type) query.type = f.type;
  else if (f.types?.length) query.types = [...f.types];
  if (f.keyword.trim()) query.keyword = f.keyword.trim();
  if (f.group === 'ungrouped') query.group_id = 0;
  else if (typeof f.group === 'number') query.group_id = f.group;
  return query;
}

/**
 * A resource picker's filters when it opens for a place taking `types`: every one of them (one
 * list: stickers and images together), any group, no keyword; the person may narrow it to one
 * type or one group.
 */
export function pickerFilters(types: readonly ResourceType[]): ResourceFilters {
  return types.length === 1
    ? { type: types[0]!, keyword: '', group: 'all' }
    : { type: '', types: [...types], keyword: '', group: 'all' };
}

/**
 * A resource picker's wiring, the same in every area that has one: when it opens, its list shows
 * the types of the place it opened for (`opened` does the area's extra, e.g. reloading groups);
 * when the person confirms, `confirmed` gets the slot and what was picked.
 */
export function wirePicker(
  picker: ActorRefFrom<typeof resourcePickerMachine>,
  list: { send(event: { type: 'SET_FILTERS'; filters: ResourceFilters }): void },
  confirmed: (slot: PickerSlot, picked: Picked[]) => void,
  opened?: () => void,
): Subscription[] {
  return [
    whenChanged(
      picker,
      (s) => s.context.opened,
      () => {
        list.send({
          type: 'SET_FILTERS',
          filters: pickerFilters(picker.getSnapshot().context.types),
        });
        opened?.();
      },
    ),
    whenChanged(
      picker,
      (s) => s.context.confirmed,
      () => {
        const { slot, picked } = picker.getSnapshot().context;
        if (slot) confirmed(slot, picked);
      },
    ),
  ];
}

/** The selection to delete (ids), as the delete dialog's target. */
export interface ResourceSelection {
  ids: readonly number[];
  /** The one resource's name when it is one (the confirmation names it). */
  name: string | null;
}

type Uploads = Pick<ReturnType<typeof uploadsArea.create>, 'onResourceAdded'>;

function createResourceActors(e: ResourcesEndpoints, uploads: Uploads) {
  return lazyActors(
    {
      resources: () =>
        listActor<ResourceFilters, Resource>(
          'resources',
          ({ filters, page, limit }, signal) =>
            e.getResources({ ...resourceQuery(filters), page, limit }, { signal }),
          NO_RESOURCE_FILTERS,
          RESOURCE_PAGE_SIZE,
        ),
      groups: () =>
        loadActor<GroupListReply>('resourceGroups', (signal) => e.getGroups({ signal })),
      library: () => createActor(resourceLibraryMachine),
      // The dialogs' drafts are their machines' (docs/architecture.md "Forms").
      rename: () =>
        dialogActor<Resource, ResourceEditBody, Resource, TextValues>(
          'resourceRename',
          (_r, body) => e.editResource(body),
          textFields(
            (r) => r?.name ?? '',
            (r, name) => ({ id: r?.id ?? 0, name }),
            resourceEditBody,
          ),
        ),
      move: () =>
        dialogActor<Resource, ResourceEditBody, Resource, GroupValues>(
          'resourceMove',
          (_r, body) => e.editResource(body),
          groupFields(
            (r) => r?.group_id ?? null,
            (r, group_id) => ({ id: r?.id ?? 0, group_id }),
            resourceEditBody,
          ),
        ),
      remove: () =>
        dialogActor<ResourceSelection, ResourceDeleteBody, ResourceDeleteReply>(
          'resourceDelete',
          (_s, body) => e.deleteResources(body),
        ),
      groupAdd: () =>
        dialogActor<null, GroupAddBody, ResourceGroup, TextValues>(
          'groupAdd',
          (_t, body) => e.addGroup(body),
          textFields(
            () => '',
            (_t, name) => ({ name }),
            groupAddBody,
          ),
        ),
      groupRename: () =>
        dialogActor<ResourceGroup, GroupEditBody, ResourceGroup, TextValues>(
          'groupRename',
          (_g, body) => e.editGroup(body),
          textFields(
            (g) => g?.name ?? '',
            (g, name) => ({ id: g?.id ?? 0, name }),
            groupEditBody,
          ),
        ),
      groupDelete: () =>
        dialogActor<ResourceGroup, GroupDeleteBody, null>('groupDelete', (_g, body) =>
          e.deleteGroup(body),
        ),
    },
    (_actors, started) => {
      const reloadList = () => started('resources')?.send({ type: 'RELOAD' });
      const reloadGroups = () => started('groups')?.send({ type: 'RELOAD' });
      const reloadBoth = () => {
        reloadList();
        reloadGroups();
      };
      const after = (
        actor: { getSnapshot(): { context: { completed: number } } },
        then: () => void,
      ) => [whenChanged(actor as DialogActor<unknown, unknown>, (s) => s.context.completed, then)];
      return {
        resources: (resources) => [
          // What the list shows now: the selection keeps only what the person still sees.
          whenChanged(
            resources,
            (s) => (s.matches('ready') ? `ids:${s.context.rows.map((r) => r.id).join(',')}` : ''),
            () =>
              started('library')?.send({
                type: 'SHOWN',
                ids: resources.getSnapshot().context.rows.map((r) => r.id),
              }),
          ),
          { unsubscribe: uploads.onResourceAdded(reloadBoth) },
        ],
        rename: (rename) =>
          after(rename, () => {
            toast('success', 'resources.renamed');
            reloadList();
          }),
        move: (move) =>
          after(move, () => {
            toast('success', 'resources.moved');
            reloadBoth();
          }),
        remove: (remove) =>
          after(remove, () => {
            toast('success', 'resources.deleted', {
              count: remove.getSnapshot().context.result?.count ?? 0,
            });
            started('library')?.send({ type: 'CLEAR' });
            reloadBoth();
          }),
        groupAdd: (groupAdd) =>
          after(groupAdd, () => {
            toast('success', 'resources.groupAdded');
            reloadGroups();
          }),
        groupRename: (groupRename) =>
          after(groupRename, () => {
            toast('success', 'resources.groupRenamed');
            reloadGroups();
          }),
        groupDelete: (groupDelete) =>
          after(groupDelete, () => {
            toast('success', 'resources.groupDeleted');
            const gone = groupDelete.getSnapshot().context.target?.id;
            const list = started('resources');
            const filters = list?.getSnapshot().context.query.filters;
            // Its resources moved to "ungrouped": a list showing the group follows them there.
            if (list && filters && filters.group === gone) {
              list.send({ type: 'SET_FILTERS', filters: { ...filters, group: 'ungrouped' } });
            } else reloadList();
            reloadGroups();
          }),
      };
    },
  );
}

export type ResourcesActors = ReturnType<typeof createResourceActors>;

export const resourcesArea = defineArea<ResourcesEndpoints, ResourcesActors>({
  key: 'resources',
  live: () => ({ ...resourcesApi }),
  create: (endpoints, areas) => createResourceActors(endpoints, areas.get(uploadsArea)),
});
