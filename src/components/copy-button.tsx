import { IconButton } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { notify } from './toaster';

/** A small button that copies `text` to the clipboard and says whether it worked. */
export function CopyButton(props: { label: string; text: string }) {
  const intl = useIntl();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      notify('success', intl.formatMessage({ id: 'copy.done' }));
    } catch {
      notify('error', intl.formatMessage({ id: 'copy.failed' }));
    }
  };
  return (
    <IconButton size="2xs" variant="ghost" aria-label={props.label} onClick={() => void copy()}>
      <svg width="14" height="14" viewBox="0 0 24 24" fill="none" aria-hidden="true">
        <path
          d="M9 9h11v11H9zM5 15H4V4h11v1"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </svg>
    </IconButton>
  );
}
