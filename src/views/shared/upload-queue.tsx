import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import { useIntl } from 'react-intl';
import { ACCEPTED_EXTENSIONS, MEDIA_KIND } from '../../api/contract/resources';
import { useArea } from '../../app/actors/areas';
import { uploadsArea, type UploadActor, type UploadsActors } from '../../app/actors/uploads';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { percentOf } from '../../machines/upload';
import { formatBytes } from './upload-format';
import { PercentBar } from '../../components/percent-bar';

/** The storage quota and the uploads of this session (and those a reload interrupted). */
export function UploadQueue() {
  const intl = useIntl();
  const uploads = useArea(uploadsArea);
  const items = useSelector(uploads.queue, (s) => s.context.items);
  return (
    <Stack gap="2" data-testid="upload-queue">
      <Quota uploads={uploads} />
      {items.length > 0 && (
        <Box as="ul" aria-label={intl.formatMessage({ id: 'uploads.title' })} listStyleType="none">
          {items.map((item) => (
            <UploadRow key={item.id} id={item.id} actor={item.actor} uploads={uploads} />
          ))}
        </Box>
      )}
    </Stack>
  );
}

function Quota(props: { uploads: UploadsActors }) {
  const intl = useIntl();
  const data = useSelector(props.uploads.quota, (s) => s.context.data);
  if (!data) return null;
  return (
    <Text fontSize="sm" color="fg.muted" data-testid="upload-quota">
      {intl.formatMessage(
        { id: 'uploads.quota' },
        { used: formatBytes(intl, data.used), quota: formatBytes(intl, data.quota) },
      )}
    </Text>
  );
}

function UploadRow(props: { id: string; actor: UploadActor; uploads: UploadsActors }) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { actor, uploads, id } = props;
  const state = useSelector(actor, (s) => String(s.value));
  const name = useSelector(actor, (s) => s.context.file.name);
  const size = useSelector(actor, (s) => s.context.file.size);
  const percent = useSelector(actor, (s) => percentOf(s.context));
  const rate = useSelector(actor, (s) => s.context.rate);
  const failure = useSelector(actor, (s) => s.context.failure);
  const mismatch = useSelector(actor, (s) => s.context.mismatch);
  const resourceType = useSelector(actor, (s) => s.context.resourceType);
  const again = useRef<HTMLInputElement>(null);

  const pct = intl.formatNumber(percent / 100, { style: 'percent' });
  const status = ((): string => {
    switch (state) {
      case 'queued':
        return t('uploads.queued');
      case 'requesting':
        return t('uploads.requesting');
      case 'uploading':
        return rate === null
          ? t('uploads.uploading', { percent: pct })
          : t('uploads.uploadingAt', { percent: pct, speed: formatBytes(intl, rate, true) });
      case 'paused':
        return t('uploads.paused', { percent: pct });
      case 'finishing':
        return t('uploads.finishing');
      case 'done':
        return t('uploads.done');
      case 'failed':
        return t('uploads.failed', { reason: formatText(intl, failure?.msg ?? 'uploads.lost') });
      case 'refused':
        return t('uploads.refusedBy', {
          reason: formatText(intl, failure?.msg ?? 'uploads.refused'),
        });
      case 'cancelled':
        return t('uploads.cancelled');
      case 'interrupted':
        return t('uploads.interrupted', { percent: pct });
      default:
        return '';
    }
  })();

  const button = (label: MessageId, named: MessageId, onClick: () => void) => (
    <Button
      key={label}
      size="xs"
      variant="outline"
      aria-label={t(named, { name })}
      onClick={onClick}
    >
      {t(label)}
    </Button>
  );
  const send = (type: 'PAUSE' | 'RESUME' | 'CANCEL' | 'RETRY') => () => actor.send({ type });
  const cancel = button('uploads.cancelShort', 'uploads.cancel', send('CANCEL'));
  const remove = button('uploads.removeShort', 'uploads.remove', () =>
    uploads.send({ type: 'REMOVE', id }),
  );
  const actions = (() => {
    switch (state) {
      case 'uploading':
        return [button('uploads.pauseShort', 'uploads.pause', send('PAUSE')), cancel];
      case 'paused':
        return [button('uploads.resumeShort', 'uploads.resume', send('RESUME')), cancel];
      case 'failed':
        return [button('uploads.retryShort', 'uploads.retry', send('RETRY')), cancel];
      case 'queued':
      case 'requesting':
        return [cancel];
      case 'interrupted':
        return [
          button('uploads.chooseAgainShort', 'uploads.chooseAgain', () => again.current?.click()),
          cancel,
        ];
      case 'done':
      case 'refused':
      case 'cancelled':
        return [remove];
      default:
        return [];
    }
  })();
  const alert = state === 'failed' || state === 'refused';
  const showBar = !['done', 'refused', 'cancelled'].includes(state);

  return (
    <Box as="li" borderBottomWidth="1px" paddingBlock="2" data-testid="upload-item">
      <HStack justify="space-between" gap="3" wrap="wrap">
        <Text fontWeight="medium" truncate>
          {name}
        </Text>
        <Text fontSize="sm" color="fg.muted">
          {formatBytes(intl, size)}
        </Text>
      </HStack>
      {showBar && (
        <PercentBar
          label={t('uploads.progressOf', { name })}
          percent={percent}
          valueText={pct}
          fill="colorPalette.solid"
          marginBlock="1"
        />
      )}
      <HStack justify="space-between" gap="3" wrap="wrap">
        <Text
          fontSize="sm"
          role={alert ? 'alert' : 'status'}
          color={alert ? 'fg.error' : 'fg.muted'}
        >
          {status}
        </Text>
        <HStack gap="2">{actions}</HStack>
      </HStack>
      {state === 'interrupted' && (
        <>
          <Text fontSize="sm" color="fg.muted">
            {mismatch ? t('uploads.notSameFile', { name }) : t('uploads.chooseAgainHint')}
          </Text>
          <input
            ref={again}
            type="file"
            hidden
            accept={ACCEPTED_EXTENSIONS[MEDIA_KIND[resourceType]].join(',')}
            aria-label={t('uploads.chooseAgainFile', { name })}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file) uploads.send({ type: 'CHOOSE_AGAIN', id, file });
              e.currentTarget.value = '';
            }}
          />
        </>
      )}
    </Box>
  );
}
