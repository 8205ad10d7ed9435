import {
  Alert,
  Box,
  Button,
  Fieldset,
  HStack,
  IconButton,
  Image,
  Input,
  NativeSelect,
  Stack,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { Actor } from 'xstate';
import type { VideoTaskEstimate } from '../../api/contract/video-tasks';
import { FormField } from '../../components/form-field';
import { Icon } from '../../components/icons';
import { formatText } from '../../i18n/intl';
import type { Picked, TaskFormMachine } from '../../machines/task-form';
import { formatDuration } from './format';
import { useT } from './use-t';

/** A field's message (a message id of the contract's rules, or a sentence), if any. */
export function useFieldError(errors: Record<string, string>) {
  const intl = useIntl();
  return (path: string): string | null => (errors[path] ? formatText(intl, errors[path]) : null);
}

/** What a view reads of a task-form actor. */
export function useTaskForm<D, B, E = VideoTaskEstimate, R = unknown>(
  actor: Actor<TaskFormMachine<D, B, E, R>>,
) {
  const open = useSelector(actor, (s) => s.matches('open'));
  const draft = useSelector(actor, (s) => s.context.draft);
  const errors = useSelector(actor, (s) => s.context.errors);
  const error = useSelector(actor, (s) => s.context.error);
  const completed = useSelector(actor, (s) => s.context.completed);
  const submitting = useSelector(actor, (s) => s.hasTag('submitting'));
  const confirmingDiscard = useSelector(actor, (s) => s.hasTag('confirmingDiscard'));
  const cancelled = useSelector(actor, (s) => s.context.cancelled);
  const phase = useSelector(actor, (s) =>
    s.hasTag('estimating')
      ? ('estimating' as const)
      : s.matches({ open: { estimate: 'shown' } })
        ? ('shown' as const)
        : s.matches({ open: { estimate: 'failed' } })
          ? ('failed' as const)
          : ('blank' as const),
  );
  const reply = useSelector(actor, (s) => s.context.estimate);
  const estimateError = useSelector(actor, (s) => s.context.estimateError);
  const refused = useSelector(actor, (s) => s.context.estimateRefused);
  const estimate = { phase, reply, error: estimateError, refused };
  const edit = (patch: Partial<D>) => actor.send({ type: 'EDIT', patch });
  return {
    open,
    draft,
    errors,
    error,
    completed,
    submitting,
    estimate,
    edit,
    send: actor.send,
    confirmingDiscard,
    cancelled,
  };
}

export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  helper?: string;
  numeric?: boolean;
  required?: boolean;
  disabled?: boolean;
}) {
  return (
    <FormField
      label={props.label}
      error={props.error ?? null}
      required={props.required}
      {...(props.helper ? { helper: props.helper } : {})}
    >
      <Input
        value={props.value}
        disabled={props.disabled}
        inputMode={props.numeric ? 'decimal' : undefined}
        autoComplete="off"
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </FormField>
  );
}

export function SelectField<V extends string>(props: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  disabled?: boolean;
  helper?: string;
}) {
  return (
    <FormField label={props.label} helper={props.helper}>
      <NativeSelect.Root disabled={props.disabled}>
        <NativeSelect.Field
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value as V)}
        >
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FormField>
  );
}

/** A group of fields; `invalid` when the group itself is refused (a refused submit goes there). */
export function Section(props: { legend: string; invalid?: boolean; children: ReactNode }) {
  return (
    <Fieldset.Root invalid={props.invalid}>
      <Fieldset.Legend fontWeight="semibold">{props.legend}</Fieldset.Legend>
      <Stack gap="3">{props.children}</Stack>
    </Fieldset.Root>
  );
}

/** The picked resources of a slot: a list with a remove button each, and the pick button. */
export function PickedList(props: {
  label: string;
  items: readonly Picked[];
  pickLabel: string;
  onPick: () => void;
  onRemove: (id: number) => void;
  error?: string | null;
  disabled?: boolean;
}) {
  const t = useT();
  return (
    <Stack gap="2" data-invalid={props.error ? '' : undefined}>
      {props.items.length > 0 ? (
        <Wrap as="ul" aria-label={props.label} gap="2" listStyleType="none">
          {props.items.map((p) => (
            <HStack as="li" key={p.id} gap="1" borderWidth="1px" borderRadius="md" paddingX="2">
              {p.cover && <Image src={p.cover} alt="" boxSize="6" objectFit="cover" />}
              <Text fontSize="sm">{p.name}</Text>
              {p.duration !== null && (
                <Text fontSize="xs" color="fg.muted">
                  {formatDuration(p.duration)}
                </Text>
              )}
              <IconButton
                size="2xs"
                variant="ghost"
                disabled={props.disabled}
                aria-label={t('taskForm.remove', { name: p.name })}
                onClick={() => props.onRemove(p.id)}
              >
                <Icon name="close" />
              </IconButton>
            </HStack>
          ))}
        </Wrap>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          {t('taskForm.nonePicked')}
        </Text>
      )}
      {props.error && (
        <Text fontSize="sm" color="fg.error">
          {props.error}
        </Text>
      )}
      <Box>
        <Button size="sm" variant="outline" disabled={props.disabled} onClick={props.onPick}>
          {props.pickLabel}
        </Button>
      </Box>
    </Stack>
  );
}

/** The form's refusal by the server. */
export function FormRefusal(props: { error: string | null }) {
  const intl = useIntl();
  if (!props.error) return null;
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Title>{formatText(intl, props.error)}</Alert.Title>
    </Alert.Root>
  );
}
