import { Button, Text } from '@chakra-ui/react';
import { lazy, Suspense, useState } from 'react';
import { useIntl } from 'react-intl';
import type { LinkedAgreement } from '../../app/actors/agreement-reader';
import { withLaterTheme } from '../../app/routes/lazy';
import type { MessageId } from '../../i18n/messages';

// The reading dialog (and the call behind it) loads on the first click only.
const AgreementDialog = lazy(
  withLaterTheme(() => import('./agreement-dialog').then((m) => ({ default: m.AgreementDialog }))),
);

/**
 * "By logging in (registering) you agree to the User agreement and the Privacy policy": each a
 * button that opens the version in force on this domain (docs/domain.md "Articles and agreements").
 */
export function AgreementLinks(props: { sentence: MessageId }) {
  const intl = useIntl();
  const [shown, setShown] = useState<LinkedAgreement | null>(null);
  const [wanted, setWanted] = useState(false);
  const link = (kind: LinkedAgreement, label: MessageId) => (
    <Button
      key={kind}
      variant="plain"
      size="xs"
      height="auto"
      paddingX="0"
      minWidth="0"
      verticalAlign="baseline"
      color="brand.fg"
      aria-haspopup="dialog"
      onClick={() => {
        setWanted(true);
        setShown(kind);
      }}
    >
      {intl.formatMessage({ id: label })}
    </Button>
  );
  return (
    <>
      <Text fontSize="xs" color="fg.muted" textAlign="center">
        {intl.formatMessage(
          { id: props.sentence },
          {
            user: link('user', 'agreementLink.user'),
            privacy: link('privacy', 'agreementLink.privacy'),
          },
        )}
      </Text>
      {wanted && (
        <Suspense>
          <AgreementDialog kind={shown} onClose={() => setShown(null)} />
        </Suspense>
      )}
    </>
  );
}
