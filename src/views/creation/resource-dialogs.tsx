import { chakra, CloseButton, Dialog, Image, Portal, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import {
  MEDIA_KIND,
  type GroupDeleteBody,
  type GroupListReply,
  type Resource,
  type ResourceDeleteBody,
  type ResourceDeleteReply,
  type ResourceGroup,
} from '../../api/contract/resources';
import type { DialogActor } from '../../app/actors/factories';
import type { ResourceSelection, ResourcesActors } from '../../app/actors/resources';
import { CallDialog, GroupFormDialog, TextFormDialog, useCall } from '../shared/call-dialog';
import { useT } from '../shared/use-t';
import { RESOURCE_TYPE_LABEL } from '../shared/upload-drop-zone';
import { formatBytes } from '../shared/upload-format';
import { formatDuration } from '../shared/format';

/**
 * Renaming a resource: its machine holds the name, started from the row's, and checks it with the
 * contract's rule (docs/architecture.md "Forms").
 */
export function RenameDialog(props: { actor: ResourcesActors['rename'] }) {
  const t = useT();
  return (
    <TextFormDialog
      actor={props.actor}
      title={(row) => t('resources.renameTitle', { name: row?.name ?? '' })}
      label={t('resources.name')}
      submitLabel={t('form.save')}
      maxLength={100}
    />
  );
}

/** Moves one resource to a group or to "ungrouped" (0). */
export function MoveDialog(props: { actor: ResourcesActors['move']; groups: ResourceGroup[] }) {
  const t = useT();
  return (
    <GroupFormDialog
      actor={props.actor}
      title={(row) => t('resources.moveTitle', { name: row.name })}
      label={t('resources.group')}
      submitLabel={t('resources.moveSubmit')}
      ungrouped={t('resources.ungrouped')}
      groups={props.groups}
    />
  );
}

export function DeleteDialog(props: {
  actor: DialogActor<ResourceSelection, ResourceDeleteBody, ResourceDeleteReply>;
}) {
  const t = useT();
  const call = useCall(props.actor);
  const target = call.target;
  if (!call.open || !target) return null;
  return (
    <CallDialog
      call={call}
      title={t('resources.deleteTitle')}
      submitLabel={t('resources.delete')}
      onSubmit={() => call.submit({ ids: [...target.ids] })}
    >
      <Text>
        {target.name !== null
          ? t('resources.deleteOneWhat', { name: target.name })
          : t('resources.deleteManyWhat', { count: target.ids.length })}
      </Text>
      <Text>{t('resources.deleteKeep')}</Text>
    </CallDialog>
  );
}

export function GroupAddDialog(props: { actor: ResourcesActors['groupAdd'] }) {
  const t = useT();
  return (
    <TextFormDialog
      actor={props.actor}
      needsTarget={false}
      title={() => t('resources.newGroup')}
      label={t('resources.groupName')}
      submitLabel={t('resources.create')}
      maxLength={20}
    />
  );
}

export function GroupRenameDialog(props: { actor: ResourcesActors['groupRename'] }) {
  const t = useT();
  return (
    <TextFormDialog
      actor={props.actor}
      title={(row) => t('resources.renameGroupTitle', { name: row?.name ?? '' })}
      label={t('resources.groupName')}
      submitLabel={t('form.save')}
      maxLength={20}
    />
  );
}

/** Deleting a group says where its resources go: to "ungrouped". */
export function GroupDeleteDialog(props: {
  actor: DialogActor<ResourceGroup, GroupDeleteBody, null>;
}) {
  const t = useT();
  const call = useCall(props.actor);
  const target = call.target;
  if (!call.open || !target) return null;
  return (
    <CallDialog
      call={call}
      title={t('resources.deleteGroupTitle', { name: target.name })}
      submitLabel={t('resources.delete')}
      onSubmit={() => call.submit({ id: target.id })}
    >
      <Text>{t('resources.deleteGroupWhat', { count: target.count })}</Text>
    </CallDialog>
  );
}

/**
 * The preview the library machine has open (its `previewing` states): a player, the image, or the
 * facts of a font.
 */
export function PreviewDialog(props: { library: ResourcesActors['library'] }) {
  const t = useT();
  const previewing = useSelector(props.library, (s) => s.hasTag('previewing'));
  const resource = useSelector(props.library, (s) => s.context.preview);
  const playing = useSelector(props.library, (s) => s.matches({ preview: 'playing' }));
  const viewing = useSelector(props.library, (s) => s.matches({ preview: 'viewing' }));
  if (!previewing) return null;
  const close = () => props.library.send({ type: 'CLOSE_PREVIEW' });
  return (
    <Dialog.Root
      open
      onOpenChange={(e) => {
        if (!e.open) close();
      }}
      placement="center"
      size="lg"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{resource?.name}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {resource && <Preview resource={resource} playing={playing} viewing={viewing} />}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function Preview(props: { resource: Resource; playing: boolean; viewing: boolean }) {
  const t = useT();
  const intl = useIntl();
  const { resource, playing, viewing } = props;
  const audio = MEDIA_KIND[resource.type] === 'audio';
  const facts = [
    t(RESOURCE_TYPE_LABEL[resource.type]),
    resource.duration !== null ? formatDuration(resource.duration) : null,
    resource.width && resource.height ? `${resource.width}×${resource.height}` : null,
    formatBytes(intl, resource.size),
  ].filter((f): f is string => f !== null);
  return (
    <Stack gap="3">
      {playing && !audio && (
        <chakra.video
          controls
          src={resource.url}
          width="100%"
          maxHeight="60vh"
          aria-label={t('resources.player', { name: resource.name })}
          data-testid="resource-player"
        />
      )}
      {playing && audio && (
        <chakra.audio
          controls
          src={resource.url}
          width="100%"
          aria-label={t('resources.player', { name: resource.name })}
          data-testid="resource-player"
        />
      )}
      {viewing && (
        <Image src={resource.url} alt={resource.name} maxHeight="60vh" objectFit="contain" />
      )}
      {!playing && !viewing && <Text>{t('resources.noPreview')}</Text>}
      <Text fontSize="sm" color="fg.muted">
        {facts.join(' · ')}
      </Text>
    </Stack>
  );
}

/** The groups' names for the move dialog (empty until they load). */
export function groupsOf(data: GroupListReply | null): ResourceGroup[] {
  return data?.list ?? [];
}
