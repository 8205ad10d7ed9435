import {
  Alert,
  Box,
  Button,
  chakra,
  HStack,
  Image,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import {
  DH_LIMITS,
  estimateSpeechSeconds,
  type DhVideoEstimate,
  type ImageClone,
  type VoiceClone,
} from '../../api/contract/digital-human';
import { useArea } from '../../app/actors/areas';
import { dhVideosArea, type DhVideosActors } from '../../app/actors/digital-human-videos';
import { FormField } from '../../components/form-field';
import { Page } from '../../components/page';
import { DiscardDialog } from '../../components/discard-dialog';
import { ValidatedForm } from '../../components/validated-form';
import { formatText } from '../../i18n/intl';
import {
  SPEED_STEP,
  VOLUME_STEP,
  type DhVideoDraft,
  type PickedAvatar,
  type PickedVoice,
} from '../../machines/digital-human/video-form';
import {
  FormRefusal,
  PickedList,
  Section,
  TextField,
  useFieldError,
  useTaskForm,
} from '../shared/form-parts';
import { ResourcePickerDialog } from '../shared/resource-picker-dialog';
import { ScriptPicker } from '../shared/script-picker';
import { appendScript } from '../shared/script-text';
import { formatDhTime } from '../shared/dh-time';
import { useT, type T } from '../shared/use-t';
import { DemoBadge } from './dh-video-parts';
import { TemplateChoice } from './template-choice';

const MUSIC_TYPES = ['bgm', 'audio'] as const;

const avatarOf = (c: ImageClone): PickedAvatar => ({
  id: c.id,
  name: c.name,
  cover: c.cover,
  preview_url: c.preview_url,
  demonstration: c.demonstration,
});
const voiceOf = (v: VoiceClone): PickedVoice => ({
  id: v.id,
  name: v.name,
  scope: v.scope,
  gender: v.gender,
  demo_url: v.demo_url,
});

/**
 * /digital-human/create-video (hidden; highlights the video menu): the digital-human video form
 * (docs/domain.md §10). Name (default `数字人_YYYYMMDD HHmm`), text with its character count
 * and estimated length, avatar (ready image clones, with poster and loop), voice (mine and public,
 * with the demo and a preview of the text), speed, volume, subtitles, music, folder, template
 * (cards with their layout drawn: template-choice.tsx); the live estimate of seconds and cost
 * against the balance; "Create video" adds it, then the video list shows it queued.
 */
export default function CreateVideoPage() {
  const t = useT();
  const area = useArea(dhVideosArea);
  const form = useTaskForm(area.form);
  const error = useFieldError(form.errors);
  const navigate = useNavigate();
  const { draft, edit, submitting: busy } = form;

  // Added: the list shows it (the area already showed the notice and reloaded the list).
  const seen = useRef(form.completed);
  useEffect(() => {
    if (form.completed === seen.current) return;
    seen.current = form.completed;
    void navigate('/digital-human/digital-video');
  }, [form.completed, navigate]);
  // Cancelled (after "discard?" when something was entered): back to the video list.
  const cancels = useRef(form.cancelled);
  useEffect(() => {
    if (form.cancelled === cancels.current) return;
    cancels.current = form.cancelled;
    void navigate('/digital-human/digital-video');
  }, [form.cancelled, navigate]);

  return (
    <Page title={t('route.createVideo')}>
      <ValidatedForm onSubmit={() => form.send({ type: 'SUBMIT' })}>
        <Stack direction={{ base: 'column', lg: 'row' }} gap="6" alignItems="flex-start">
          <Stack gap="5" flex="1" minWidth="0">
            <FormRefusal error={form.error} />
            <TextField
              label={t('dhVideoForm.name')}
              required
              value={draft.name}
              disabled={busy}
              error={error('name')}
              onChange={(name) => edit({ name })}
            />
            <SpeechText draft={draft} error={error('text')} busy={busy} edit={edit} t={t} />
            <AvatarPicker
              area={area}
              draft={draft}
              error={error('avatar_id') ? t('dhVideoForm.avatarMissing') : null}
              busy={busy}
              edit={edit}
              t={t}
            />
            <VoicePicker
              area={area}
              draft={draft}
              error={error('voice_id') ? t('dhVideoForm.voiceMissing') : null}
              busy={busy}
              edit={edit}
              t={t}
            />
            <SoundFields draft={draft} errors={form.errors} busy={busy} edit={edit} t={t} />
            <Section legend={t('dhVideoForm.music')}>
              <PickedList
                label={t('dhVideoForm.music')}
                items={draft.music ? [draft.music] : []}
                pickLabel={t('dhVideoForm.pickMusic')}
                disabled={busy}
                onPick={() =>
                  area.picker.send({
                    type: 'OPEN',
                    slot: { form: 'dhVideo', part: 'music' },
                    types: MUSIC_TYPES,
                    multiple: false,
                    picked: draft.music ? [draft.music] : [],
                  })
                }
                onRemove={() => edit({ music: null })}
              />
            </Section>
            <PlaceFields
              area={area}
              draft={draft}
              error={error('folder_id') ? t('dhVideoForm.folderMissing') : null}
              busy={busy}
              edit={edit}
              t={t}
            />
            <TemplateChoice
              value={draft.templateId}
              disabled={busy}
              onChange={(templateId) => edit({ templateId })}
              t={t}
            />
          </Stack>
          <Stack width={{ base: 'full', lg: '80' }} gap="3" position={{ lg: 'sticky' }} top="0">
            <DhEstimatePanel
              {...form.estimate}
              onRetry={() => form.send({ type: 'RETRY_ESTIMATE' })}
              t={t}
            />
            <HStack justifyContent="flex-end">
              <Button
                variant="outline"
                disabled={busy}
                onClick={() => form.send({ type: 'CANCEL' })}
              >
                {t('form.cancel')}
              </Button>
              <Button type="submit" loading={busy} loadingText={t('dhVideoForm.submit')}>
                {t('dhVideoForm.submit')}
              </Button>
            </HStack>
          </Stack>
        </Stack>
      </ValidatedForm>
      <ResourcePickerDialog form="dhVideo" actors={area} />
      <DiscardDialog
        open={form.confirmingDiscard}
        onKeep={() => form.send({ type: 'KEEP' })}
        onDiscard={() => form.send({ type: 'DISCARD' })}
      />
    </Page>
  );
}

interface PartProps {
  draft: DhVideoDraft;
  busy: boolean;
  edit: (patch: Partial<DhVideoDraft>) => void;
  t: T;
}

/** The text (typed, or spoken copy from the scripts) with its live character count and length. */
function SpeechText(props: PartProps & { error: string | null }) {
  const { draft, t } = props;
  const characters = draft.text.trim().length;
  const seconds = characters > 0 ? estimateSpeechSeconds(draft.text.trim(), draft.speed) : 0;
  return (
    <Stack gap="2">
      <FormField label={t('dhVideoForm.text')} required error={props.error}>
        <Textarea
          value={draft.text}
          disabled={props.busy}
          rows={6}
          onChange={(e) => props.edit({ text: e.currentTarget.value })}
        />
        <Text
          fontSize="sm"
          color={characters > DH_LIMITS.text.max ? 'fg.error' : 'fg.muted'}
          aria-live="polite"
          data-testid="dh-text-count"
        >
          {t('dhVideoForm.textCount', { count: characters, max: DH_LIMITS.text.max, seconds })}
        </Text>
      </FormField>
      <Box>
        <ScriptPicker
          kind="copy"
          field={t('dhVideoForm.text')}
          disabled={props.busy}
          onPick={(text) => props.edit({ text: appendScript(draft.text, text) })}
        />
      </Box>
    </Stack>
  );
}

/** The ready avatars (image clones) as a choice of posters; the chosen one's loop plays. */
function AvatarPicker(props: PartProps & { area: DhVideosActors; error: string | null }) {
  const { area, draft, t } = props;
  const avatars = useSelector(area.avatars, (s) => s.context.data);
  const failed = useSelector(area.avatars, (s) => s.matches('failed'));
  const chosen = draft.avatar;
  return (
    <Section legend={t('dhVideoForm.avatar')} invalid={Boolean(props.error)}>
      {failed ? (
        <HStack role="alert" gap="2">
          <Text>{t('dhVideoForm.avatarsFailed')}</Text>
          <Button size="xs" variant="outline" onClick={() => area.avatars.send({ type: 'RELOAD' })}>
            {t('myCreation.retry')}
          </Button>
        </HStack>
      ) : avatars === null ? (
        <Text role="status" color="fg.muted">
          {t('dhVideos.loading')}
        </Text>
      ) : avatars.length === 0 ? (
        <Text color="fg.muted">{t('dhVideoForm.noAvatars')}</Text>
      ) : (
        <SimpleGrid
          role="radiogroup"
          aria-label={t('dhVideoForm.avatar')}
          minChildWidth="28"
          gap="2"
        >
          {avatars.map((a) => {
            const on = chosen?.id === a.id;
            return (
              <chakra.label
                key={a.id}
                display="flex"
                flexDirection="column"
                gap="1"
                borderWidth="2px"
                borderRadius="md"
                padding="1"
                cursor="pointer"
                borderColor={on ? 'colorPalette.solid' : 'border'}
              >
                <Box aspectRatio={9 / 16} maxHeight="40" bg="bg.muted" overflow="hidden">
                  {a.cover && (
                    <Image src={a.cover} alt="" width="100%" height="100%" objectFit="cover" />
                  )}
                </Box>
                <HStack gap="1">
                  <input
                    type="radio"
                    name="dh-avatar"
                    checked={on}
                    disabled={props.busy}
                    onChange={() => props.edit({ avatar: avatarOf(a) })}
                  />
                  <Text fontSize="sm" truncate>
                    {a.name}
                  </Text>
                </HStack>
              </chakra.label>
            );
          })}
        </SimpleGrid>
      )}
      {props.error && (
        <Text fontSize="sm" color="fg.error">
          {props.error}
        </Text>
      )}
      {chosen && (
        <Stack gap="1">
          {chosen.preview_url && (
            <chakra.video
              key={chosen.id}
              src={chosen.preview_url}
              poster={chosen.cover ?? undefined}
              autoPlay
              loop
              muted
              playsInline
              controls
              maxHeight="60"
              width="auto"
              alignSelf="flex-start"
              bg="black"
              aria-label={t('dhVideoForm.avatarLoop', { name: chosen.name })}
            />
          )}
          {chosen.demonstration && (
            <Box>
              <DemoBadge t={t} />
            </Box>
          )}
        </Stack>
      )}
    </Section>
  );
}

/** The voices (mine, then public) with the chosen one's demo and a preview of the text. */
function VoicePicker(props: PartProps & { area: DhVideosActors; error: string | null }) {
  const { area, draft, t } = props;
  const intl = useIntl();
  const voices = useSelector(area.voices, (s) => s.context.data);
  const failed = useSelector(area.voices, (s) => s.matches('failed'));
  const previewing = useSelector(area.preview, (s) => s.hasTag('loading'));
  const preview = useSelector(area.preview, (s) => s.context);
  const all = voices ? [...voices.mine, ...voices.public] : [];
  const chosen = draft.voice;
  const sample =
    draft.text.trim().slice(0, DH_LIMITS.previewText.max) || t('dhVideoForm.previewSample');
  const previewUrl =
    chosen && preview.voiceId === chosen.id && preview.reply ? preview.reply.url : null;
  return (
    <Section legend={t('dhVideoForm.voice')}>
      {failed ? (
        <HStack role="alert" gap="2">
          <Text>{t('dhVideoForm.voicesFailed')}</Text>
          <Button size="xs" variant="outline" onClick={() => area.voices.send({ type: 'RELOAD' })}>
            {t('myCreation.retry')}
          </Button>
        </HStack>
      ) : (
        <FormField label={t('dhVideoForm.voiceChoice')} required error={props.error}>
          <NativeSelect.Root disabled={props.busy || voices === null}>
            <NativeSelect.Field
              value={chosen ? String(chosen.id) : ''}
              onChange={(e) => {
                const v = all.find((x) => String(x.id) === e.currentTarget.value);
                props.edit({ voice: v ? voiceOf(v) : null });
              }}
            >
              <option value="">{t('dhVideoForm.chooseVoice')}</option>
              {voices && voices.mine.length > 0 && (
                <optgroup label={t('dhVideoForm.myVoices')}>
                  {voices.mine.map((v) => (
                    <option key={v.id} value={v.id}>
                      {v.name}
                    </option>
                  ))}
                </optgroup>
              )}
              {voices && voices.public.length > 0 && (
                <optgroup label={t('dhVideoForm.publicVoices')}>
                  {voices.public.map((v) => (
                    <option key={v.id} value={v.id}>
                      {v.name}
                    </option>
                  ))}
                </optgroup>
              )}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
      )}
      {chosen && (
        <Stack gap="2">
          {chosen.demo_url && (
            <chakra.audio
              key={chosen.id}
              controls
              src={chosen.demo_url}
              aria-label={t('dhVideoForm.voiceDemo', { name: chosen.name })}
            />
          )}
          <Box>
            <Button
              size="sm"
              variant="outline"
              loading={previewing}
              disabled={props.busy}
              onClick={() =>
                area.preview.send({ type: 'PREVIEW', voiceId: chosen.id, text: sample })
              }
            >
              {t('dhVideoForm.preview')}
            </Button>
          </Box>
          {previewUrl && (
            <chakra.audio
              key={previewUrl}
              controls
              autoPlay
              src={previewUrl}
              aria-label={t('dhVideoForm.previewOf', { name: chosen.name })}
              data-testid="dh-voice-preview"
            />
          )}
          {preview.error && preview.voiceId === chosen.id && (
            <Text fontSize="sm" color="fg.error" role="alert">
              {formatText(intl, preview.error)}
            </Text>
          )}
        </Stack>
      )}
    </Section>
  );
}

/** Speed, volume and subtitles. */
function SoundFields(props: PartProps & { errors: Record<string, string> }) {
  const { draft, t } = props;
  const error = useFieldError(props.errors);
  const range = (
    key: 'speed' | 'volume',
    label: string,
    limits: { min: number; max: number },
    step: number,
  ) => (
    <FormField label={label} error={error(key)}>
      <HStack gap="3">
        <chakra.input
          type="range"
          aria-label={label}
          min={limits.min}
          max={limits.max}
          step={step}
          flex="1"
          value={draft[key]}
          disabled={props.busy}
          onChange={(e) => props.edit({ [key]: Number(e.currentTarget.value) })}
        />
        <Text fontSize="sm" minWidth="8" aria-hidden>
          {draft[key].toFixed(1)}
        </Text>
      </HStack>
    </FormField>
  );
  return (
    <Section legend={t('dhVideoForm.sound')}>
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
        {range('speed', t('dhVideoForm.speed'), DH_LIMITS.speed, SPEED_STEP)}
        {range('volume', t('dhVideoForm.volume'), DH_LIMITS.volume, VOLUME_STEP)}
      </SimpleGrid>
      <Switch.Root
        checked={draft.subtitles}
        disabled={props.busy}
        onCheckedChange={(e) => props.edit({ subtitles: e.checked })}
      >
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>{t('dhVideoForm.subtitles')}</Switch.Label>
      </Switch.Root>
    </Section>
  );
}

/** The folder (a resource group, required). */
function PlaceFields(props: PartProps & { area: DhVideosActors; error: string | null }) {
  const { area, draft, t } = props;
  const folders = useSelector(area.folders, (s) => s.context.data?.list ?? null);
  return (
    <Section legend={t('dhVideoForm.place')}>
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
        <FormField label={t('dhVideoForm.folder')} required error={props.error}>
          <NativeSelect.Root disabled={props.busy}>
            <NativeSelect.Field
              value={draft.folderId === null ? '' : String(draft.folderId)}
              onChange={(e) =>
                props.edit({
                  folderId: e.currentTarget.value ? Number(e.currentTarget.value) : null,
                })
              }
            >
              <option value="">{t('dhVideoForm.chooseFolder')}</option>
              {(folders ?? []).map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
      </SimpleGrid>
      {folders !== null && folders.length === 0 && (
        <Text fontSize="sm" color="fg.muted">
          {t('dhVideoForm.noFolders')}
        </Text>
      )}
    </Section>
  );
}

/** The live estimate: characters, seconds, cost against the balance (digital-human seconds). */
function DhEstimatePanel(props: {
  phase: 'blank' | 'estimating' | 'shown' | 'failed';
  reply: DhVideoEstimate | null;
  error: string | null;
  refused: boolean;
  onRetry: () => void;
  t: T;
}) {
  const { phase, reply, t } = props;
  const intl = useIntl();
  return (
    <Box
      as="section"
      aria-label={t('dhVideoForm.estimate')}
      borderWidth="1px"
      borderRadius="md"
      padding="3"
      data-testid="dh-estimate"
    >
      <Text fontWeight="semibold" marginBottom="2">
        {t('dhVideoForm.estimate')}
      </Text>
      <Box aria-live="polite">
        {phase === 'blank' && <Text color="fg.muted">{t('dhVideoForm.estimateBlank')}</Text>}
        {phase === 'estimating' && <Text color="fg.muted">{t('taskForm.estimating')}</Text>}
        {phase === 'failed' && (
          <Stack gap="2">
            <Text color="fg.error">{formatText(intl, props.error ?? 'http.requestError')}</Text>
            {/* A refusal of the draft would be refused again: an edit asks anew. */}
            {props.refused ? (
              <Text fontSize="sm" color="fg.muted">
                {t('taskForm.estimateRefusedHint')}
              </Text>
            ) : (
              <Box>
                <Button size="xs" variant="outline" onClick={props.onRetry}>
                  {t('taskForm.estimateRetry')}
                </Button>
              </Box>
            )}
          </Stack>
        )}
        {phase === 'shown' && reply && (
          <Stack gap="2">
            <chakra.dl display="grid" gridTemplateColumns="auto 1fr" columnGap="4" rowGap="1">
              {(
                [
                  ['characters', t('dhVideoForm.characters'), String(reply.characters)],
                  ['seconds', t('dhVideoForm.seconds'), String(reply.seconds)],
                  ['unit', t('dhVideoForm.unitCost'), String(reply.unit_cost)],
                  ['cost', t('dhVideoForm.cost'), formatDhTime(t, reply.cost)],
                  ['balance', t('dhVideoForm.balance'), formatDhTime(t, reply.balance)],
                ] as const
              ).map(([key, label, value]) => (
                <Box key={key} display="contents">
                  <chakra.dt color="fg.muted">{label}</chakra.dt>
                  <chakra.dd data-testid={`dh-estimate-${key}`}>{value}</chakra.dd>
                </Box>
              ))}
            </chakra.dl>
            {reply.balance < reply.cost && (
              <Alert.Root status="warning" size="sm">
                <Alert.Indicator />
                <Alert.Description>
                  {t('dhVideoForm.short', {
                    balance: formatDhTime(t, reply.balance),
                    cost: formatDhTime(t, reply.cost),
                  })}
                </Alert.Description>
              </Alert.Root>
            )}
          </Stack>
        )}
      </Box>
    </Box>
  );
}
