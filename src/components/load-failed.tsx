import { Alert, Button } from '@chakra-ui/react';
import { useIntl } from 'react-intl';

/** Says the page's data could not be loaded, with a retry button. */
export function LoadFailed(props: { onRetry: () => void }) {
  const intl = useIntl();
  return (
    <Alert.Root status="error">
      <Alert.Indicator />
      <Alert.Title>{intl.formatMessage({ id: 'load.failed' })}</Alert.Title>
      <Button size="xs" variant="outline" marginStart="auto" onClick={props.onRetry}>
        {intl.formatMessage({ id: 'load.retry' })}
      </Button>
    </Alert.Root>
  );
}
