import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { useAppActors } from '../actors/actors-context';

/** The branding's name for money (docs/domain.md §2: it labels every amount on screen). */
export function useMoneyName(): string {
  const intl = useIntl();
  const { branding } = useAppActors();
  const name = useSelector(branding, (s) => s.context.info?.money_name);
  return name || intl.formatMessage({ id: 'stats.defaultMoneyName' });
}
