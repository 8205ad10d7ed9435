import {
  Badge,
  Box,
  Button,
  chakra,
  CloseButton,
  DataList,
  Drawer,
  HStack,
  Link,
  Portal,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { VideoOutput, VideoTask, VideoTaskKind } from '../../api/contract/video-tasks';
import type { VideoTasksActors } from '../../app/actors/video-tasks';
import { canCancel, canRetry } from '../../app/actors/video-tasks';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { formatDateTime } from '../../components/dates';
import { LoadFailed } from '../../components/load-failed';
import { formatMoney } from '../shared/amounts';
import { formatBytes } from '../shared/upload-format';
import { formatSeconds, wholePercent } from '../shared/format';
import { PublishLink } from '../shared/publish-link';
import { OUTPUT_STATUS_LABEL, OUTPUT_STATUS_PALETTE } from './video-task-format';
import {
  DownloadAllLink,
  QueueSpot,
  TaskProgress,
  TaskStatusTag,
  useT,
  type T,
} from './video-task-parts';
import { PercentBar } from '../../components/percent-bar';

/** One output: status, progress, reason, facts, the combination, the player and the download. */
function OutputItem(props: { output: VideoOutput; taskName: string; t: T }) {
  const { output: o, t } = props;
  const intl = useIntl();
  const title = t('videoTasks.outputTitle', { index: o.index });
  return (
    <Box
      as="li"
      borderWidth="1px"
      borderRadius="md"
      padding="3"
      data-testid="task-output"
      aria-label={title}
    >
      <Stack gap="2">
        <HStack justify="space-between" gap="2" wrap="wrap">
          <Text fontWeight="medium">{title}</Text>
          <Badge colorPalette={OUTPUT_STATUS_PALETTE[o.status]} data-testid="output-status">
            {t(OUTPUT_STATUS_LABEL[o.status])}
          </Badge>
        </HStack>
        {o.status === 'rendering' && (
          <PercentBar
            label={t('videoTasks.outputProgress', { index: o.index })}
            percent={wholePercent(o.progress)}
          />
        )}
        {o.status === 'failed' && (
          <Stack gap="1">
            <Text color="fg.error" data-testid="output-reason">
              {o.reason ?? t('videoTasks.noReason')}
            </Text>
            {o.reason_detail && (
              <chakra.details fontSize="xs">
                <chakra.summary cursor="pointer">{t('videoTasks.reasonDetail')}</chakra.summary>
                <chakra.pre whiteSpace="pre-wrap" wordBreak="break-all" marginTop="1">
                  {o.reason_detail}
                </chakra.pre>
              </chakra.details>
            )}
          </Stack>
        )}
        <DataList.Root orientation="horizontal" size="sm">
          <DataList.Item>
            <DataList.ItemLabel>{t('videoTasks.duration')}</DataList.ItemLabel>
            <DataList.ItemValue>
              {t('videoTasks.seconds', { seconds: formatSeconds(o.duration) })}
            </DataList.ItemValue>
          </DataList.Item>
          {o.size !== null && (
            <DataList.Item>
              <DataList.ItemLabel>{t('videoTasks.size')}</DataList.ItemLabel>
              <DataList.ItemValue>{formatBytes(intl, o.size)}</DataList.ItemValue>
            </DataList.Item>
          )}
          {o.width !== null && o.height !== null && (
            <DataList.Item>
              <DataList.ItemLabel>{t('videoTasks.frame')}</DataList.ItemLabel>
              <DataList.ItemValue>{`${o.width}×${o.height}`}</DataList.ItemValue>
            </DataList.Item>
          )}
          <DataList.Item>
            <DataList.ItemLabel>{t('videoTasks.combination')}</DataList.ItemLabel>
            <DataList.ItemValue data-testid="output-combination">
              {o.combination.map((c) => c.name).join(' → ')}
            </DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
        {o.status === 'done' && o.url && (
          <chakra.video
            controls
            preload="none"
            src={o.url}
            poster={o.poster ?? undefined}
            aria-label={t('videoTasks.player', { index: o.index, name: props.taskName })}
            width="full"
            maxHeight="64"
            bg="black"
            borderRadius="sm"
          />
        )}
        <QueueSpot spot={o} t={t} />
        {o.status === 'done' && o.download_url && (
          <Link
            href={o.download_url}
            download
            fontSize="sm"
            aria-label={t('videoTasks.downloadOf', { index: o.index, name: props.taskName })}
          >
            {t('videoTasks.download')}
          </Link>
        )}
      </Stack>
    </Box>
  );
}

/** The task's summary at the drawer's top: status, progress, money, times. */
function TaskSummary(props: { task: VideoTask; t: T }) {
  const { task, t } = props;
  const moneyName = useMoneyName();
  const money = (amount: string) => `${formatMoney(amount)} ${moneyName}`;
  return (
    <Stack gap="2">
      <HStack gap="2" wrap="wrap">
        <TaskStatusTag status={task.status} t={t} />
        {task.stalled && <Badge colorPalette="yellow">{t('videoTasks.stalled')}</Badge>}
      </HStack>
      <TaskProgress task={task} t={t} />
      <DataList.Root orientation="horizontal" size="sm">
        <DataList.Item>
          <DataList.ItemLabel>{t('videoTasks.costFrozen')}</DataList.ItemLabel>
          <DataList.ItemValue>{money(task.cost)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t('videoTasks.settled')}</DataList.ItemLabel>
          <DataList.ItemValue>{money(task.settled)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t('videoTasks.refunded')}</DataList.ItemLabel>
          <DataList.ItemValue>{money(task.refunded)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t('videoTasks.format')}</DataList.ItemLabel>
          <DataList.ItemValue>{`${task.ratio} · ${task.resolution}`}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t('videoTasks.created')}</DataList.ItemLabel>
          <DataList.ItemValue>{formatDateTime(task.created_at)}</DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
    </Stack>
  );
}

/**
 * The open task of a kind (its detail actor in the video tasks area): every output with its
 * player and download, the task's Retry failed and Cancel (confirmed in the list's dialogs), and
 * Publish (its finished outputs in a new release plan).
 * While the task runs the area's watch brings newer copies of it; this view only selects them.
 */
export function VideoTaskDrawer(props: {
  kind: VideoTaskKind;
  detail: ReturnType<VideoTasksActors['detail']>;
  onRetry: (task: VideoTask) => void;
  onCancel: (task: VideoTask) => void;
  /** Fills the create form with the task's body (docs/domain.md §9); absent: not offered. */
  onDuplicate?: (task: VideoTask) => void;
}) {
  const t = useT();
  const { detail } = props;
  const open = useSelector(detail, (s) => s.hasTag('open'));
  const loading = useSelector(detail, (s) => s.hasTag('loading'));
  const failed = useSelector(detail, (s) => s.matches('failed'));
  const data = useSelector(detail, (s) => s.context.data);
  const close = () => detail.send({ type: 'CLOSE' });
  const task = data;
  return (
    <Drawer.Root
      open={open}
      placement="end"
      size="md"
      onOpenChange={(e) => {
        if (!e.open) close();
      }}
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="task-drawer">
            <Drawer.Header>
              <Drawer.Title>{task ? task.name : t('videoTasks.detailTitle')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {failed ? (
                <LoadFailed onRetry={() => detail.send({ type: 'RELOAD' })} />
              ) : !task ? (
                <Stack gap="3" aria-busy="true" aria-label={t('videoTasks.loadingDetail')}>
                  <Skeleton height="6" />
                  <Skeleton height="24" />
                </Stack>
              ) : (
                <Stack gap="4" aria-busy={loading}>
                  <TaskSummary task={task} t={t} />
                  <HStack gap="2">
                    {canRetry(task) && (
                      <Button size="sm" onClick={() => props.onRetry(task)}>
                        {t('videoTasks.retryFailed')}
                      </Button>
                    )}
                    {canCancel(task) && (
                      <Button size="sm" variant="outline" onClick={() => props.onCancel(task)}>
                        {t('videoTasks.cancelTask')}
                      </Button>
                    )}
                    <DownloadAllLink task={task} t={t} size="sm" />
                    {props.onDuplicate && (
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => {
                          close();
                          props.onDuplicate?.(task);
                        }}
                      >
                        {t('videoTasks.duplicate')}
                      </Button>
                    )}
                    {/* Its finished outputs in a new release plan (docs/domain.md §20). */}
                    <PublishLink
                      size="sm"
                      variant="outline"
                      name={task.name}
                      refs={task.outputs
                        .filter((o) => o.status === 'done')
                        .map((o) => ({ type: 'video_output' as const, id: o.id }))}
                    />
                  </HStack>
                  <chakra.ul
                    listStyleType="none"
                    display="flex"
                    flexDirection="column"
                    gap="3"
                    aria-label={t('videoTasks.outputs')}
                  >
                    {task.outputs.map((o) => (
                      <OutputItem key={o.id} output={o} taskName={task.name} t={t} />
                    ))}
                  </chakra.ul>
                </Stack>
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
