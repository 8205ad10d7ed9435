import { Stack, Text } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { agreementReaderArea, type LinkedAgreement } from '../../app/actors/agreement-reader';
import { useArea } from '../../app/actors/areas';
import { useLoadActor } from '../../app/hooks/use-load';
import { LoadFailed } from '../../components/load-failed';
import { LoadingSpinner } from '../../components/loading-spinner';
import { ReadingDialog } from '../../components/reading-dialog';
import { StoredHtml } from '../../components/stored-html';

const TITLE = { user: 'agreementDialog.user', privacy: 'agreementDialog.privacy' } as const;

/**
 * An agreement the login or sign-up form links, as it is in force on this domain (docs/domain.md
 * "Articles and agreements"): its stored text, version and effective date. Loaded on the first
 * click of a link (the login page's budget: tests/e2e/bundle.spec.ts).
 */
export function AgreementDialog(props: { kind: LinkedAgreement | null; onClose: () => void }) {
  const intl = useIntl();
  const { kind } = props;
  return (
    <ReadingDialog
      title={kind && intl.formatMessage({ id: TITLE[kind] })}
      testId="agreement-dialog"
      onClose={props.onClose}
    >
      {kind && <AgreementText kind={kind} />}
    </ReadingDialog>
  );
}

/** The version in force, read afresh at each opening. */
function AgreementText(props: { kind: LinkedAgreement }) {
  const intl = useIntl();
  const actor = useArea(agreementReaderArea)[props.kind];
  const { data, loading, failed, reload } = useLoadActor(actor, { fresh: true });
  if (failed) return <LoadFailed onRetry={reload} />;
  if (loading && !data) {
    return <LoadingSpinner label={intl.formatMessage({ id: 'agreementDialog.loading' })} />;
  }
  if (!data) return <Text>{intl.formatMessage({ id: 'agreementDialog.none' })}</Text>;
  return (
    <Stack gap="3">
      <Text fontSize="sm" color="fg.muted">
        {intl.formatMessage(
          { id: 'agreementDialog.version' },
          {
            version: data.version,
            date: intl.formatDate(data.effective_at, { dateStyle: 'medium' }),
          },
        )}
      </Text>
      <StoredHtml html={data.content} />
    </Stack>
  );
}
