import {
  Badge,
  Box,
  Button,
  HStack,
  Input,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { LIMITS, SUBTITLE_POSITIONS, VIDEO_TRANSITIONS } from '../../api/contract/video-tasks';
import { useArea } from '../../app/actors/areas';
import { videoTaskFormsArea } from '../../app/actors/video-task-forms';
import { FormField } from '../../components/form-field';
import { parseSrt } from '../shared/srt';
import { lineDrafts, nextKey, picked, type CommonDraft } from '../../machines/task-form';
import { Section, SelectField, TextField, useFieldError } from '../shared/form-parts';
import { useT } from '../shared/use-t';

interface Props {
  draft: CommonDraft;
  errors: Record<string, string>;
  edit: (patch: Partial<CommonDraft>) => void;
  disabled: boolean;
}

const CORNERS = ['top_left', 'top_right', 'bottom_left', 'bottom_right'] as const;

/**
 * The narration (docs/domain.md §9 "Narration"): the script, a voice (mine, then public; a voice
 * of the embedded provider is labelled demonstration), speed, volume, and whether its sentences
 * are the subtitles.
 */
export function NarrationFields(props: Props) {
  const t = useT();
  const area = useArea(videoTaskFormsArea);
  const voices = useSelector(area.voices, (s) => s.context.data);
  const failed = useSelector(area.voices, (s) => s.matches('failed'));
  const error = useFieldError(props.errors);
  const { draft, edit, disabled } = props;
  const chosen = voices?.find((v) => String(v.id) === draft.narrationVoice);
  return (
    <Section legend={t('taskForm.narration')}>
      <FormField
        label={t('taskForm.narrationText')}
        error={error('narration.text')}
        helper={t('taskForm.narrationHelp')}
      >
        <Textarea
          value={draft.narrationText}
          disabled={disabled}
          rows={3}
          onChange={(e) => edit({ narrationText: e.currentTarget.value })}
        />
      </FormField>
      {failed ? (
        <HStack role="alert" gap="2">
          <Text>{t('taskForm.voicesFailed')}</Text>
          <Button size="xs" variant="outline" onClick={() => area.voices.send({ type: 'RELOAD' })}>
            {t('taskForm.estimateRetry')}
          </Button>
        </HStack>
      ) : (
        <SelectField
          label={t('taskForm.narrationVoice')}
          value={draft.narrationVoice}
          disabled={disabled || voices === null}
          error={error('narration.voice_id')}
          options={[
            { value: '', label: t('taskForm.noNarration') },
            ...(voices ?? []).map((v) => ({
              value: String(v.id),
              label: v.scope === 'public' ? t('taskForm.publicVoice', { name: v.name }) : v.name,
            })),
          ]}
          onChange={(narrationVoice) => edit({ narrationVoice })}
        />
      )}
      {chosen?.demonstration && (
        <Box>
          <Badge colorPalette="orange">{t('taskForm.demonstration')}</Badge>
        </Box>
      )}
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="2">
        <TextField
          label={t('taskForm.narrationSpeed')}
          numeric
          value={draft.narrationSpeed}
          disabled={disabled}
          error={error('narration.speed')}
          helper={t('taskForm.range', LIMITS.narrationSpeed)}
          onChange={(narrationSpeed) => edit({ narrationSpeed })}
        />
        <TextField
          label={t('taskForm.narrationVolume')}
          numeric
          value={draft.narrationVolume}
          disabled={disabled}
          error={error('narration.volume')}
          helper={t('taskForm.range', LIMITS.narrationVolume)}
          onChange={(narrationVolume) => edit({ narrationVolume })}
        />
      </SimpleGrid>
      <Switch.Root
        checked={draft.narrationSubtitles}
        disabled={disabled}
        onCheckedChange={(e) => edit({ narrationSubtitles: e.checked })}
      >
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>{t('taskForm.narrationSubtitles')}</Switch.Label>
      </Switch.Root>
    </Section>
  );
}

/**
 * The subtitles' font: the platform's CJK font or one of the person's `font` resources (loaded
 * when the form opens; docs/domain.md §9 "Subtitles"). A font the draft names that the list lacks
 * (a preset's, the list not in yet) stays offered under its name.
 */
function SubtitleFontField(props: Props) {
  const t = useT();
  const area = useArea(videoTaskFormsArea);
  const fonts = useSelector(area.fonts, (s) => s.context.data);
  const failed = useSelector(area.fonts, (s) => s.matches('failed'));
  const { draft, edit, disabled } = props;
  const chosen = draft.subtitleFont;
  const list = fonts ?? [];
  const options = [
    { value: '', label: t('taskForm.platformFont') },
    ...(chosen && !list.some((f) => f.id === chosen.id) ? [chosen] : []).map((f) => ({
      value: String(f.id),
      label: f.name,
    })),
    ...list.map((f) => ({ value: String(f.id), label: f.name })),
  ];
  return (
    <Stack gap="1">
      <SelectField
        label={t('taskForm.subtitleFont')}
        helper={t('taskForm.subtitleFontHelp')}
        value={chosen ? String(chosen.id) : ''}
        disabled={disabled}
        options={options}
        onChange={(id) => {
          const font = list.find((f) => String(f.id) === id);
          edit({ subtitleFont: font ? picked(font) : id ? chosen : null });
        }}
      />
      {failed && (
        <HStack role="alert" gap="2">
          <Text fontSize="sm">{t('taskForm.fontsFailed')}</Text>
          <Button size="xs" variant="outline" onClick={() => area.fonts.send({ type: 'RELOAD' })}>
            {t('taskForm.estimateRetry')}
          </Button>
        </HStack>
      )}
    </Stack>
  );
}

/** The subtitles' position, outline and font, an SRT import and its lines, each editable. */
export function SubtitleStyleFields(props: Props) {
  const t = useT();
  const error = useFieldError(props.errors);
  const { draft, edit, disabled } = props;
  const setLine = (key: number, patch: Partial<CommonDraft['subtitleLines'][number]>) =>
    edit({
      subtitleLines: draft.subtitleLines.map((l) => (l.key === key ? { ...l, ...patch } : l)),
    });
  return (
    <Stack gap="2">
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="2">
        <SelectField
          label={t('taskForm.subtitlePosition')}
          value={draft.subtitlePosition}
          disabled={disabled}
          options={SUBTITLE_POSITIONS.map((p) => ({
            value: p,
            label: t(`taskForm.subtitlePosition.${p}`),
          }))}
          onChange={(subtitlePosition) => edit({ subtitlePosition })}
        />
        <TextField
          label={t('taskForm.subtitleOutline')}
          numeric
          value={draft.subtitleOutline}
          disabled={disabled}
          error={error('subtitles.outline')}
          helper={t('taskForm.range', LIMITS.subtitleOutline)}
          onChange={(subtitleOutline) => edit({ subtitleOutline })}
        />
        <SubtitleFontField {...props} />
      </SimpleGrid>
      <FormField label={t('taskForm.importSrt')} error={error('subtitles.lines')}>
        <Input
          type="file"
          accept=".srt,text/plain"
          disabled={disabled}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (!file) return;
            void file.text().then((text) => edit({ subtitleLines: lineDrafts(parseSrt(text)) }));
          }}
        />
      </FormField>
      {draft.subtitleLines.map((line, i) => {
        const n = i + 1;
        return (
          <HStack key={line.key} gap="2" role="group" aria-label={t('taskForm.lineN', { n })}>
            <TextField
              label={t('taskForm.lineStart', { n })}
              numeric
              value={line.start}
              disabled={disabled}
              error={error(`subtitles.lines.${i}.start`) ?? error(`subtitles.lines.${i}`)}
              onChange={(start) => setLine(line.key, { start })}
            />
            <TextField
              label={t('taskForm.lineEnd', { n })}
              numeric
              value={line.end}
              disabled={disabled}
              error={error(`subtitles.lines.${i}.end`)}
              onChange={(end) => setLine(line.key, { end })}
            />
            <TextField
              label={t('taskForm.lineText', { n })}
              value={line.text}
              disabled={disabled}
              error={error(`subtitles.lines.${i}.text`)}
              onChange={(text) => setLine(line.key, { text })}
            />
            <Button
              size="xs"
              variant="ghost"
              disabled={disabled}
              onClick={() =>
                edit({ subtitleLines: draft.subtitleLines.filter((l) => l.key !== line.key) })
              }
            >
              {t('taskForm.removeLine', { n })}
            </Button>
          </HStack>
        );
      })}
      <Box>
        <Button
          size="sm"
          variant="outline"
          disabled={disabled || draft.subtitleLines.length >= LIMITS.subtitleLines.max}
          onClick={() => {
            const last = draft.subtitleLines.at(-1);
            const start = last ? Number(last.end) || 0 : 0;
            edit({
              subtitleLines: [
                ...draft.subtitleLines,
                {
                  key: nextKey(draft.subtitleLines),
                  start: String(start),
                  end: String(start + 2),
                  text: '',
                },
              ],
            });
          }}
        >
          {t('taskForm.addLine')}
        </Button>
      </Box>
    </Stack>
  );
}

/** Between shots (cut or fade) and a text watermark. */
export function FrameExtraFields(props: Props) {
  const t = useT();
  const error = useFieldError(props.errors);
  const { draft, edit, disabled } = props;
  return (
    <SimpleGrid columns={{ base: 1, sm: 3 }} gap="2">
      <SelectField
        label={t('taskForm.transition')}
        value={draft.transition}
        disabled={disabled}
        options={VIDEO_TRANSITIONS.map((x) => ({ value: x, label: t(`taskForm.transition.${x}`) }))}
        onChange={(transition) => edit({ transition })}
      />
      <TextField
        label={t('taskForm.watermark')}
        value={draft.watermarkText}
        disabled={disabled}
        error={error('watermark.text')}
        onChange={(watermarkText) => edit({ watermarkText })}
      />
      <SelectField
        label={t('taskForm.watermarkCorner')}
        value={draft.watermarkCorner}
        disabled={disabled}
        options={CORNERS.map((c) => ({ value: c, label: t(`taskForm.corner.${c}`) }))}
        onChange={(watermarkCorner) => edit({ watermarkCorner })}
      />
    </SimpleGrid>
  );
}
