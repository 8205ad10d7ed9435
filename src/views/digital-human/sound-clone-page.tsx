import {
  Button,
  CloseButton,
  Dialog,
  HStack,
  Input,
  NativeSelect,
  Portal,
  Stack,
  Tabs,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useMemo, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import {
  DH_LIMITS,
  VOICE_GENDERS,
  type VoiceClone,
  type VoiceGender,
  type VoiceScope,
} from '../../api/contract/digital-human';
import { useArea } from '../../app/actors/areas';
import {
  canDeleteClone,
  digitalHumanClonesArea,
  type CloneFilters,
  type DigitalHumanClonesActors,
} from '../../app/actors/digital-human-clones';
import type { ListActor } from '../../app/actors/factories';
import { useListActor } from '../../app/hooks/use-list';
import { DataTable, type Column } from '../../components/data-table';
import { formatDateTime } from '../../components/dates';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { Page } from '../../components/page';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import {
  CloneFilterBar,
  CloneProgress,
  CloneStatus,
  DeleteCloneDialog,
  DemonstrationLabel,
  DialogUploads,
  MediaSlot,
  Refusal,
  RowButton,
  useT,
  type T,
} from './clone-parts';

export const GENDER_LABEL: Record<VoiceGender, MessageId> = {
  female: 'dhClones.female',
  male: 'dhClones.male',
};

/** A short demo sentence in both languages: the preview dialog's first text. */
const previewText = (t: T) => t('dhClones.previewSample');

/** A voice's demo sentence as a small player (once ready). */
export function DemoPlayer(props: { voice: VoiceClone; t: T }) {
  const { voice, t } = props;
  if (!voice.demo_url) return <Text color="fg.muted">—</Text>;
  return (
    <audio
      src={voice.demo_url}
      controls
      preload="none"
      aria-label={t('dhClones.demoOf', { name: voice.name })}
      style={{ height: '2rem', maxWidth: '14rem' }}
    />
  );
}

/** The columns of a voice list (the admin's voice record adds the owner). */
export function voiceColumns(
  t: T,
  actions: ((row: VoiceClone) => ReactNode) | null,
  owner = false,
): Column<VoiceClone>[] {
  return [
    {
      key: 'name',
      header: t('dhClones.name'),
      cell: (row) => (
        <Stack gap="1" alignItems="flex-start">
          <Text>{row.name}</Text>
          <DemonstrationLabel show={row.demonstration} t={t} />
        </Stack>
      ),
    },
    ...(owner
      ? [
          {
            key: 'owner',
            header: t('dhClones.owner'),
            cell: (row: VoiceClone) => row.owner_name ?? '—',
          },
        ]
      : []),
    { key: 'gender', header: t('dhClones.gender'), cell: (row) => t(GENDER_LABEL[row.gender]) },
    {
      key: 'status',
      header: t('dhClones.status'),
      cell: (row) => <CloneStatus clone={row} t={t} />,
    },
    {
      key: 'progress',
      header: t('dhClones.progress'),
      cell: (row) => <CloneProgress clone={row} t={t} />,
    },
    { key: 'demo', header: t('dhClones.demo'), cell: (row) => <DemoPlayer voice={row} t={t} /> },
    {
      key: 'created',
      header: t('dhClones.created'),
      cell: (row) => formatDateTime(row.created_at),
    },
    ...(actions
      ? [{ key: 'actions', header: t('dhClones.actions'), pinned: 'end' as const, cell: actions }]
      : []),
  ];
}

/**
 * /digital-human/sound-clone (partner, merchant): the caller's voice clones and the platform's
 * public voices (a tab each), the create dialog (name, gender, a 10–30 s audio picked or
 * uploaded), the voice preview (a text of at most 100 characters spoken by the voice) and delete.
 * The clones area owns the calls, the watch and the reloads; this view selects and sends.
 */
export default function SoundClonePage() {
  const t = useT();
  const area = useArea(digitalHumanClonesArea);
  const [scope, setScope] = useState<VoiceScope>('mine');
  return (
    <Page
      title={t('route.soundClone')}
      actions={
        <Button size="sm" onClick={() => area.voiceForm.send({ type: 'OPEN' })}>
          {t('dhClones.newVoice')}
        </Button>
      }
    >
      <Tabs.Root
        value={scope}
        onValueChange={(e) => setScope(e.value as VoiceScope)}
        lazyMount
        unmountOnExit
      >
        <Tabs.List aria-label={t('dhClones.voiceScopes')}>
          <Tabs.Trigger value="mine">{t('dhClones.mine')}</Tabs.Trigger>
          <Tabs.Trigger value="public">{t('dhClones.public')}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="mine">
          <VoiceList area={area} list={area.voices} scope="mine" t={t} />
        </Tabs.Content>
        <Tabs.Content value="public">
          <VoiceList area={area} list={area.publicVoices} scope="public" t={t} />
        </Tabs.Content>
      </Tabs.Root>
      <VoiceCloneDialog area={area} />
      <VoicePreviewDialog area={area} />
      <DeleteCloneDialog actor={area.voiceRemove} t={t} />
    </Page>
  );
}

function VoiceList(props: {
  area: DigitalHumanClonesActors;
  list: ListActor<CloneFilters, VoiceClone>;
  scope: VoiceScope;
  t: T;
}) {
  const { area, t, scope } = props;
  const list = useListActor(props.list);
  const known = useSelector(area.watch, (s) => s.context.voices);
  const rows = useMemo(
    () => (scope === 'mine' ? list.rows.map((r) => known[r.id] ?? r) : list.rows),
    [list.rows, known, scope],
  );
  const applied = list.query.filters;
  const columns = useMemo(
    () =>
      voiceColumns(t, (row) => (
        <HStack gap="1">
          {row.status === 'ready' && (
            <RowButton
              label={t('dhClones.listen')}
              named={t('dhClones.listenOf', { name: row.name })}
              onClick={() => area.preview.send({ type: 'OPEN', voice: row, text: previewText(t) })}
            />
          )}
          {canDeleteClone(row) && (
            <RowButton
              danger
              label={t('dhClones.delete')}
              named={t('dhClones.deleteOf', { name: row.name })}
              onClick={() => area.voiceRemove.send({ type: 'OPEN', target: row })}
            />
          )}
        </HStack>
      )),
    [t, area],
  );
  return (
    <Stack gap="4" paddingTop="2">
      <CloneFilterBar
        key={`${applied.status}:${applied.keyword}`}
        label={t(scope === 'mine' ? 'dhClones.voiceFilters' : 'dhClones.publicFilters')}
        applied={applied}
        onApply={list.setFilters}
        t={t}
      />
      <DataTable
        label={t(scope === 'mine' ? 'dhClones.voiceList' : 'dhClones.publicList')}
        testId={scope === 'mine' ? 'voice-clones' : 'public-voices'}
        columns={columns}
        rowKey={(r) => r.id}
        emptyText={t(scope === 'mine' ? 'dhClones.voiceEmpty' : 'dhClones.publicEmpty')}
        {...list.table}
        rows={rows}
      />
    </Stack>
  );
}

/** The create dialog: name, gender, the audio sample. */
export function VoiceCloneDialog(props: { area: DigitalHumanClonesActors }) {
  const intl = useIntl();
  const t = useT();
  const form = props.area.voiceForm;
  const open = useSelector(form, (s) => s.hasTag('open'));
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const draft = useSelector(form, (s) => s.context.draft);
  const errors = useSelector(form, (s) => s.context.errors);
  const error = useSelector(form, (s) => s.context.error);
  if (!open) return null;
  const s = DH_LIMITS.voiceSample;
  const err = (key: string) => (errors[key] ? formatText(intl, errors[key]) : null);
  const edit = (patch: Partial<typeof draft>) => form.send({ type: 'EDIT', patch });
  return (
    <FormDialog
      open
      title={t('dhClones.newVoiceTitle')}
      submitLabel={t('dhClones.submitVoice')}
      submitting={submitting}
      onClose={() => form.send({ type: 'CLOSE' })}
      onSubmit={() => form.send({ type: 'SUBMIT' })}
    >
      <FormField label={t('dhClones.name')} error={err('name')} required>
        <Input
          value={draft.name}
          disabled={submitting}
          autoComplete="off"
          onChange={(e) => edit({ name: e.currentTarget.value })}
        />
      </FormField>
      <FormField label={t('dhClones.gender')} error={err('gender')} required>
        <GenderSelect
          value={draft.gender}
          disabled={submitting}
          onChange={(gender) => edit({ gender })}
          t={t}
        />
      </FormField>
      <MediaSlot
        label={t('dhClones.sample')}
        hint={t('dhClones.sampleHint', {
          min: s.minSeconds,
          max: s.maxSeconds,
          mb: s.maxBytes / 1024 / 1024,
        })}
        type="audio"
        choices={props.area.audios}
        value={draft.audio}
        error={errors.audio_id ?? null}
        disabled={submitting}
        onPick={(audio) => edit({ audio })}
        testId="slot-audio"
      />
      <DialogUploads />
      <Text fontSize="sm" color="fg.muted">
        {t('dhClones.voiceCost')}
      </Text>
      <Refusal error={error} />
    </FormDialog>
  );
}

function GenderSelect(props: {
  value: VoiceGender | '';
  disabled: boolean;
  onChange: (gender: VoiceGender | '') => void;
  t: T;
}) {
  const { t } = props;
  return (
    <NativeSelect.Root disabled={props.disabled}>
      <NativeSelect.Field
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value as VoiceGender | '')}
      >
        <option value="">{t('dhClones.choose')}</option>
        {VOICE_GENDERS.map((g) => (
          <option key={g} value={g}>
            {t(GENDER_LABEL[g])}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

/** A text spoken by a ready voice: type, Listen, and the sample plays. */
function VoicePreviewDialog(props: { area: DigitalHumanClonesActors }) {
  const intl = useIntl();
  const t = useT();
  const preview = props.area.preview;
  const open = useSelector(preview, (s) => s.hasTag('open'));
  const asking = useSelector(preview, (s) => s.hasTag('asking'));
  const voice = useSelector(preview, (s) => s.context.voice);
  const text = useSelector(preview, (s) => s.context.text);
  const invalid = useSelector(preview, (s) => s.context.invalid);
  const error = useSelector(preview, (s) => s.context.error);
  const reply = useSelector(preview, (s) => s.context.reply);
  const close = () => preview.send({ type: 'CLOSE' });
  return (
    <Dialog.Root
      open={open}
      lazyMount
      unmountOnExit
      onOpenChange={(e) => {
        if (!e.open) close();
      }}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="voice-preview">
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                preview.send({ type: 'SPEAK' });
              }}
            >
              <Dialog.Header>
                <Dialog.Title>
                  {voice && t('dhClones.listenTitle', { name: voice.name })}
                </Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <FormField
                    label={t('dhClones.previewText')}
                    error={invalid ? formatText(intl, invalid) : null}
                    helper={t('dhClones.previewTextHint', {
                      count: text.trim().length,
                      max: DH_LIMITS.previewText.max,
                    })}
                  >
                    <Input
                      value={text}
                      autoComplete="off"
                      onChange={(e) => preview.send({ type: 'TEXT', text: e.currentTarget.value })}
                    />
                  </FormField>
                  {reply && (
                    <Stack gap="1">
                      <audio
                        key={reply.url}
                        src={reply.url}
                        controls
                        autoPlay
                        aria-label={t('dhClones.sampleOf', { name: voice?.name ?? '' })}
                        data-testid="voice-preview-audio"
                      />
                      <HStack gap="2">
                        <Text fontSize="sm" color="fg.muted">
                          {t('dhClones.seconds', { seconds: reply.duration.toFixed(1) })}
                        </Text>
                        <DemonstrationLabel show={reply.demonstration} t={t} />
                      </HStack>
                    </Stack>
                  )}
                  <Refusal error={error} />
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={close}>
                  {t('form.close')}
                </Button>
                <Button type="submit" loading={asking} aria-busy={asking}>
                  {t('dhClones.speak')}
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
