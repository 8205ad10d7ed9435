import { Alert, Button } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';

/**
 * A partner on /promotion/partner: partners are the platform's to create and manage, so the list
 * holds none for it. Says so, and where its own details and partner settings are.
 */
export function PartnerSelfNote() {
  const intl = useIntl();
  return (
    <Alert.Root status="info" alignItems="center">
      <Alert.Indicator />
      <Alert.Description flex="1">
        {intl.formatMessage({ id: 'customers.partnerSelfNote' })}
      </Alert.Description>
      <Button asChild size="xs" variant="outline">
        <RouterLink to="/user/info">
          {intl.formatMessage({ id: 'customers.partnerSelfLink' })}
        </RouterLink>
      </Button>
    </Alert.Root>
  );
}
