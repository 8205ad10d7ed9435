import { Spinner, type SpinnerProps } from '@chakra-ui/react';

/**
 * A spinner that says what is loading. Chakra's spinner is a bare span: a name on it without a
 * role is refused by assistive tech (axe: aria-prohibited-attr); as a status it is announced.
 */
export function LoadingSpinner(props: SpinnerProps & { label: string }) {
  const { label, ...rest } = props;
  return <Spinner role="status" aria-label={label} {...rest} />;
}
