import { Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { FormField } from './form-field';

/**
 * A write-only field (docs/domain.md §System init): the input starts empty and never shows the
 * stored value (empty = unchanged), its state reads "configured · ••••last4 · updated at/by", and
 * a value stored here can be cleared by an explicit action (the caller confirms it). `children`
 * replaces the text input (a file picker).
 */
export function SecretField(props: {
  label: string;
  state: string;
  value?: string;
  placeholder?: string;
  error?: string | null;
  onChange?: (value: string) => void;
  /** Shown when a value is stored here: the clear action's accessible name. */
  clearLabel?: string;
  onClear?: () => void;
  disabled?: boolean;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <FormField label={props.label} error={props.error}>
      <Stack gap="1" width="full">
        {props.children ?? (
          <Input
            type="password"
            autoComplete="new-password"
            value={props.value ?? ''}
            placeholder={props.placeholder}
            disabled={props.disabled}
            data-testid={props.testId}
            onChange={(e) => props.onChange?.(e.target.value)}
          />
        )}
        <HStack justify="space-between" gap="2">
          <Text
            fontSize="sm"
            color="fg.muted"
            data-testid={props.testId && `${props.testId}-state`}
          >
            {props.state}
          </Text>
          {props.onClear && props.clearLabel && (
            <Button
              size="xs"
              variant="outline"
              colorPalette="red"
              disabled={props.disabled}
              onClick={props.onClear}
            >
              {props.clearLabel}
            </Button>
          )}
        </HStack>
      </Stack>
    </FormField>
  );
}
