import { Field, Input, NativeSelect, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import {
  SOCIAL_PLATFORMS,
  type AccountDeleteBody,
  type AccountMoveBody,
  type SocialPlatformId,
} from '../../api/contract/matrix';
import {
  groupAddBody,
  groupEditBody,
  type GroupAddBody,
  type GroupDeleteBody,
  type GroupEditBody,
  type ResourceGroup,
} from '../../api/contract/resources';
import type { DialogActor } from '../../app/actors/factories';
import type { AccountSelection, MatrixActors } from '../../app/actors/matrix';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { FailureAlert } from '../../components/step-dialog';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { CallDialog, useCall } from '../shared/call-dialog';
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
  const bind = useSelector(props.page, (s) => s.context.bind);
  if (!open) return null;
  return <BindForm key={bind?.platform ?? ''} {...props} />;
}

function BindForm(props: { page: MatrixActors['page']; groups: ResourceGroup[] }) {
  const t = useT();
  const { page } = props;
  const bind = useSelector(page, (s) => s.context.bind);
  const busy = useSelector(page, (s) => s.hasTag('binding'));
  const error = useSelector(page, (s) =>
    s.matches({ bind: 'failed' }) ? s.context.bindError : null,
  );
  const [platform, setPlatform] = useState<SocialPlatformId>(bind?.platform ?? 'douyin');
  const [group, setGroup] = useState(String(bind?.groupId ?? 0));
  return (
    <FormDialog
      open
      title={t('matrix.bindTitle')}
      submitLabel={t('matrix.bindSubmit')}
      submitting={busy}
      onClose={() => page.send({ type: 'CLOSE_BIND' })}
      onSubmit={() =>
        page.send({
          type: 'BIND',
          request: { platform, groupId: Number(group) > 0 ? Number(group) : null },
        })
      }
    >
      <Field.Root>
        <Field.Label>{t('matrix.platform')}</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field
            value={platform}
            onChange={(e) => setPlatform(e.currentTarget.value as SocialPlatformId)}
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
        onChange={setGroup}
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

/** Moves one account or the selection to a group or to "ungrouped" (0). */
export function MoveDialog(props: {
  actor: DialogActor<AccountSelection, AccountMoveBody, { moved: number }>;
  groups: ResourceGroup[];
}) {
  const call = useCall(props.actor);
  const target = call.target;
  if (!call.open || !target) return null;
  return <MoveForm key={target.ids.join(',')} target={target} groups={props.groups} call={call} />;
}

function MoveForm(props: {
  target: AccountSelection;
  groups: ResourceGroup[];
  call: ReturnType<typeof useCall<AccountSelection, AccountMoveBody, { moved: number }>>;
}) {
  const t = useT();
  const { call, target } = props;
  const [group, setGroup] = useState(String(target.groupId ?? 0));
  return (
    <CallDialog
      call={call}
      title={
        target.name !== null
          ? t('matrix.moveOneTitle', { name: target.name })
          : t('matrix.moveManyTitle', { count: target.ids.length })
      }
      submitLabel={t('matrix.move')}
      onSubmit={() => call.submit({ ids: [...target.ids], group_id: Number(group) })}
    >
      <SelectField
        label={t('matrix.group')}
        value={group}
        options={[
          { value: '0', label: t('matrix.ungrouped') },
          ...props.groups.map((g) => ({ value: String(g.id), label: g.name })),
        ]}
        onChange={setGroup}
      />
    </CallDialog>
  );
}

/** The first message of a contract schema's refusal (a message id), or null when it passes. */
function refusal(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? null : (result.error?.issues[0]?.message ?? 'validation.invalid');
}

/** A group's name checked with the contract's rule, then sent. */
function GroupNameForm(props: {
  title: string;
  submitLabel: string;
  initial: string;
  call: { submitting: boolean; error: string | null; close: () => void };
  check: (name: string) => string | null;
  onSubmit: (name: string) => void;
}) {
  const intl = useIntl();
  const t = useT();
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
      <FormField label={t('matrix.groupName')} error={error}>
        <Input value={name} maxLength={20} onChange={(e) => setName(e.currentTarget.value)} />
      </FormField>
    </CallDialog>
  );
}

export function GroupAddDialog(props: { actor: DialogActor<null, GroupAddBody, ResourceGroup> }) {
  const t = useT();
  const call = useCall(props.actor);
  if (!call.open) return null;
  return (
    <GroupNameForm
      title={t('matrix.newGroup')}
      submitLabel={t('matrix.create')}
      initial=""
      call={call}
      check={(name) => refusal(groupAddBody.safeParse({ name }))}
      onSubmit={(name) => call.submit({ name })}
    />
  );
}

export function GroupRenameDialog(props: {
  actor: DialogActor<ResourceGroup, GroupEditBody, ResourceGroup>;
}) {
  const t = useT();
  const call = useCall(props.actor);
  const target = call.target;
  if (!call.open || !target) return null;
  return (
    <GroupNameForm
      key={target.id}
      title={t('matrix.renameGroupTitle', { name: target.name })}
      submitLabel={t('form.save')}
      initial={target.name}
      call={call}
      check={(name) => refusal(groupEditBody.safeParse({ id: target.id, name }))}
      onSubmit={(name) => call.submit({ id: target.id, name })}
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
