import {
  Box,
  Button,
  Fieldset,
  HStack,
  IconButton,
  Image,
  Stack,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { Actor } from 'xstate';
import type { VideoTaskEstimate } from '../../api/contract/video-tasks';
export { FormRefusal, SelectField, TextField, useFieldError } from '../../components/form-fields';
import { Icon } from '../../components/icons';
import type { Picked, TaskFormMachine } from '../../machines/task-form';
import { formatDuration } from './format';
import { useT } from './use-t';

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
  // What the estimate prices (the name aside): the body a preview is asked for.
  const priced = useSelector(actor, (s) => s.context.estimateBody);
  const edit = (patch: Partial<D>) => actor.send({ type: 'EDIT', patch });
  return {
    open,
    draft,
    errors,
    error,
    completed,
    submitting,
    estimate,
    priced,
    edit,
    send: actor.send,
    confirmingDiscard,
    cancelled,
  };
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
