import { Button, Card, Heading, SimpleGrid, Stack } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import {
  TASK_RATIOS,
  TASK_RESOLUTIONS,
  editUserConfigBody,
  type UserConfig,
} from '../../api/contract/user-config';
import { useArea } from '../../app/actors/areas';
import { userConfigArea } from '../../app/actors/user-config';
import { useLoadActor } from '../../app/hooks/use-load';
import { useSchemaForm } from '../../app/hooks/use-schema-form';
import { useSubmission } from '../../app/hooks/use-submission';
import { SelectField, SwitchField, UnitTextField } from '../../components/form-fields';
import { LoadFailed } from '../../components/load-failed';
import { LoadingSpinner } from '../../components/loading-spinner';
import { ValidatedForm } from '../../components/validated-form';
import type { MessageId } from '../../i18n/messages';

/**
 * The caller's own settings on /user/setting (docs/domain.md §12 "The caller's own settings"):
 * notifications, the defaults of new video tasks and, for an OEM partner, its mini-program appid.
 * Loaded and saved by the area's actors (src/app/actors/user-config.ts); one schema form over the
 * contract's body.
 */

const FLAGS = [
  ['notify_task_done', 'userConfig.notifyTaskDone'],
  ['notify_clone_done', 'userConfig.notifyCloneDone'],
  ['notify_matrix', 'userConfig.notifyMatrix'],
] as const satisfies readonly (readonly [keyof UserConfig, MessageId])[];

function UserConfigForm(props: { config: UserConfig }) {
  const intl = useIntl();
  const t = (id: MessageId) => intl.formatMessage({ id });
  const area = useArea(userConfigArea);
  const submission = useSubmission(area.edit);
  const { config } = props;
  const form = useSchemaForm(editUserConfigBody, {
    notify_task_done: config.notify_task_done as string,
    notify_clone_done: config.notify_clone_done as string,
    notify_matrix: config.notify_matrix as string,
    default_ratio: config.default_ratio as string,
    default_resolution: config.default_resolution as string,
    mini_appid: config.mini_appid,
  });
  const set = (key: keyof typeof form.values) => (value: string) =>
    form.setValues((v) => ({ ...v, [key]: value }));
  const label = t('userConfig.save');
  return (
    <ValidatedForm
      aria-labelledby="user-config-title"
      onSubmit={async () => {
        const payload = await form.validate();
        if (!payload) return;
        // Only an OEM partner sends the appid (the server refuses it from anyone else).
        if (!config.can_set_mini_appid) delete payload.mini_appid;
        submission.submit(payload);
      }}
    >
      <Card.Root variant="outline">
        <Card.Header>
          <Heading as="h2" size="md" id="user-config-title">
            {t('userConfig.title')}
          </Heading>
        </Card.Header>
        <Card.Body>
          <Stack gap="4">
            {FLAGS.map(([key, id]) => (
              <SwitchField key={key} label={t(id)} value={form.values[key]} onChange={set(key)} />
            ))}
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              <SelectField
                label={t('userConfig.defaultRatio')}
                value={form.values.default_ratio}
                options={TASK_RATIOS.map((r) => ({ value: r, label: r }))}
                onChange={set('default_ratio')}
              />
              <SelectField
                label={t('userConfig.defaultResolution')}
                value={form.values.default_resolution}
                options={TASK_RESOLUTIONS.map((r) => ({ value: r, label: r }))}
                onChange={set('default_resolution')}
              />
            </SimpleGrid>
            {config.can_set_mini_appid && (
              <UnitTextField
                label={t('userConfig.miniAppid')}
                value={form.values.mini_appid}
                helper={t('userConfig.miniAppidHelp')}
                error={form.error('mini_appid')}
                onChange={set('mini_appid')}
              />
            )}
          </Stack>
        </Card.Body>
        <Card.Footer>
          <Button
            type="submit"
            loading={submission.submitting}
            loadingText={label}
            aria-busy={submission.submitting}
          >
            {label}
          </Button>
        </Card.Footer>
      </Card.Root>
    </ValidatedForm>
  );
}

export function UserConfigCard() {
  const intl = useIntl();
  const area = useArea(userConfigArea);
  const { data, failed, reload } = useLoadActor(area.info, { fresh: true });
  if (failed) return <LoadFailed onRetry={reload} />;
  if (!data) return <LoadingSpinner label={intl.formatMessage({ id: 'app.loading' })} />;
  // A new form for each loaded answer (after a save: what the server keeps).
  return <UserConfigForm key={JSON.stringify(data)} config={data} />;
}
