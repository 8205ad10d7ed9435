import { Button, HStack, Spinner, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { AuditExportBody } from '../../api/contract/audit';
import { useArea } from '../../app/actors/areas';
import { auditArea } from '../../app/actors/audit';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';

/**
 * Export CSV: every row of the current filters (the server streams them all), with its progress in
 * the button and a status line (preparing → downloading n records → started | failed).
 */
export function AuditExport(props: { query: AuditExportBody; count: number }) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const actor = useArea(auditArea).export;
  const state = useSelector(actor, (s) => s.value as string);
  const context = useSelector(actor, (s) => s.context);
  const busy = state === 'requesting' || state === 'downloading';
  const status: Record<string, string | null> = {
    idle: null,
    requesting: t('audit.exportPreparing'),
    downloading: t('audit.exportDownloading', { count: context.count ?? 0 }),
    done: t('audit.exportStarted'),
    failed: context.error ? formatText(intl, context.error) : null,
  };
  return (
    <HStack gap="2">
      <Button
        variant="outline"
        loading={busy}
        loadingText={t('audit.export')}
        aria-busy={busy}
        disabled={props.count === 0}
        onClick={() => actor.send({ type: 'EXPORT', query: props.query, count: props.count })}
      >
        {t('audit.export')}
      </Button>
      <HStack gap="1" role="status" aria-live="polite" data-testid="export-status">
        {busy && <Spinner size="xs" aria-hidden="true" />}
        {status[state] && (
          <Text fontSize="sm" color={state === 'failed' ? 'fg.error' : undefined}>
            {status[state]}
          </Text>
        )}
      </HStack>
    </HStack>
  );
}
