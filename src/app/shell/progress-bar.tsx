import { Box } from '@chakra-ui/react';
import { useEffect, useSyncExternalStore } from 'react';
import { useIntl } from 'react-intl';
import { useNavigation } from 'react-router-dom';
import { PROGRESS, progress } from './progress';

/** Follows route navigations: a pending loader or lazy view starts the bar, idle ends it. */
export function useNavigationProgress() {
  const busy = useNavigation().state !== 'idle';
  useEffect(() => {
    if (!busy) return;
    progress.start();
    return () => progress.done();
  }, [busy]);
}

/** A thin bar at the top of the page, in the brand colour. */
export function ProgressBar() {
  const intl = useIntl();
  const { value } = useSyncExternalStore(progress.subscribe, progress.getSnapshot);
  return (
    <Box
      position="fixed"
      top="0"
      left="0"
      height="2px"
      zIndex="toast"
      bg="brand.solid"
      pointerEvents="none"
      role="progressbar"
      aria-label={intl.formatMessage({ id: 'app.loading' })}
      aria-hidden={value === null}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value === null ? undefined : Math.round(value * 100)}
      data-testid="progress-bar"
      style={{
        width: `${(value ?? 0) * 100}%`,
        opacity: value === null ? 0 : 1,
        transition: `width ${PROGRESS.speed}ms ease, opacity ${PROGRESS.speed}ms linear`,
      }}
    />
  );
}
