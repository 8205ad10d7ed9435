import { Button, HStack, Spinner, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ExportTicketBody } from '../../api/contract/cards';
import { useArea } from '../../app/actors/areas';
import { cardsArea } from '../../app/actors/cards';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';

/**
 * Export as CSV: the current filter, or the selected cards. Shows its progress in the button and
 * a status line (preparing → downloading n cards → started | failed).
 */
export function CardExport(props: {
  query: ExportTicketBody;
  /** How many cards the export holds (the list's total, or the selection's size). */
  count: number;
  selected: boolean;
}) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const actor = useArea(cardsArea).export;
  const state = useSelector(actor, (s) => s.value as string);
  const context = useSelector(actor, (s) => s.context);
  const busy = state === 'requesting' || state === 'downloading';
  const label = props.selected ? t('cards.exportSelected') : t('cards.export');
  const status: Record<string, string | null> = {
    idle: null,
    requesting: t('cards.exportPreparing'),
    downloading: t('cards.exportDownloading', { count: context.count ?? 0 }),
    done: t('cards.exportStarted'),
    failed: context.error ? formatText(intl, context.error) : null,
  };
  return (
    <HStack gap="2">
      <Button
        variant="outline"
        loading={busy}
        loadingText={label}
        aria-busy={busy}
        disabled={props.count === 0}
        onClick={() => actor.send({ type: 'EXPORT', query: props.query, count: props.count })}
      >
        {label}
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
