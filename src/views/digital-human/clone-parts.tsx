import { Badge, Box, Button, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import {
  CLONE_STATUSES,
  type CloneDeleteBody,
  type CloneStatus,
  type DhDeleteReply,
  type ImageClone,
  type VoiceClone,
} from '../../api/contract/digital-human';
import type { Resource, ResourceType } from '../../api/contract/resources';
import type { CloneFilters, PickedMedia } from '../../app/actors/digital-human-clones';
import type { DialogActor, ListActor } from '../../app/actors/factories';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { FormField } from '../../components/form-field';
import { FailureAlert } from '../../components/step-dialog';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { formatDuration } from '../shared/format';
import { UploadDropZone } from '../shared/upload-drop-zone';
import { UploadQueue } from '../shared/upload-queue';
import { wholePercent } from '../shared/format';
import { useT, type T } from '../shared/use-t';
import { ConfirmRowDialog } from '../shared/call-dialog';
import { PercentBar } from '../../components/percent-bar';

export { useT, type T };

export const CLONE_STATUS_LABEL: Record<CloneStatus, MessageId> = {
  queued: 'dhClones.statusQueued',
  training: 'dhClones.statusTraining',
  ready: 'dhClones.statusReady',
  failed: 'dhClones.statusFailed',
};

/** Waiting grey, training blue, ready green, failed red. */
const CLONE_STATUS_PALETTE: Record<CloneStatus, string> = {
  queued: 'gray',
  training: 'blue',
  ready: 'green',
  failed: 'red',
};

/** A clone's status tag and, when it failed, why (in the caller's language, from the server). */
export function CloneStatus(props: { clone: ImageClone | VoiceClone; t: T }) {
  const { clone, t } = props;
  return (
    <Stack gap="1" alignItems="flex-start">
      <Badge colorPalette={CLONE_STATUS_PALETTE[clone.status]} data-testid="clone-status">
        {t(CLONE_STATUS_LABEL[clone.status])}
      </Badge>
      {clone.status === 'failed' && clone.reason && (
        <Text fontSize="xs" color="fg.error" data-testid="clone-reason">
          {clone.reason}
        </Text>
      )}
    </Stack>
  );
}

/** Training: a bar of its progress; queued: its place in the queue; else nothing. */
export function CloneProgress(props: { clone: ImageClone | VoiceClone; t: T }) {
  const { clone, t } = props;
  if (clone.status === 'queued') {
    return (
      <Text fontSize="sm" color="fg.muted" data-testid="clone-progress">
        {clone.queue_position === null
          ? t('dhClones.queued')
          : t('dhClones.queuePosition', { position: clone.queue_position })}
      </Text>
    );
  }
  if (clone.status !== 'training') return <Text color="fg.muted">—</Text>;
  const percent = wholePercent(clone.progress);
  return (
    <Stack gap="1" minWidth="28">
      <PercentBar label={t('dhClones.progressOf', { name: clone.name })} percent={percent} />
      <Text fontSize="xs" color="fg.muted" data-testid="clone-progress">
        {t('dhClones.percent', { percent })}
      </Text>
    </Stack>
  );
}

/** The embedded provider's results: demonstration output, not a real clone. */
export function DemonstrationLabel(props: { show: boolean; t: T }) {
  if (!props.show) return null;
  return (
    <Badge
      colorPalette="orange"
      variant="outline"
      size="sm"
      title={props.t('dhClones.demonstrationHint')}
    >
      {props.t('dhClones.demonstration')}
    </Badge>
  );
}

/** Status and keyword filters of a clone list. */
export function CloneFilterBar(props: {
  label: string;
  applied: CloneFilters;
  onApply: (filters: CloneFilters) => void;
  t: T;
}) {
  const { t } = props;
  const [draft, setDraft] = useState(props.applied);
  return (
    <FilterBar
      label={props.label}
      onApply={() => props.onApply(draft)}
      onReset={() => {
        const none = { status: '' as const, keyword: '' };
        setDraft(none);
        props.onApply(none);
      }}
    >
      <FilterSelect
        label={t('dhClones.status')}
        value={draft.status}
        onChange={(status) => setDraft((d) => ({ ...d, status: status as CloneStatus | '' }))}
        options={CLONE_STATUSES.map((s) => ({ value: s, label: t(CLONE_STATUS_LABEL[s]) }))}
      />
      <FilterText
        label={t('dhClones.keyword')}
        value={draft.keyword}
        onChange={(keyword) => setDraft((d) => ({ ...d, keyword }))}
      />
    </FilterBar>
  );
}

/** The delete confirmation of a clone (ready or failed), with the server's refusal. */
export function DeleteCloneDialog<C extends { id: number; name: string }>(props: {
  actor: DialogActor<C, CloneDeleteBody, DhDeleteReply>;
  t: T;
}) {
  const { t } = props;
  return (
    <ConfirmRowDialog
      actor={props.actor}
      title={(clone) => t('dhClones.deleteTitle', { name: clone.name })}
      what={(clone) => t('dhClones.deleteWhat', { name: clone.name })}
      submitLabel={t('dhClones.delete')}
      payload={(clone) => ({ ids: [clone.id] })}
    />
  );
}

const mediaLabel = (m: { name: string; duration: number | null }) =>
  m.duration === null ? m.name : `${m.name} (${formatDuration(m.duration)})`;

/**
 * A dialog's media slot: one of the caller's resources of the type (the newest, from the area's
 * list), or a file uploaded here with the resource library's uploader (it fills this slot once it
 * is a resource: the area's doing). `onUploadHere` tells the form this slot is the one uploading.
 */
export function MediaSlot(props: {
  label: string;
  hint: string;
  type: ResourceType;
  choices: ListActor<{ type: ResourceType }, Resource>;
  value: PickedMedia | null;
  error: string | null;
  disabled: boolean;
  onPick: (media: PickedMedia | null) => void;
  onUploadHere?: () => void;
  testId: string;
}) {
  const intl = useIntl();
  const t = (id: MessageId) => intl.formatMessage({ id });
  const rows = useSelector(props.choices, (s) => s.context.rows);
  const loading = useSelector(props.choices, (s) => s.hasTag('loading'));
  const value = props.value;
  // The picked one stays offered while the list loads again.
  const options =
    value && !rows.some((r) => r.id === value.id) ? [value, ...rows] : (rows as PickedMedia[]);
  return (
    <Stack gap="2" data-testid={props.testId}>
      <FormField
        label={props.label}
        error={props.error ? formatText(intl, props.error) : null}
        helper={props.hint}
        required
      >
        <NativeSelect.Root disabled={props.disabled}>
          <NativeSelect.Field
            value={value ? String(value.id) : ''}
            aria-busy={loading}
            onChange={(e) => {
              const id = Number(e.currentTarget.value);
              const row = options.find((r) => r.id === id);
              props.onPick(
                row ? { id: row.id, name: row.name, duration: row.duration, size: row.size } : null,
              );
            }}
          >
            <option value="">{t('dhClones.choose')}</option>
            {options.map((r) => (
              <option key={r.id} value={r.id}>
                {mediaLabel(r)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      <Box
        onClickCapture={props.onUploadHere}
        onChangeCapture={props.onUploadHere}
        onDropCapture={props.onUploadHere}
      >
        <UploadDropZone resourceType={props.type} />
      </Box>
    </Stack>
  );
}

/** The uploads under way (the library's queue), shown in a dialog that uploads. */
export function DialogUploads() {
  return <UploadQueue />;
}

/** The server's refusal of a dialog's call, in the person's language. */
export function Refusal(props: { error: string | null }) {
  if (!props.error) return null;
  return <FailureAlert error={props.error} />;
}

/** A button sized for table rows, named after its clone. */
export function RowButton(props: {
  label: string;
  named: string;
  onClick: () => void;
  danger?: boolean;
}) {
  return (
    <Button
      size="xs"
      variant="ghost"
      colorPalette={props.danger ? 'red' : undefined}
      aria-label={props.named}
      onClick={props.onClick}
    >
      {props.label}
    </Button>
  );
}
