import {
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  CloseButton,
  Drawer,
  Fieldset,
  HStack,
  IconButton,
  Input,
  Portal,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { IMITATE_TITLE_MAX } from '../../api/contract/ai-text';
import type { PlanPreview } from '../../api/contract/matrix-plans';
import { TIMEZONES, type MatrixPlansActors } from '../../app/actors/matrix-plans';
import { DateField } from '../../components/date-field';
import { FormField } from '../../components/form-field';
import { Icon } from '../../components/icons';
import { ValidatedForm } from '../../components/validated-form';
import { formatText } from '../../i18n/intl';
import type { PlanDraft, PlanMediaPick } from '../../machines/plan-form';
import {
  FormRefusal,
  PickedList,
  Section,
  SelectField,
  TextField,
  useFieldError,
} from '../shared/form-parts';
import { ResourcePickerDialog } from '../shared/resource-picker-dialog';
import { ScriptPicker } from '../shared/script-picker';
import { addTitleLines, addTopics, topicsOf } from '../shared/script-text';
import { MEDIA_PARAM, parseMediaRefs, useDeepLinkValue } from '../shared/deep-links';
import { useT } from '../shared/use-t';
import { PlanCreationsDialog } from './plan-creations-dialog';
import { formatInZone } from './plan-format';

/**
 * The release plan's form (the area's `form` actor, src/machines/plan-form.ts), new or an edit of
 * a plan not started: a drawer with the plan's name, accounts, videos (library videos from the
 * resource picker, finished creations from their dialog), titles (typed, chosen from AI
 * titles, or from the title scripts), topics (typed or from the topic scripts), location,
 * dates, time slots, posts per day and time zone. "Preview" asks for the schedule (a draft the
 * contract refuses shows its messages and takes the person to the first); the preview shows its
 * first posts in the plan's time zone; "Save" adds the plan (or saves the edit). A "publish" link (`?media=video_output:12`) opens it with those videos chosen.
 */
export function PlanFormDrawer(props: { area: MatrixPlansActors }) {
  const { area } = props;
  useDeepLinkValue(MEDIA_PARAM, (value) => {
    const refs = parseMediaRefs(value);
    if (refs.length > 0) area.form.send({ type: 'OPEN_WITH_MEDIA', refs });
  });
  const open = useSelector(area.form, (s) => s.matches('open') || s.hasTag('resolving'));
  const resolving = useSelector(area.form, (s) => s.hasTag('resolving'));
  const busy = useSelector(area.form, (s) => s.hasTag('busy'));
  const t = useT();
  const close = () => area.form.send({ type: 'CLOSE' });
  return (
    <Drawer.Root
      open={open}
      placement="end"
      size="xl"
      lazyMount
      unmountOnExit
      onOpenChange={(e) => {
        if (!e.open && !busy) close();
      }}
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="plan-form">
            {resolving ? (
              <Drawer.Body>
                <Text role="status">{t('matrixPlans.loadingMedia')}</Text>
              </Drawer.Body>
            ) : (
              open && <PlanForm area={area} />
            )}
            <PlanCreationsDialog area={area} />
            {/* Inside the drawer: the picker is a dialog layered over it (not hidden by it). */}
            <ResourcePickerDialog
              form="plan"
              nested
              actors={{ picker: area.picker, pickerResources: area.pickerResources }}
            />
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} disabled={busy} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

/** A picked video as the picker's list shows it (`id`: the library's id, or its place here). */
const asPicked = (m: PlanMediaPick, id = m.id) => ({
  id,
  name: m.name,
  type: 'video' as const,
  cover: null,
  url: '',
  duration: null,
});

function PlanForm(props: { area: MatrixPlansActors }) {
  const t = useT();
  const { area } = props;
  const form = area.form;
  const draft = useSelector(form, (s) => s.context.draft);
  const editing = useSelector(form, (s) => s.context.planId !== null);
  const errors = useSelector(form, (s) => s.context.errors);
  const refusal = useSelector(form, (s) => s.context.error);
  const busy = useSelector(form, (s) => s.hasTag('busy'));
  const previewing = useSelector(form, (s) => s.hasTag('previewing'));
  const saving = useSelector(form, (s) => s.hasTag('saving'));
  const previewed = useSelector(form, (s) => s.hasTag('previewed'));
  const preview = useSelector(form, (s) => s.context.preview);
  const error = useFieldError(errors);
  const edit = (patch: Partial<PlanDraft>) => form.send({ type: 'EDIT', patch });
  const [topics, setTopics] = useState(draft.topics.join(' '));
  return (
    <ValidatedForm style={{ display: 'contents' }} onSubmit={() => form.send({ type: 'PREVIEW' })}>
      <Drawer.Header>
        <Drawer.Title>
          {t(editing ? 'matrixPlans.editTitle' : 'matrixPlans.formTitle')}
        </Drawer.Title>
      </Drawer.Header>
      <Drawer.Body>
        <Stack gap="5">
          <FormRefusal error={refusal} />
          <TextField
            label={t('matrixPlans.name')}
            required
            value={draft.name}
            disabled={busy}
            error={error('name')}
            onChange={(name) => edit({ name })}
          />
          <AccountPicker area={area} draft={draft} busy={busy} error={error('accounts')} />
          <Section legend={t('matrixPlans.videos')} invalid={Boolean(error('media'))}>
            <PickedList
              label={t('matrixPlans.videos')}
              // Keyed by place: a library video and a creation may share an id.
              items={draft.media.map((m, i) => asPicked(m, i))}
              pickLabel={t('matrixPlans.pickVideos')}
              disabled={busy}
              error={error('media')}
              onPick={() =>
                area.picker.send({
                  type: 'OPEN',
                  slot: { form: 'plan', part: 'media' },
                  types: ['video'],
                  multiple: true,
                  picked: draft.media.filter((m) => m.type === 'resource').map((m) => asPicked(m)),
                })
              }
              onRemove={(place) => edit({ media: draft.media.filter((_, i) => i !== place) })}
            />
            <Box>
              <Button
                size="sm"
                variant="outline"
                disabled={busy}
                onClick={() => form.send({ type: 'OPEN_CREATIONS' })}
              >
                {t('matrixPlans.pickCreations')}
              </Button>
            </Box>
          </Section>
          <TitleEditor area={area} draft={draft} busy={busy} error={error('titles')} />
          <Stack gap="2">
            <TextField
              label={t('matrixPlans.topics')}
              value={topics}
              disabled={busy}
              helper={t('matrixPlans.topicsHelp')}
              error={error('topics')}
              onChange={(text) => {
                setTopics(text);
                edit({ topics: text.split(/[\s,，]+/).filter(Boolean) });
              }}
            />
            <Box>
              <ScriptPicker
                kind="topic"
                field={t('matrixPlans.topics')}
                disabled={busy}
                nested
                onPick={(script) => {
                  const text = addTopics(topics, script);
                  setTopics(text);
                  edit({ topics: topicsOf(text) });
                }}
              />
            </Box>
          </Stack>
          <TextField
            label={t('matrixPlans.location')}
            value={draft.location}
            disabled={busy}
            numeric
            helper={t('matrixPlans.locationHelp')}
            error={error('location')}
            onChange={(location) => edit({ location })}
          />
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
            <FormField label={t('matrixPlans.startDate')} error={error('dates')} required>
              <DateField
                label={t('matrixPlans.startDate')}
                value={draft.startDate}
                disabled={busy}
                onChange={(startDate) => edit({ startDate })}
              />
            </FormField>
            <FormField label={t('matrixPlans.endDate')} required>
              <DateField
                label={t('matrixPlans.endDate')}
                value={draft.endDate}
                disabled={busy}
                onChange={(endDate) => edit({ endDate })}
              />
            </FormField>
          </SimpleGrid>
          <SlotEditor draft={draft} busy={busy} error={error('slots')} onEdit={edit} />
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
            <TextField
              label={t('matrixPlans.dailyMax')}
              required
              numeric
              value={draft.dailyMax}
              disabled={busy}
              helper={t('matrixPlans.dailyMaxHelp')}
              error={error('dailyMax')}
              onChange={(dailyMax) => edit({ dailyMax })}
            />
            <SelectField
              label={t('matrixPlans.timezone')}
              value={draft.timezone}
              disabled={busy}
              options={TIMEZONES.map((z) => ({ value: z, label: z }))}
              onChange={(timezone) => edit({ timezone })}
            />
          </SimpleGrid>
          {preview && <PreviewPanel area={area} preview={preview} timezone={draft.timezone} />}
        </Stack>
      </Drawer.Body>
      <Drawer.Footer>
        <Button variant="outline" disabled={busy} onClick={() => form.send({ type: 'CLOSE' })}>
          {t('form.cancel')}
        </Button>
        <Button
          type="submit"
          variant={previewed ? 'outline' : 'solid'}
          disabled={saving}
          loading={previewing}
          loadingText={t('matrixPlans.preview')}
          aria-busy={previewing}
        >
          {t('matrixPlans.preview')}
        </Button>
        <Button
          type="button"
          disabled={!previewed || previewing}
          loading={saving}
          loadingText={t('matrixPlans.save')}
          aria-busy={saving}
          onClick={() => form.send({ type: 'SAVE' })}
        >
          {t('matrixPlans.save')}
        </Button>
      </Drawer.Footer>
    </ValidatedForm>
  );
}

/** The caller's `normal` accounts, ticked to publish to. */
function AccountPicker(props: {
  area: MatrixPlansActors;
  draft: PlanDraft;
  busy: boolean;
  error: string | null;
}) {
  const t = useT();
  const accounts = useSelector(props.area.accounts, (s) => s.context.data?.list ?? null);
  const failed = useSelector(props.area.accounts, (s) => s.matches('failed'));
  const chosen = props.draft.accountIds;
  const toggle = (id: number) =>
    props.area.form.send({
      type: 'EDIT',
      patch: {
        accountIds: chosen.includes(id) ? chosen.filter((a) => a !== id) : [...chosen, id],
      },
    });
  return (
    <Section legend={t('matrixPlans.accounts')} invalid={Boolean(props.error)}>
      {failed ? (
        <HStack role="alert">
          <Text fontSize="sm">{t('matrixPlans.accountsFailed')}</Text>
          <Button
            size="xs"
            variant="outline"
            onClick={() => props.area.accounts.send({ type: 'RELOAD' })}
          >
            {t('matrixPlans.reload')}
          </Button>
        </HStack>
      ) : accounts === null ? (
        <Text fontSize="sm" role="status">
          {t('matrixPlans.accountsLoading')}
        </Text>
      ) : accounts.length === 0 ? (
        <Text fontSize="sm">{t('matrixPlans.noAccounts')}</Text>
      ) : (
        <Wrap gap="3">
          {accounts.map((a) => (
            <Checkbox.Root
              key={a.id}
              size="sm"
              checked={chosen.includes(a.id)}
              disabled={props.busy}
              onCheckedChange={() => toggle(a.id)}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{a.nickname}</Checkbox.Label>
            </Checkbox.Root>
          ))}
        </Wrap>
      )}
      {props.error && (
        <Text fontSize="sm" color="fg.error">
          {props.error}
        </Text>
      )}
    </Section>
  );
}

/** The titles (typed, or chosen among AI titles made from the typed one). */
function TitleEditor(props: {
  area: MatrixPlansActors;
  draft: PlanDraft;
  busy: boolean;
  error: string | null;
}) {
  const t = useT();
  const { area, draft, busy } = props;
  const [title, setTitle] = useState('');
  const [count, setCount] = useState('5');
  const generating = useSelector(area.form, (s) => s.hasTag('generating'));
  const edit = (titles: string[]) => area.form.send({ type: 'EDIT', patch: { titles } });
  const add = () => {
    const typed = title.trim();
    if (!typed || draft.titles.includes(typed)) return;
    edit([...draft.titles, typed]);
    setTitle('');
  };
  return (
    <Section legend={t('matrixPlans.titles')} invalid={Boolean(props.error)}>
      {draft.titles.length > 0 ? (
        <Stack as="ul" gap="1" aria-label={t('matrixPlans.titles')} listStyleType="none">
          {draft.titles.map((x) => (
            <HStack as="li" key={x} gap="2">
              <Text fontSize="sm">{x}</Text>
              <IconButton
                size="2xs"
                variant="ghost"
                disabled={busy}
                aria-label={t('matrixPlans.removeTitle', { title: x })}
                onClick={() => edit(draft.titles.filter((y) => y !== x))}
              >
                <Icon name="close" />
              </IconButton>
            </HStack>
          ))}
        </Stack>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          {t('matrixPlans.noTitles')}
        </Text>
      )}
      {props.error && (
        <Text fontSize="sm" color="fg.error">
          {props.error}
        </Text>
      )}
      <HStack gap="2" alignItems="flex-end" flexWrap="wrap">
        <Box flex="1" minWidth="48">
          <FormField label={t('matrixPlans.titleInput')} helper={t('matrixPlans.titleHelp')}>
            <Input
              value={title}
              disabled={busy}
              autoComplete="off"
              onChange={(e) => setTitle(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter') return;
                e.preventDefault();
                add();
              }}
            />
          </FormField>
        </Box>
        <Button size="sm" variant="outline" disabled={busy} onClick={add}>
          {t('matrixPlans.addTitle')}
        </Button>
        <ScriptPicker
          kind="title"
          field={t('matrixPlans.titles')}
          disabled={busy}
          nested
          onPick={(script) => edit(addTitleLines(draft.titles, script))}
        />
        <Box minWidth="28">
          <SelectField
            label={t('matrixPlans.aiCount')}
            value={count}
            disabled={busy}
            options={Array.from({ length: IMITATE_TITLE_MAX }, (_, i) => ({
              value: String(i + 1),
              label: String(i + 1),
            }))}
            onChange={setCount}
          />
        </Box>
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          loading={generating}
          loadingText={t('matrixPlans.aiTitles')}
          aria-busy={generating}
          onClick={() =>
            area.form.send({
              type: 'GENERATE',
              request: {
                title: title.trim() || draft.titles[0] || '',
                count: Number(count),
                platform: 'douyin',
              },
            })
          }
        >
          {t('matrixPlans.aiTitles')}
        </Button>
      </HStack>
      <AiSuggestions area={area} busy={busy} />
    </Section>
  );
}

/** The AI titles made (to tick and add), or why none were. */
function AiSuggestions(props: { area: MatrixPlansActors; busy: boolean }) {
  const t = useT();
  const intl = useIntl();
  const { form } = props.area;
  const suggestions = useSelector(form, (s) =>
    s.hasTag('suggestions') ? s.context.suggestions : null,
  );
  const failure = useSelector(form, (s) => (s.hasTag('aiFailed') ? s.context.aiError : null));
  const chosen = useSelector(form, (s) => s.context.chosen);
  if (failure) {
    return (
      <Alert.Root status="error" role="alert" data-testid="ai-titles">
        <Alert.Indicator />
        <Alert.Title flex="1">{formatText(intl, failure)}</Alert.Title>
        <CloseButton
          size="sm"
          aria-label={t('matrix.dismiss')}
          onClick={() => form.send({ type: 'DISMISS' })}
        />
      </Alert.Root>
    );
  }
  if (!suggestions) return null;
  return (
    <Fieldset.Root borderWidth="1px" borderRadius="md" padding="3" data-testid="ai-titles">
      <Fieldset.Legend>
        <HStack gap="2">
          <Text>{t('matrixPlans.aiSuggestions')}</Text>
          {suggestions.demonstration && (
            <Badge size="sm" colorPalette="purple" variant="outline">
              {t('matrixPlans.demonstration')}
            </Badge>
          )}
        </HStack>
      </Fieldset.Legend>
      <Stack gap="2" marginTop="2">
        {suggestions.titles.map((x) => (
          <Checkbox.Root
            key={x}
            size="sm"
            checked={chosen.includes(x)}
            onCheckedChange={() => form.send({ type: 'CHOOSE', title: x })}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{x}</Checkbox.Label>
          </Checkbox.Root>
        ))}
        <HStack gap="2">
          <Button
            size="xs"
            disabled={props.busy || chosen.length === 0}
            onClick={() => form.send({ type: 'ADD' })}
          >
            {t('matrixPlans.addChosen', { count: chosen.length })}
          </Button>
          <Button size="xs" variant="ghost" onClick={() => form.send({ type: 'DISMISS' })}>
            {t('matrixPlans.dismissAi')}
          </Button>
        </HStack>
      </Stack>
    </Fieldset.Root>
  );
}

/** The daily time slots: a list of `HH:mm` with a remove button each, and a field to add one. */
function SlotEditor(props: {
  draft: PlanDraft;
  busy: boolean;
  error: string | null;
  onEdit: (patch: Partial<PlanDraft>) => void;
}) {
  const t = useT();
  const { draft, busy } = props;
  const [slot, setSlot] = useState('');
  const add = () => {
    const typed = slot.trim();
    if (!typed || draft.slots.includes(typed)) return;
    props.onEdit({ slots: [...draft.slots, typed].sort() });
    setSlot('');
  };
  return (
    <Section legend={t('matrixPlans.slots')} invalid={Boolean(props.error)}>
      {draft.slots.length > 0 ? (
        <Wrap as="ul" gap="2" listStyleType="none" aria-label={t('matrixPlans.slots')}>
          {draft.slots.map((s) => (
            <HStack as="li" key={s} gap="1" borderWidth="1px" borderRadius="md" paddingX="2">
              <Text fontSize="sm">{s}</Text>
              <IconButton
                size="2xs"
                variant="ghost"
                disabled={busy}
                aria-label={t('matrixPlans.removeSlot', { slot: s })}
                onClick={() => props.onEdit({ slots: draft.slots.filter((x) => x !== s) })}
              >
                <Icon name="close" />
              </IconButton>
            </HStack>
          ))}
        </Wrap>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          {t('matrixPlans.noSlots')}
        </Text>
      )}
      {props.error && (
        <Text fontSize="sm" color="fg.error">
          {props.error}
        </Text>
      )}
      <HStack gap="2" alignItems="flex-end">
        <Box width="36">
          <FormField label={t('matrixPlans.newSlot')}>
            <Input
              value={slot}
              placeholder="HH:mm"
              disabled={busy}
              autoComplete="off"
              onChange={(e) => setSlot(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter') return;
                e.preventDefault();
                add();
              }}
            />
          </FormField>
        </Box>
        <Button size="sm" variant="outline" disabled={busy} onClick={add}>
          {t('matrixPlans.addSlot')}
        </Button>
      </HStack>
    </Section>
  );
}

/** The schedule the plan would make: its totals and first posts, in the plan's time zone. */
function PreviewPanel(props: { area: MatrixPlansActors; preview: PlanPreview; timezone: string }) {
  const t = useT();
  const intl = useIntl();
  const { preview, timezone } = props;
  const accounts = useSelector(props.area.accounts, (s) => s.context.data?.list ?? null);
  const when = (ms: number | null) => (ms === null ? '—' : formatInZone(intl.locale, timezone, ms));
  const nickname = (id: number) =>
    accounts?.find((a) => a.id === id)?.nickname ?? t('matrixPlans.accountId', { id });
  return (
    <Stack
      as="section"
      gap="2"
      aria-label={t('matrixPlans.previewTitle')}
      borderWidth="1px"
      borderRadius="md"
      padding="3"
      data-testid="plan-preview"
    >
      <Text fontWeight="semibold">{t('matrixPlans.previewTitle')}</Text>
      <Text fontSize="sm">
        {t('matrixPlans.previewSummary', {
          total: intl.formatNumber(preview.total),
          perDay: preview.per_account_day,
          start: when(preview.starts_at),
          end: when(preview.ends_at),
          timezone,
        })}
      </Text>
      <Table.ScrollArea>
        <Table.Root size="sm" aria-label={t('matrixPlans.previewFirst')}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('matrixPlans.scheduledAt')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('matrixPlans.account')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('matrixPlans.video')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('matrixPlans.title')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {preview.first.map((p, i) => (
              <Table.Row key={i}>
                <Table.Cell>{when(p.scheduled_at)}</Table.Cell>
                <Table.Cell>{nickname(p.account_id)}</Table.Cell>
                <Table.Cell>{p.media.name}</Table.Cell>
                <Table.Cell>{p.title}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </Stack>
  );
}
