import { chakra, CloseButton, Dialog, Image, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import {
  groupAddBody,
  groupEditBody,
  MEDIA_KIND,
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
} from '../../api/contract/resources';
import type { DialogActor } from '../../app/actors/factories';
import type { ResourceSelection, ResourcesActors } from '../../app/actors/resources';
import { FormField } from '../../components/form-field';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { CallDialog, useCall } from '../shared/call-dialog';
import { useT } from '../shared/use-t';
import { SelectField } from '../shared/form-parts';
import { RESOURCE_TYPE_LABEL } from '../shared/upload-drop-zone';
import { formatBytes } from '../shared/upload-format';
import { formatDuration } from '../shared/format';

/** The first message of a contract schema's refusal (a message id), or null when it passes. */
function refusal(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? null : (result.error?.issues[0]?.message ?? 'validation.invalid');
}

/** One name field checked with the contract's rule, then sent. */
function NameForm(props: {
  title: string;
  label: string;
  submitLabel: string;
  initial: string;
  maxLength: number;
  call: { submitting: boolean; error: string | null; close: () => void };
  check: (name: string) => string | null;
  onSubmit: (name: string) => void;
}) {
  const intl = useIntl();
  const [name, setName] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <CallDialog
      call={props.call}
      title={props.title}
      submitLabel={props.submitLabel}
      onSubmit={() => {
        const wrong = props.check(name);
        setError(wrong ? formatText(intl, wrong) : null);
        if (!wrong) props.onSubmit(name.trim());
      }}
    >
      <FormField label={props.label} error={error}>
        <Input
          value={name}
          maxLength={props.maxLength}
          onChange={(e) => setName(e.currentTarget.value)}
        />
      </FormField>
    </CallDialog>
  );
}

/** Renaming a named row (a resource, a group): its name checked with the contract's rule. */
function RenameRowDialog<Row extends { id: number; name: string }, P, R>(props: {
  actor: DialogActor<Row, P, R>;
  title: MessageId;
  label: MessageId;
  maxLength: number;
  /** The call's payload: the row's id and the new name. */
  body: (id: number, name: string) => P;
  schema: { safeParse: (body: P) => Parameters<typeof refusal>[0] };
}) {
  const t = useT();
  const call = useCall(props.actor);
  const target = call.target;
  if (!call.open || !target) return null;
  return (
    <NameForm
      key={target.id}
      title={t(props.title, { name: target.name })}
      label={t(props.label)}
      submitLabel={t('form.save')}
      initial={target.name}
      maxLength={props.maxLength}
      call={call}
      check={(name) => refusal(props.schema.safeParse(props.body(target.id, name)))}
      onSubmit={(name) => call.submit(props.body(target.id, name))}
    />
  );
}

export function RenameDialog(props: { actor: DialogActor<Resource, ResourceEditBody, Resource> }) {
  return (
    <RenameRowDialog
      actor={props.actor}
      title="resources.renameTitle"
      label="resources.name"
      maxLength={100}
      body={(id, name) => ({ id, name })}
      schema={resourceEditBody}
    />
  );
}

/** Moves one resource to a group or to "ungrouped" (0). */
export function MoveDialog(props: {
  actor: DialogActor<Resource, ResourceEditBody, Resource>;
  groups: ResourceGroup[];
}) {
  const call = useCall(props.actor);
  const target = call.target;
  if (!call.open || !target) return null;
  return <MoveForm key={target.id} target={target} groups={props.groups} call={call} />;
}

function MoveForm(props: {
  target: Resource;
  groups: ResourceGroup[];
  call: ReturnType<typeof useCall<Resource, ResourceEditBody, Resource>>;
}) {
  const t = useT();
  const { call, target } = props;
  const [group, setGroup] = useState(String(target.group_id ?? 0));
  return (
    <CallDialog
      call={call}
      title={t('resources.moveTitle', { name: target.name })}
      submitLabel={t('resources.moveSubmit')}
      onSubmit={() => call.submit({ id: target.id, group_id: Number(group) })}
    >
      <SelectField
        label={t('resources.group')}
        value={group}
        options={[
          { value: '0', label: t('resources.ungrouped') },
          ...props.groups.map((g) => ({ value: String(g.id), label: g.name })),
        ]}
        onChange={setGroup}
      />
    </CallDialog>
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

export function GroupAddDialog(props: { actor: DialogActor<null, GroupAddBody, ResourceGroup> }) {
  const t = useT();
  const call = useCall(props.actor);
  if (!call.open) return null;
  return (
    <NameForm
      title={t('resources.newGroup')}
      label={t('resources.groupName')}
      submitLabel={t('resources.create')}
      initial=""
      maxLength={20}
      call={call}
      check={(name) => refusal(groupAddBody.safeParse({ name }))}
      onSubmit={(name) => call.submit({ name })}
    />
  );
}

export function GroupRenameDialog(props: {
  actor: DialogActor<ResourceGroup, GroupEditBody, ResourceGroup>;
}) {
  return (
    <RenameRowDialog
      actor={props.actor}
      title="resources.renameGroupTitle"
      label="resources.groupName"
      maxLength={20}
      body={(id, name) => ({ id, name })}
      schema={groupEditBody}
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
