import { Card, Stat } from '@chakra-ui/react';

export function StatCard(props: { label: string; value: string | number; testId?: string }) {
  return (
    <Card.Root size="sm" variant="outline">
      <Card.Body>
        <Stat.Root>
          <Stat.Label>{props.label}</Stat.Label>
          <Stat.ValueText data-testid={props.testId}>{props.value}</Stat.ValueText>
        </Stat.Root>
      </Card.Body>
    </Card.Root>
  );
}
