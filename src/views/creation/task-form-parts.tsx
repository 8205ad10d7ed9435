import {
  Alert,
  Box,
  Button,
  chakra,
  HStack,
  Input,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import type { ResourceType } from '../../api/contract/resources';
import {
  FRAME_SIZE,
  LIMITS,
  TITLE_POSITIONS,
  VIDEO_FITS,
  VIDEO_RATIOS,
  VIDEO_RESOLUTIONS,
  type VideoTaskEstimate,
} from '../../api/contract/video-tasks';
import { useArea } from '../../app/actors/areas';
import { videoTaskFormsArea } from '../../app/actors/video-task-forms';
import { FormField } from '../../components/form-field';
import { formatText } from '../../i18n/intl';
import type { PickerSlot } from '../../machines/resource-picker';
import {
  estimateWarnings,
  newTitle,
  type CommonDraft,
  type Picked,
  type StickerDraft,
} from '../../machines/task-form';
import { PickedList, Section, SelectField, TextField, useFieldError } from '../shared/form-parts';
import { ScriptPicker } from '../shared/script-picker';
import { appendScript, oneLine } from '../shared/script-text';
import { useT, type T } from '../shared/use-t';
import { FrameExtraFields, NarrationFields, SubtitleStyleFields } from './task-form-narration';

/** Opens the picker for a slot of a form. */
export function usePicker() {
  const area = useArea(videoTaskFormsArea);
  return (
    slot: PickerSlot,
    types: readonly ResourceType[],
    multiple: boolean,
    picked: readonly Picked[],
  ) => area.picker.send({ type: 'OPEN', slot, types, multiple, picked });
}

function ColorField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  disabled: boolean;
}) {
  return (
    <FormField label={props.label} error={props.error}>
      <Input
        type="color"
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </FormField>
  );
}

/** What the fields every task form shares take: the draft, its errors, its edit. */
interface CommonFieldsProps {
  draft: CommonDraft;
  errors: Record<string, string>;
  edit: (patch: Partial<CommonDraft>) => void;
  disabled: boolean;
}

const MUSIC_TYPES = ['bgm', 'audio'] as const;
/** What a sticker may be: a sticker or any image of the library (listed together). */
const STICKER_TYPES = ['sticker', 'image'] as const;

/**
 * The look, the sound, the words and the stickers: the fields of both task forms (mixed cut and
 * clip; docs/domain.md §9 "Frame": stickers and a watermark in both kinds).
 */
export function CommonFields(props: CommonFieldsProps & { form: 'mixed' | 'clip' }) {
  const pick = usePicker();
  const { form, ...fields } = props;
  const stickers = props.draft.stickers.map((s) => s.resource);
  return (
    <>
      <LookFields {...fields} />
      <SoundFields
        {...fields}
        onPickMusic={() => pick({ form, part: 'music' }, MUSIC_TYPES, true, props.draft.music)}
      />
      <NarrationFields {...fields} />
      <WordFields {...fields} nested={form === 'mixed'} />
      <StickerFields
        {...fields}
        onPick={() => pick({ form, part: 'sticker' }, STICKER_TYPES, true, stickers)}
      />
    </>
  );
}

/** Stickers (images of the library, up to 10), each placed by its left, top and width. */
function StickerFields(props: CommonFieldsProps & { onPick: () => void }) {
  const t = useT();
  const error = useFieldError(props.errors);
  const { draft, edit, disabled } = props;
  const setSticker = (key: number, patch: Partial<StickerDraft>) =>
    edit({ stickers: draft.stickers.map((s) => (s.key === key ? { ...s, ...patch } : s)) });
  return (
    <Section legend={t('clipEditor.stickers')}>
      <PickedList
        label={t('clipEditor.stickers')}
        items={draft.stickers.map((s) => s.resource)}
        pickLabel={t('clipEditor.pickStickers', { max: LIMITS.stickers.max })}
        disabled={disabled}
        error={error('stickers')}
        onPick={props.onPick}
        onRemove={(id) => edit({ stickers: draft.stickers.filter((s) => s.resource.id !== id) })}
      />
      {draft.stickers.map((s, i) => (
        <SimpleGrid
          key={s.key}
          columns={{ base: 1, sm: 3 }}
          gap="2"
          role="group"
          aria-label={t('clipEditor.stickerPlace', { name: s.resource.name })}
        >
          {(['x', 'y', 'width'] as const).map((axis) => (
            <TextField
              key={axis}
              label={t(`clipEditor.sticker.${axis}`, { name: s.resource.name })}
              numeric
              value={s[axis]}
              disabled={disabled}
              error={error(`stickers.${i}.${axis}`)}
              onChange={(value) => setSticker(s.key, { [axis]: value })}
            />
          ))}
        </SimpleGrid>
      ))}
    </Section>
  );
}

/** Ratio, resolution, frame rate, bitrate. */
function LookFields(props: CommonFieldsProps) {
  const t = useT();
  const error = useFieldError(props.errors);
  const { draft, edit, disabled } = props;
  return (
    <Section legend={t('taskForm.look')}>
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
        <SelectField
          label={t('taskForm.ratio')}
          value={draft.ratio}
          disabled={disabled}
          options={VIDEO_RATIOS.map((r) => ({ value: r, label: r }))}
          onChange={(ratio) => edit({ ratio })}
        />
        <SelectField
          label={t('taskForm.resolution')}
          value={draft.resolution}
          disabled={disabled}
          options={VIDEO_RESOLUTIONS.map((r) => {
            const { width, height } = FRAME_SIZE[draft.ratio][r];
            return { value: r, label: `${r} (${width}×${height})` };
          })}
          onChange={(resolution) => edit({ resolution })}
        />
        <SelectField
          label={t('taskForm.fit')}
          helper={t('taskForm.fitHelp')}
          value={draft.fit}
          disabled={disabled}
          options={VIDEO_FITS.map((fit) => ({ value: fit, label: t(`taskForm.fit.${fit}`) }))}
          onChange={(fit) => edit({ fit })}
        />
        <TextField
          label={t('taskForm.fps')}
          numeric
          value={draft.fps}
          disabled={disabled}
          error={error('fps')}
          helper={t('taskForm.range', LIMITS.fps)}
          onChange={(fps) => edit({ fps })}
        />
        <TextField
          label={t('taskForm.bitrate')}
          numeric
          value={draft.bitrate}
          disabled={disabled}
          error={error('bitrate')}
          helper={t('taskForm.range', LIMITS.bitrate)}
          onChange={(bitrate) => edit({ bitrate })}
        />
      </SimpleGrid>
      <FrameExtraFields {...props} />
    </Section>
  );
}

/** Music (several), its volume and the original sound. */
function SoundFields(props: CommonFieldsProps & { onPickMusic: () => void }) {
  const t = useT();
  const error = useFieldError(props.errors);
  const { draft, edit, disabled } = props;
  return (
    <Section legend={t('taskForm.sound')}>
      <PickedList
        label={t('taskForm.music')}
        items={draft.music}
        pickLabel={t('taskForm.pickMusic')}
        disabled={disabled}
        onPick={props.onPickMusic}
        onRemove={(id) => edit({ music: draft.music.filter((m) => m.id !== id) })}
      />
      <FormField label={t('taskForm.volume')} error={error('music_volume')}>
        <HStack gap="3">
          <chakra.input
            type="range"
            aria-label={t('taskForm.volume')}
            min={LIMITS.musicVolume.min}
            max={LIMITS.musicVolume.max}
            step={1}
            flex="1"
            value={draft.musicVolume}
            disabled={disabled}
            onChange={(e) => edit({ musicVolume: Number(e.currentTarget.value) })}
          />
          <Text fontSize="sm" minWidth="6" aria-hidden>
            {draft.musicVolume}
          </Text>
        </HStack>
      </FormField>
      <Switch.Root
        checked={draft.keepOriginalSound}
        disabled={disabled}
        onCheckedChange={(e) => edit({ keepOriginalSound: e.checked })}
      >
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>{t('taskForm.keepOriginalSound')}</Switch.Label>
      </Switch.Root>
    </Section>
  );
}

/**
 * Titles (up to 5: text, size, colour, position) and the subtitles; each text may come from the
 * scripts (a title script as one line, spoken copy added to the subtitles).
 */
function WordFields(props: CommonFieldsProps & { nested: boolean }) {
  const t = useT();
  const error = useFieldError(props.errors);
  const { draft, edit, disabled, nested } = props;
  const setTitle = (key: number, patch: Partial<CommonDraft['titles'][number]>) =>
    edit({ titles: draft.titles.map((x) => (x.key === key ? { ...x, ...patch } : x)) });
  return (
    <>
      <Section legend={t('taskForm.titles')} invalid={Boolean(error('titles'))}>
        {draft.titles.map((title, i) => {
          const n = i + 1;
          return (
            <Stack
              key={title.key}
              gap="2"
              borderWidth="1px"
              borderRadius="md"
              padding="3"
              role="group"
              aria-label={t('taskForm.titleN', { n })}
            >
              <TextField
                label={t('taskForm.titleText', { n })}
                value={title.text}
                disabled={disabled}
                error={error(`titles.${i}.text`)}
                onChange={(text) => setTitle(title.key, { text })}
              />
              <Box>
                <ScriptPicker
                  kind="title"
                  field={t('taskForm.titleText', { n })}
                  disabled={disabled}
                  nested={nested}
                  onPick={(text) => setTitle(title.key, { text: oneLine(text) })}
                />
              </Box>
              <SimpleGrid columns={{ base: 1, sm: 3 }} gap="2">
                <TextField
                  label={t('taskForm.titleSize', { n })}
                  numeric
                  value={title.size}
                  disabled={disabled}
                  error={error(`titles.${i}.size`)}
                  onChange={(size) => setTitle(title.key, { size })}
                />
                <ColorField
                  label={t('taskForm.titleColor', { n })}
                  value={title.color}
                  disabled={disabled}
                  error={error(`titles.${i}.color`)}
                  onChange={(color) => setTitle(title.key, { color })}
                />
                <SelectField
                  label={t('taskForm.titlePosition', { n })}
                  value={title.position}
                  disabled={disabled}
                  options={TITLE_POSITIONS.map((p) => ({
                    value: p,
                    label: t(`taskForm.position.${p}`),
                  }))}
                  onChange={(position) => setTitle(title.key, { position })}
                />
              </SimpleGrid>
              <Box>
                <Button
                  size="xs"
                  variant="ghost"
                  disabled={disabled}
                  onClick={() => edit({ titles: draft.titles.filter((x) => x.key !== title.key) })}
                >
                  {t('taskForm.removeTitle', { n })}
                </Button>
              </Box>
            </Stack>
          );
        })}
        {error('titles') && (
          <Text fontSize="sm" color="fg.error">
            {error('titles')}
          </Text>
        )}
        <Box>
          <Button
            size="sm"
            variant="outline"
            disabled={disabled || draft.titles.length >= LIMITS.titles.max}
            onClick={() => edit({ titles: [...draft.titles, newTitle(draft.titles)] })}
          >
            {t('taskForm.addTitle', { max: LIMITS.titles.max })}
          </Button>
        </Box>
      </Section>
      <Section legend={t('taskForm.subtitles')}>
        <FormField
          label={t('taskForm.subtitleText')}
          error={error('subtitles.text')}
          helper={t('taskForm.subtitleHelp')}
        >
          <Textarea
            value={draft.subtitleText}
            disabled={disabled}
            rows={3}
            onChange={(e) => edit({ subtitleText: e.currentTarget.value })}
          />
        </FormField>
        <Box>
          <ScriptPicker
            kind="copy"
            field={t('taskForm.subtitleText')}
            disabled={disabled}
            nested={nested}
            onPick={(text) => edit({ subtitleText: appendScript(draft.subtitleText, text) })}
          />
        </Box>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="2">
          <TextField
            label={t('taskForm.subtitleSize')}
            numeric
            value={draft.subtitleSize}
            disabled={disabled}
            error={error('subtitles.size')}
            onChange={(subtitleSize) => edit({ subtitleSize })}
          />
          <ColorField
            label={t('taskForm.subtitleColor')}
            value={draft.subtitleColor}
            disabled={disabled}
            error={error('subtitles.color')}
            onChange={(subtitleColor) => edit({ subtitleColor })}
          />
        </SimpleGrid>
        <SubtitleStyleFields {...props} />
      </Section>
    </>
  );
}

/** The live estimate: combinations, outputs, price and balance, with its warnings. */
export function EstimatePanel(props: {
  phase: 'blank' | 'estimating' | 'shown' | 'failed';
  reply: VideoTaskEstimate | null;
  error: string | null;
  /** The server refused the draft: no Retry (it would be refused again). */
  refused: boolean;
  onRetry: () => void;
  /** The mixed-cut form shows the combinations; a clip is always one. */
  combinations: boolean;
}) {
  const t = useT();
  const intl = useIntl();
  const { phase, reply } = props;
  return (
    <Box
      as="section"
      aria-label={t('taskForm.estimate')}
      borderWidth="1px"
      borderRadius="md"
      padding="3"
      data-testid="task-estimate"
    >
      <Text fontWeight="semibold" marginBottom="2">
        {t('taskForm.estimate')}
      </Text>
      <Box aria-live="polite">
        {phase === 'blank' && <Text color="fg.muted">{t('taskForm.estimateBlank')}</Text>}
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
          <EstimateFigures reply={reply} combinations={props.combinations} t={t} />
        )}
      </Box>
    </Box>
  );
}

function EstimateFigures(props: { reply: VideoTaskEstimate; combinations: boolean; t: T }) {
  const { reply, t } = props;
  const warn = estimateWarnings(reply);
  const rows: [string, string][] = [
    ...(props.combinations
      ? ([[t('taskForm.combinations'), String(reply.combinations)]] as [string, string][])
      : []),
    [t('taskForm.outputs'), String(reply.outputs)],
    [t('taskForm.length'), lengthText(reply)],
    [t('taskForm.unitCost'), reply.unit_cost],
    [t('taskForm.cost'), reply.cost],
    [t('taskForm.balance'), reply.balance],
    ...(reply.narration
      ? ([
          [t('taskForm.narrationSeconds'), `${reply.narration.seconds} s`],
          [
            t('taskForm.narrationCost'),
            t('taskForm.narrationCostValue', {
              cost: reply.narration.cost,
              balance: reply.narration.balance,
            }),
          ],
        ] as [string, string][])
      : []),
  ];
  return (
    <Stack gap="2">
      <chakra.dl display="grid" gridTemplateColumns="auto 1fr" columnGap="4" rowGap="1">
        {rows.map(([label, value]) => (
          <Box key={label} display="contents">
            <chakra.dt color="fg.muted">{label}</chakra.dt>
            <chakra.dd data-testid={`estimate-${label}`}>{value}</chakra.dd>
          </Box>
        ))}
      </chakra.dl>
      {warn.tooMany && (
        <Alert.Root status="warning" size="sm">
          <Alert.Indicator />
          <Alert.Description>
            {t('taskForm.tooMany', { combinations: reply.combinations, outputs: reply.outputs })}
          </Alert.Description>
        </Alert.Root>
      )}
      {warn.short && (
        <Alert.Root status="warning" size="sm">
          <Alert.Indicator />
          <Alert.Description>
            {t('taskForm.short', { balance: reply.balance, cost: reply.cost })}
          </Alert.Description>
        </Alert.Root>
      )}
    </Stack>
  );
}

const seconds = (s: number) => String(Math.round(s * 10) / 10);
const lengthText = (reply: VideoTaskEstimate) =>
  reply.duration_min === reply.duration_max
    ? `${seconds(reply.duration_min)} s`
    : `${seconds(reply.duration_min)}–${seconds(reply.duration_max)} s`;
