import { SimpleGrid } from '@chakra-ui/react';
import { StatCard } from './stat-card';

export interface Stat {
  testId: string;
  label: string;
  value: string | number;
}

/** A responsive grid of figures. */
export function StatGrid(props: { stats: Stat[] }) {
  return (
    <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
      {props.stats.map((s) => (
        <StatCard key={s.testId} testId={s.testId} label={s.label} value={s.value} />
      ))}
    </SimpleGrid>
  );
}
