import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useArea } from '../../app/actors/areas';
import { taskPresetsArea } from '../../app/actors/task-presets';
import { FormRefusal, Section, SelectField, TextField } from '../shared/form-parts';
import { useT } from '../shared/use-t';

/**
 * A create form's presets (the mixed-cut drawer's, the clip editor's; docs/domain.md §9
 * "Presets, batches and previews"): start from one of the person's presets, save the form as one
 * (a name), delete one (asked first). The kind's task-presets actor owns every call; this shows
 * its state and sends what the person does.
 */
export function TaskPresetsBar(props: { kind: 'mixed' | 'clip'; disabled?: boolean }) {
  const t = useT();
  const presets = useArea(taskPresetsArea)[props.kind];
  const list = useSelector(presets, (s) => s.context.presets);
  const error = useSelector(presets, (s) => s.context.error);
  const naming = useSelector(presets, (s) => s.hasTag('naming'));
  const confirming = useSelector(presets, (s) => s.hasTag('confirmingDelete'));
  const busy = useSelector(presets, (s) => s.hasTag('busy'));
  const target = useSelector(presets, (s) => s.context.target);
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState('');
  const disabled = props.disabled || busy;
  const chosenPreset = list.find((p) => String(p.id) === chosen);
  const targetName = list.find((p) => p.id === target)?.name ?? '';
  return (
    <Section legend={t('taskPresets.title')}>
      <FormRefusal error={error} />
      <HStack gap="3" alignItems="flex-end" flexWrap="wrap">
        <Box minWidth="56">
          <SelectField
            label={t('taskPresets.choose')}
            value={chosenPreset ? chosen : ''}
            disabled={disabled || list.length === 0}
            options={[
              { value: '', label: t(list.length ? 'taskPresets.none' : 'taskPresets.empty') },
              ...list.map((p) => ({ value: String(p.id), label: p.name })),
            ]}
            onChange={setChosen}
          />
        </Box>
        <Button
          size="sm"
          variant="outline"
          disabled={disabled || !chosenPreset}
          onClick={() => chosenPreset && presets.send({ type: 'APPLY', id: chosenPreset.id })}
        >
          {t('taskPresets.apply')}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          colorPalette="red"
          disabled={disabled || !chosenPreset}
          onClick={() => chosenPreset && presets.send({ type: 'DELETE', id: chosenPreset.id })}
        >
          {t('taskPresets.delete')}
        </Button>
        {!naming && (
          <Button
            size="sm"
            variant="outline"
            disabled={disabled}
            onClick={() => {
              setName(chosenPreset?.name ?? '');
              presets.send({ type: 'SAVE_OPEN' });
            }}
          >
            {t('taskPresets.save')}
          </Button>
        )}
      </HStack>
      {naming && (
        <Stack
          gap="2"
          role="group"
          aria-label={t('taskPresets.save')}
          borderWidth="1px"
          borderRadius="md"
          padding="3"
        >
          <TextField
            label={t('taskPresets.name')}
            value={name}
            required
            disabled={busy}
            helper={t('taskPresets.nameHelp')}
            onChange={setName}
          />
          <HStack gap="2">
            <Button size="sm" loading={busy} onClick={() => presets.send({ type: 'SAVE', name })}>
              {t('taskPresets.saveConfirm')}
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={busy}
              onClick={() => presets.send({ type: 'CANCEL' })}
            >
              {t('form.cancel')}
            </Button>
          </HStack>
        </Stack>
      )}
      {confirming && (
        <Stack
          gap="2"
          role="alertdialog"
          aria-label={t('taskPresets.deleteTitle')}
          borderWidth="1px"
          borderRadius="md"
          padding="3"
        >
          <Text>{t('taskPresets.deleteText', { name: targetName })}</Text>
          <HStack gap="2">
            <Button
              size="sm"
              colorPalette="red"
              loading={busy}
              onClick={() => presets.send({ type: 'CONFIRM' })}
            >
              {t('taskPresets.deleteConfirm')}
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={busy}
              onClick={() => presets.send({ type: 'CANCEL' })}
            >
              {t('form.cancel')}
            </Button>
          </HStack>
        </Stack>
      )}
    </Section>
  );
}
