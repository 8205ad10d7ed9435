import { Box } from '@chakra-ui/react';

/** A thin progress bar named for what it measures (role progressbar, 0–100). */
export function PercentBar(props: {
  label: string;
  percent: number;
  /** Said instead of the percentage (e.g. "3 of 5 done"). */
  valueText?: string;
  /** The filled part's colour (default blue). */
  fill?: string;
  marginBlock?: string;
}) {
  return (
    <Box
      role="progressbar"
      aria-label={props.label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={props.percent}
      aria-valuetext={props.valueText}
      height="1.5"
      bg="bg.muted"
      borderRadius="full"
      marginBlock={props.marginBlock}
      overflow="hidden"
    >
      <Box height="full" width={`${props.percent}%`} bg={props.fill ?? 'blue.solid'} />
    </Box>
  );
}
