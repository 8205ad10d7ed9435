import { Box, Button, chakra, HStack, Image, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { FRAME_SIZE } from '../../api/contract/video-tasks';
import { useArea } from '../../app/actors/areas';
import { videoTaskFormsArea } from '../../app/actors/video-task-forms';
import { TaskPresetsBar } from './task-presets-bar';
import { Page } from '../../components/page';
import { DiscardDialog } from '../../components/discard-dialog';
import { ValidatedForm } from '../../components/validated-form';
import {
  FormRefusal,
  PickedList,
  Section,
  TextField,
  useFieldError,
  useTaskForm,
} from '../shared/form-parts';
import { ResourcePickerDialog } from '../shared/resource-picker-dialog';
import { useT } from '../shared/use-t';
import { EstimatePanel, CommonFields, usePicker } from './task-form-parts';
import { TaskPreviewPanel } from './task-preview';

/** Seconds with one decimal, as typed into the trim fields. */
const tenths = (s: number) => String(Math.round(s * 10) / 10);

/**
 * /creation/mixedshear (hidden; highlights the clip menu): the single-video editor.
 * Pick one video from the library, play it in a frame of the output's shape (cropped to fill it,
 * or whole over a blurred background: the chosen fit), keep a part (start and end fields, set
 * from the player's current time, the kept part drawn on a bar), titles, subtitles, music,
 * stickers, the look, the live estimate; "Create clip" adds a clip task of one output, then the
 * clip list opens.
 */
export default function MixedshearPage() {
  const t = useT();
  const area = useArea(videoTaskFormsArea);
  const form = useTaskForm(area.clip);
  const pick = usePicker();
  const error = useFieldError(form.errors);
  const navigate = useNavigate();
  const player = useRef<HTMLVideoElement>(null);
  const { draft, edit, submitting: busy } = form;

  // A task added: the clip list shows it (the area already told the lists and showed the notice).
  const seen = useRef(form.completed);
  useEffect(() => {
    if (form.completed === seen.current) return;
    seen.current = form.completed;
    void navigate('/creation/clip');
  }, [form.completed, navigate]);
  // Cancelled (after "discard?" when something was entered): back to the clip list.
  const cancels = useRef(form.cancelled);
  useEffect(() => {
    if (form.cancelled === cancels.current) return;
    cancels.current = form.cancelled;
    void navigate('/creation/clip');
  }, [form.cancelled, navigate]);

  const now = () => tenths(player.current?.currentTime ?? 0);
  const video = draft.video;
  const length = video?.duration ?? null;
  const start = Number(draft.start);
  const end = Number(draft.end);
  // The preview has the output's shape and shows the chosen fit (as the render will).
  const frame = FRAME_SIZE[draft.ratio]['720p'];
  const kept = Number.isFinite(start) && Number.isFinite(end) && end > start ? end - start : 0;
  const trimError = error('trim') ?? error('trim.start') ?? error('trim.end');

  return (
    <Page title={t('route.mixedshear')}>
      <ValidatedForm onSubmit={() => form.send({ type: 'SUBMIT' })}>
        <Stack direction={{ base: 'column', lg: 'row' }} gap="6" alignItems="flex-start">
          <Stack gap="5" flex="1" minWidth="0">
            <FormRefusal error={form.error} />
            <TaskPresetsBar kind="clip" disabled={busy} />
            <TextField
              label={t('taskForm.name')}
              required
              value={draft.name}
              disabled={busy}
              error={error('name')}
              onChange={(name) => edit({ name })}
            />
            <Section legend={t('clipEditor.video')}>
              <PickedList
                label={t('clipEditor.video')}
                items={video ? [video] : []}
                pickLabel={t('clipEditor.pickVideo')}
                disabled={busy}
                error={error('resource_id') ? t('clipEditor.videoMissing') : null}
                onPick={() =>
                  pick(
                    { form: 'clip', part: 'video' },
                    ['video', 'intro', 'outro'],
                    false,
                    video ? [video] : [],
                  )
                }
                onRemove={() => edit({ video: null, start: '0', end: '' })}
              />
              {video && (
                <Box
                  role="group"
                  aria-label={t('clipEditor.preview', {
                    ratio: draft.ratio,
                    fit: t(`taskForm.fit.${draft.fit}`),
                  })}
                  position="relative"
                  overflow="hidden"
                  bg="black"
                  marginX="auto"
                  width={`min(100%, calc(50vh * ${frame.width} / ${frame.height}))`}
                  aspectRatio={`${frame.width} / ${frame.height}`}
                >
                  {draft.fit === 'blur' && video.cover && (
                    // The render's blurred background, from the video's poster.
                    <Image
                      src={video.cover}
                      alt=""
                      position="absolute"
                      inset="0"
                      width="full"
                      height="full"
                      objectFit="cover"
                      filter="blur(16px) brightness(0.9)"
                      transform="scale(1.1)"
                      data-testid="clip-preview-blur"
                    />
                  )}
                  <chakra.video
                    ref={player}
                    key={video.id}
                    controls
                    src={video.url}
                    position="relative"
                    width="full"
                    height="full"
                    objectFit={draft.fit === 'blur' ? 'contain' : 'cover'}
                    aria-label={t('resources.player', { name: video.name })}
                    data-testid="clip-player"
                  />
                </Box>
              )}
            </Section>
            <Section legend={t('clipEditor.trim')} invalid={Boolean(trimError)}>
              <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
                <Stack gap="1">
                  <TextField
                    label={t('clipEditor.start')}
                    numeric
                    value={draft.start}
                    disabled={busy}
                    onChange={(value) => edit({ start: value })}
                  />
                  <Box>
                    <Button
                      size="xs"
                      variant="outline"
                      disabled={busy || !video}
                      onClick={() => edit({ start: now() })}
                    >
                      {t('clipEditor.startHere')}
                    </Button>
                  </Box>
                </Stack>
                <Stack gap="1">
                  <TextField
                    label={t('clipEditor.end')}
                    numeric
                    value={draft.end}
                    disabled={busy}
                    onChange={(value) => edit({ end: value })}
                  />
                  <Box>
                    <Button
                      size="xs"
                      variant="outline"
                      disabled={busy || !video}
                      onClick={() => edit({ end: now() })}
                    >
                      {t('clipEditor.endHere')}
                    </Button>
                  </Box>
                </Stack>
              </SimpleGrid>
              <TrimBar start={start} end={end} length={length} />
              <Text data-testid="clip-kept" aria-live="polite">
                {length !== null
                  ? t('clipEditor.keptOf', { kept: tenths(kept), length: tenths(length) })
                  : t('clipEditor.kept', { kept: tenths(kept) })}
              </Text>
              {trimError && (
                <Text fontSize="sm" color="fg.error">
                  {trimError}
                </Text>
              )}
            </Section>
            <CommonFields
              form="clip"
              draft={draft}
              errors={form.errors}
              edit={edit}
              disabled={busy}
            />
          </Stack>
          <Stack width={{ base: 'full', lg: '80' }} gap="3" position={{ lg: 'sticky' }} top="0">
            <EstimatePanel
              {...form.estimate}
              combinations={false}
              onRetry={() => form.send({ type: 'RETRY_ESTIMATE' })}
            />
            <TaskPreviewPanel actor={area.clipPreview} body={form.priced} disabled={busy} />
            <HStack justifyContent="flex-end">
              <Button
                variant="outline"
                disabled={busy}
                onClick={() => form.send({ type: 'CANCEL' })}
              >
                {t('form.cancel')}
              </Button>
              <Button type="submit" loading={busy} loadingText={t('clipEditor.submit')}>
                {t('clipEditor.submit')}
              </Button>
            </HStack>
          </Stack>
        </Stack>
      </ValidatedForm>
      <ResourcePickerDialog form="clip" />
      <DiscardDialog
        open={form.confirmingDiscard}
        onKeep={() => form.send({ type: 'KEEP' })}
        onDiscard={() => form.send({ type: 'DISCARD' })}
      />
    </Page>
  );
}

/** The video's length with the kept part drawn on it (the fields above are the controls). */
function TrimBar(props: { start: number; end: number; length: number | null }) {
  const t = useT();
  const { length } = props;
  if (!length || !Number.isFinite(props.start) || !Number.isFinite(props.end)) return null;
  const at = (s: number) => `${(Math.min(Math.max(s, 0), length) / length) * 100}%`;
  const from = at(props.start);
  const width = `calc(${at(props.end)} - ${from})`;
  return (
    <Box
      role="img"
      aria-label={t('clipEditor.timeline', {
        start: tenths(props.start),
        end: tenths(props.end),
        length: tenths(length),
      })}
      position="relative"
      height="3"
      borderRadius="full"
      bg="bg.muted"
    >
      <Box
        position="absolute"
        insetStart={from}
        width={width}
        top="0"
        bottom="0"
        borderRadius="full"
        bg="colorPalette.solid"
      />
    </Box>
  );
}
