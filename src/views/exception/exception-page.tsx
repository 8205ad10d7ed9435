import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';

const TEXT = { 403: 'exception.403', 404: 'exception.404', 500: 'exception.500' } as const;

/** Exception pages of docs/domain.md §15 (also the not-found page). */
export function ExceptionPage(props: { status: 403 | 404 | 500 }) {
  const intl = useIntl();
  const navigate = useNavigate();
  return (
    <Stack as="section" align="center" justify="center" gap="4" paddingY="20" textAlign="center">
      <Heading as="h1" size="4xl" color="brand.fg">
        {props.status}
      </Heading>
      <Text fontSize="lg">{intl.formatMessage({ id: TEXT[props.status] })}</Text>
      <Button onClick={() => navigate('/')}>{intl.formatMessage({ id: 'exception.back' })}</Button>
    </Stack>
  );
}

export const Exception403 = () => <ExceptionPage status={403} />;
export const Exception404 = () => <ExceptionPage status={404} />;
export const Exception500 = () => <ExceptionPage status={500} />;
