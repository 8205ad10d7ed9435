import {
  Alert,
  Badge,
  Box,
  Button,
  chakra,
  Checkbox,
  CloseButton,
  Dialog,
  Fieldset,
  HStack,
  IconButton,
  Image,
  Input,
  NativeSelect,
  Portal,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  Wrap,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { Resource, ResourceType } from '../../api/contract/resources';
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
import { useListActor } from '../../app/hooks/use-list';
import { FormField } from '../../components/form-field';
import { Icon } from '../../components/icons';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import type { resourcePickerMachine, PickerSlot } from '../../machines/resource-picker';
import type { ListActor } from '../../app/actors/factories';
import type { ResourceFilters } from '../../app/actors/resources';
import {
  estimateWarnings,
  newTitle,
  type CommonDraft,
  type Picked,
  type TaskFormMachine,
} from '../../machines/task-form';
import type { Actor } from 'xstate';
import { GridPager, GridSkeleton } from './resource-grid';
import { formatDuration } from './resource-format';
import { RESOURCE_TYPE_LABEL } from './upload-drop-zone';

export type T = (id: MessageId, values?: Record<string, string | number>) => string;

export function useT(): T {
  const intl = useIntl();
  return (id, values) => intl.formatMessage({ id }, values);
}

/** A field's message (a message id of the contract's rules, or a sentence), if any. */
export function useFieldError(errors: Record<string, string>) {
  const intl = useIntl();
  return (path: string): string | null => (errors[path] ? formatText(intl, errors[path]) : null);
}

/** What a view reads of a task-form actor. */
export function useTaskForm<D, B, E = VideoTaskEstimate, R = unknown>(
  actor: Actor<TaskFormMachine<D, B, E, R>>,
) {
  const open = useSelector(actor, (s) => s.matches('open'));
  const draft = useSelector(actor, (s) => s.context.draft);
  const errors = useSelector(actor, (s) => s.context.errors);
  const error = useSelector(actor, (s) => s.context.error);
  const completed = useSelector(actor, (s) => s.context.completed);
  const submitting = useSelector(actor, (s) => s.hasTag('submitting'));
  const phase = useSelector(actor, (s) =>
    s.hasTag('estimating')
      ? ('estimating' as const)
      : s.matches({ open: { estimate: 'shown' } })
        ? ('shown' as const)
        : s.matches({ open: { estimate: 'failed' } })
          ? ('failed' as const)
          : ('blank' as const),
  );
  const reply = useSelector(actor, (s) => s.context.estimate);
  const estimateError = useSelector(actor, (s) => s.context.estimateError);
  const estimate = { phase, reply, error: estimateError };
  const edit = (patch: Partial<D>) => actor.send({ type: 'EDIT', patch });
  return { open, draft, errors, error, completed, submitting, estimate, edit, send: actor.send };
}

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

export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  helper?: string;
  numeric?: boolean;
  required?: boolean;
  disabled?: boolean;
}) {
  return (
    <FormField
      label={props.label}
      error={props.error ?? null}
      required={props.required}
      {...(props.helper ? { helper: props.helper } : {})}
    >
      <Input
        value={props.value}
        disabled={props.disabled}
        inputMode={props.numeric ? 'decimal' : undefined}
        autoComplete="off"
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </FormField>
  );
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

export function SelectField<V extends string>(props: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  disabled?: boolean;
  helper?: string;
}) {
  return (
    <FormField label={props.label} helper={props.helper}>
      <NativeSelect.Root disabled={props.disabled}>
        <NativeSelect.Field
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value as V)}
        >
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FormField>
  );
}

export function Section(props: { legend: string; children: ReactNode }) {
  return (
    <Fieldset.Root>
      <Fieldset.Legend fontWeight="semibold">{props.legend}</Fieldset.Legend>
      <Stack gap="3">{props.children}</Stack>
    </Fieldset.Root>
  );
}

/** The picked resources of a slot: a list with a remove button each, and the pick button. */
export function PickedList(props: {
  label: string;
  items: readonly Picked[];
  pickLabel: string;
  onPick: () => void;
  onRemove: (id: number) => void;
  error?: string | null;
  disabled?: boolean;
}) {
  const t = useT();
  return (
    <Stack gap="2">
      {props.items.length > 0 ? (
        <Wrap as="ul" aria-label={props.label} gap="2" listStyleType="none">
          {props.items.map((p) => (
            <HStack as="li" key={p.id} gap="1" borderWidth="1px" borderRadius="md" paddingX="2">
              {p.cover && <Image src={p.cover} alt="" boxSize="6" objectFit="cover" />}
              <Text fontSize="sm">{p.name}</Text>
              {p.duration !== null && (
                <Text fontSize="xs" color="fg.muted">
                  {formatDuration(p.duration)}
                </Text>
              )}
              <IconButton
                size="2xs"
                variant="ghost"
                disabled={props.disabled}
                aria-label={t('taskForm.remove', { name: p.name })}
                onClick={() => props.onRemove(p.id)}
              >
                <Icon name="close" />
              </IconButton>
            </HStack>
          ))}
        </Wrap>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          {t('taskForm.nonePicked')}
        </Text>
      )}
      {props.error && (
        <Text fontSize="sm" color="fg.error">
          {props.error}
        </Text>
      )}
      <Box>
        <Button size="sm" variant="outline" disabled={props.disabled} onClick={props.onPick}>
          {props.pickLabel}
        </Button>
      </Box>
    </Stack>
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

/** The look, the sound and the words: the fields of both task forms (mixed cut and clip). */
export function CommonFields(props: CommonFieldsProps & { form: PickerSlot['form'] }) {
  const pick = usePicker();
  const { form, ...fields } = props;
  return (
    <>
      <LookFields {...fields} />
      <SoundFields
        {...fields}
        onPickMusic={() => pick({ form, part: 'music' }, MUSIC_TYPES, true, props.draft.music)}
      />
      <WordFields {...fields} />
    </>
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

/** Titles (up to 5: text, size, colour, position) and the subtitles. */
function WordFields(props: CommonFieldsProps) {
  const t = useT();
  const error = useFieldError(props.errors);
  const { draft, edit, disabled } = props;
  const setTitle = (key: number, patch: Partial<CommonDraft['titles'][number]>) =>
    edit({ titles: draft.titles.map((x) => (x.key === key ? { ...x, ...patch } : x)) });
  return (
    <>
      <Section legend={t('taskForm.titles')}>
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
      </Section>
    </>
  );
}

/** The live estimate: combinations, outputs, price and balance, with its warnings. */
export function EstimatePanel(props: {
  phase: 'blank' | 'estimating' | 'shown' | 'failed';
  reply: VideoTaskEstimate | null;
  error: string | null;
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
            <Box>
              <Button size="xs" variant="outline" onClick={props.onRetry}>
                {t('taskForm.estimateRetry')}
              </Button>
            </Box>
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
}

function PickerList(props: {
  resources: ListActor<ResourceFilters, Resource>;
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
          <Box minWidth="32">
            <SelectField
              label={t('resources.type')}
              value={applied.type || props.types[0]}
              options={props.types.map((r) => ({ value: r, label: t(RESOURCE_TYPE_LABEL[r]) }))}
              onChange={(type) => list.setFilters({ ...applied, type, keyword })}
            />
          </Box>
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

/** The form's refusal by the server. */
export function FormRefusal(props: { error: string | null }) {
  const intl = useIntl();
  if (!props.error) return null;
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Title>{formatText(intl, props.error)}</Alert.Title>
    </Alert.Root>
  );
}
