import { Box, Heading, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A routed page: its title as the page's heading, then its content. */
export function Page(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="4" as="section" aria-label={props.title}>
      <Box display="flex" alignItems="center" justifyContent="space-between" gap="4">
        <Heading as="h1" size="lg">
          {props.title}
        </Heading>
        {props.actions}
      </Box>
      {props.children}
    </Stack>
  );
}
