import { Box, Button, chakra, HStack, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { Actor } from 'xstate';
import type { VideoTaskBody } from '../../api/contract/video-tasks';
import { formatText } from '../../i18n/intl';
import type { taskPreviewMachine } from '../../machines/video-tasks/task-preview';
import { useT } from '../shared/use-t';

/** What the panel says, by the machine's state (and the preview's status while it is followed). */
type Shown =
  'idle' | 'asking' | 'queued' | 'rendering' | 'ready' | 'failed' | 'refused' | 'throttled';

/**
 * A task form's preview panel (the mixed-cut drawer, the clip editor): the Preview button sends
 * the form's body as it is (the one the estimate prices) to the form's preview actor
 * (src/machines/video-tasks/task-preview.ts), and the panel shows its state: queued, rendering,
 * the video (it plays with controls), why it failed, a refusal, too many previews. A body with a
 * narration is previewed without a voice (no speech is made for a preview): the panel says so.
 */
export function TaskPreviewPanel(props: {
  actor: Actor<typeof taskPreviewMachine>;
  /** The form's body as it is; null while the form cannot be priced (nothing to preview). */
  body: VideoTaskBody | null;
  disabled: boolean;
}) {
  const t = useT();
  const intl = useIntl();
  const { actor, body } = props;
  const shown = useSelector(actor, (s): Shown => {
    if (s.matches('watching'))
      return s.context.preview?.status === 'rendering' ? 'rendering' : 'queued';
    return s.value as Exclude<Shown, 'queued' | 'rendering'>;
  });
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const preview = useSelector(actor, (s) => s.context.preview);
  const error = useSelector(actor, (s) => s.context.error);
  const asked = useSelector(actor, (s) => s.context.body);
  const stale = shown === 'ready' && JSON.stringify(asked) !== JSON.stringify(body);
  const silent =
    Boolean(body?.narration) || Boolean(preview?.narration_silent && shown === 'ready');
  return (
    <Box
      as="section"
      aria-label={t('taskPreview.title')}
      borderWidth="1px"
      borderRadius="md"
      padding="3"
      data-testid="task-preview"
    >
      <HStack justifyContent="space-between" marginBottom="2">
        <Text fontWeight="semibold">{t('taskPreview.title')}</Text>
        <Button
          size="xs"
          variant="outline"
          disabled={props.disabled || busy || body === null}
          aria-busy={busy}
          onClick={() => body && actor.send({ type: 'PREVIEW', body })}
        >
          {t('taskPreview.preview')}
        </Button>
      </HStack>
      <Stack gap="2">
        <Box aria-live="polite" data-testid="task-preview-state">
          {shown === 'idle' && (
            <Text color="fg.muted" fontSize="sm">
              {t(body === null ? 'taskPreview.blank' : 'taskPreview.hint')}
            </Text>
          )}
          {shown === 'asking' && <Text color="fg.muted">{t('taskPreview.asking')}</Text>}
          {shown === 'queued' && <Text color="fg.muted">{t('taskPreview.queued')}</Text>}
          {shown === 'rendering' && <Text color="fg.muted">{t('taskPreview.rendering')}</Text>}
          {shown === 'ready' && preview && (
            <Text fontSize="sm">
              {t('taskPreview.ready', {
                width: preview.width,
                height: preview.height,
                seconds: preview.duration ?? 0,
              })}
            </Text>
          )}
          {shown === 'failed' && (
            <Text color="fg.error">
              {t('taskPreview.failed', {
                reason: formatText(intl, preview?.reason ?? 'http.requestError'),
              })}
            </Text>
          )}
          {shown === 'refused' && (
            <Text color="fg.error">{formatText(intl, error ?? 'http.requestError')}</Text>
          )}
          {shown === 'throttled' && (
            <Stack gap="1">
              <Text color="fg.error" fontWeight="medium">
                {t('taskPreview.throttled')}
              </Text>
              <Text fontSize="sm">{formatText(intl, error ?? 'http.requestError')}</Text>
            </Stack>
          )}
        </Box>
        {shown === 'ready' && preview?.url && (
          <chakra.video
            key={preview.id}
            controls
            src={preview.url}
            width="full"
            maxHeight="50vh"
            bg="black"
            aspectRatio={`${preview.width} / ${preview.height}`}
            aria-label={t('taskPreview.player')}
            data-testid="task-preview-video"
          />
        )}
        {stale && (
          <Text fontSize="sm" color="fg.muted">
            {t('taskPreview.stale')}
          </Text>
        )}
        {silent && (
          <Text fontSize="sm" color="fg.muted">
            {t('taskPreview.silent')}
          </Text>
        )}
      </Stack>
    </Box>
  );
}
