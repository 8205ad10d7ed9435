import { IconButton } from '@chakra-ui/react';
import { lazy, Suspense, useState } from 'react';
import { useIntl } from 'react-intl';
import { Icon } from '../../components/icons';
import { withLaterTheme } from '../routes/lazy';

// The help centre loads on the first click: the navbar carries only the button.
const HelpDrawer = lazy(withLaterTheme(() => import('../../views/help/help-drawer')));

/**
 * The navbar's Help button (docs/domain.md "Articles and agreements"): opens the help centre, a
 * drawer over whatever page is open (no route of its own: the spec's route table has none).
 */
export function HelpButton() {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <IconButton
        variant="ghost"
        size="sm"
        aria-label={intl.formatMessage({ id: 'help.title' })}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <Icon name="help" />
      </IconButton>
      {wanted && (
        <Suspense>
          <HelpDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
