import { IconButton, Input, InputGroup, type InputProps } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';

/** A password box with a show/hide button. */
export function PasswordInput(props: InputProps) {
  const intl = useIntl();
  const [visible, setVisible] = useState(false);
  return (
    <InputGroup
      endElement={
        <IconButton
          variant="ghost"
          size="xs"
          aria-label={intl.formatMessage({
            id: visible ? 'form.hidePassword' : 'form.showPassword',
          })}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          <svg
            width="16"
            height="16"
            viewBox="0 0 24 24"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" />
            <circle cx="12" cy="12" r="3" />
            {visible && <line x1="3" y1="3" x2="21" y2="21" />}
          </svg>
        </IconButton>
      }
    >
      <Input {...props} type={visible ? 'text' : 'password'} />
    </InputGroup>
  );
}
