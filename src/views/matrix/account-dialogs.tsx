import { Field, NativeSelect, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import {
  SOCIAL_PLATFORMS,
  type AccountDeleteBody,
  type SocialPlatformId,
} from '../../api/contract/matrix';
import type { GroupDeleteBody, ResourceGroup } from '../../api/contract/resources';
import type { DialogActor } from '../../app/actors/factories';
import type { AccountSelection, MatrixActors } from '../../app/actors/matrix';
import type { BindRequest } from '../../machines/matrix-accounts';
import { FormDialog } from '../../components/form-dialog';
import { FailureAlert } from '../../components/step-dialog';
import type { MessageId } from '../../i18n/messages';
import { CallDialog, GroupFormDialog, TextFormDialog, useCall } from '../shared/call-dialog';
import { SelectField } from '../shared/form-parts';
import { useT } from '../shared/use-t';

/** Each platform's name. */
export const PLATFORM_LABEL: Record<SocialPlatformId, MessageId> = {
  douyin: 'matrix.platformDouyin',
  kuaishou: 'matrix.platformKuaishou',
  xiaohongshu: 'matrix.platformXiaohongshu',
  channels: 'matrix.platformChannels',
};

/** The platforms whose accounts can be bound by authorisation today (the others: assisted, later). */
const BINDABLE: readonly SocialPlatformId[] = ['douyin'];

/**
 * The bind dialog of the page machine's `bind` region: the platform (Douyin; the assisted
 * platforms listed, not choosable yet) and the new account's group; "Go to authorise" asks for the
 * platform's address and the browser goes there. A refusal shows in the dialog.
 */
export function BindDialog(props: { page: MatrixActors['page']; groups: ResourceGroup[] }) {
  const open = useSelector(props.page, (s) => s.hasTag('bindDialog'));
  if (!open) return null;
  return <BindForm {...props} />;
}

function BindForm(props: { page: MatrixActors['page']; groups: ResourceGroup[] }) {
  const t = useT();
  const { page } = props;
  const bind = useSelector(page, (s) => s.context.bind);
  const busy = useSelector(page, (s) => s.hasTag('binding'));
  const error = useSelector(page, (s) =>
    s.matches({ bind: 'failed' }) ? s.context.bindError : null,
  );
  const platform = bind?.platform ?? 'douyin';
  const group = String(bind?.groupId ?? 0);
  const change = (change: Partial<BindRequest>) => page.send({ type: 'SET_BIND', change });
  return (
    <FormDialog
      open
      title={t('matrix.bindTitle')}
      submitLabel={t('matrix.bindSubmit')}
      submitting={busy}
      onClose={() => page.send({ type: 'CLOSE_BIND' })}
      onSubmit={() => page.send({ type: 'BIND' })}
    >
      <Field.Root>
        <Field.Label>{t('matrix.platform')}</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field
            value={platform}
            onChange={(e) => change({ platform: e.currentTarget.value as SocialPlatformId })}
          >
            {SOCIAL_PLATFORMS.map((p) => (
              <option key={p} value={p} disabled={!BINDABLE.includes(p)}>
                {BINDABLE.includes(p)
                  ? t(PLATFORM_LABEL[p])
                  : t('matrix.assistedComing', { platform: t(PLATFORM_LABEL[p]) })}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <SelectField
        label={t('matrix.bindGroup')}
        value={group}
        options={[
          { value: '0', label: t('matrix.ungrouped') },
          ...props.groups.map((g) => ({ value: String(g.id), label: g.name })),
        ]}
        onChange={(value) => change({ groupId: Number(value) > 0 ? Number(value) : null })}
      />
      <Text fontSize="sm">{t('matrix.bindWhat', { platform: t(PLATFORM_LABEL[platform]) })}</Text>
      {error && <FailureAlert error={error} />}
    </FormDialog>
  );
}

export function DeleteDialog(props: {
  actor: DialogActor<AccountSelection, AccountDeleteBody, { deleted: number }>;
}) {
  const t = useT();
  const call = useCall(props.actor);
  const target = call.target;
  if (!call.open || !target) return null;
  return (
    <CallDialog
      call={call}
      title={t('matrix.deleteTitle')}
      submitLabel={t('matrix.delete')}
      onSubmit={() => call.submit({ ids: [...target.ids] })}
    >
      <Text>
        {target.name !== null
          ? t('matrix.deleteOneWhat', { name: target.name })
          : t('matrix.deleteManyWhat', { count: target.ids.length })}
      </Text>
    </CallDialog>
  );
}

/**
 * Moves one account or the selection to a group or to "ungrouped" (0); its machine holds the
 * choice, started from the one account's group (docs/architecture.md "Forms").
 */
export function MoveDialog(props: { actor: MatrixActors['move']; groups: ResourceGroup[] }) {
  const t = useT();
  return (
    <GroupFormDialog
      actor={props.actor}
      title={(target) =>
        target.name !== null
          ? t('matrix.moveOneTitle', { name: target.name })
          : t('matrix.moveManyTitle', { count: target.ids.length })
      }
      label={t('matrix.group')}
      submitLabel={t('matrix.move')}
      ungrouped={t('matrix.ungrouped')}
      groups={props.groups}
    />
  );
}

/** A new group: its machine holds the name and checks it with the contract's rule. */
export function GroupAddDialog(props: { actor: MatrixActors['groupAdd'] }) {
  const t = useT();
  return (
    <TextFormDialog
      actor={props.actor}
      needsTarget={false}
      title={() => t('matrix.newGroup')}
      label={t('matrix.groupName')}
      submitLabel={t('matrix.create')}
      maxLength={20}
    />
  );
}

/** Renaming a group: the name starts as the group's. */
export function GroupRenameDialog(props: { actor: MatrixActors['groupRename'] }) {
  const t = useT();
  return (
    <TextFormDialog
      actor={props.actor}
      title={(group) => t('matrix.renameGroupTitle', { name: group?.name ?? '' })}
      label={t('matrix.groupName')}
      submitLabel={t('form.save')}
      maxLength={20}
    />
  );
}

/** Deleting a group says where its accounts go: to "ungrouped". */
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
      title={t('matrix.deleteGroupTitle', { name: target.name })}
      submitLabel={t('matrix.delete')}
      onSubmit={() => call.submit({ id: target.id })}
    >
      <Text>{t('matrix.deleteGroupWhat', { count: target.count })}</Text>
    </CallDialog>
  );
}
