import { Alert, Button, Card, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import {
  OVERRIDABLE_KEYS,
  SETTING_GROUPS,
  SETTING_BY_KEY,
  ceilingKey,
  floorKey,
  type SettingGroup,
  type SettingView,
} from '../../api/contract/settings';
import { useArea } from '../../app/actors/areas';
import { platformSettingsArea } from '../../app/actors/platform-settings';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { CheckboxListField, SwitchField, UnitTextField } from '../../components/form-fields';
import { LoadFailed } from '../../components/load-failed';
import { LoadingSpinner } from '../../components/loading-spinner';
import { Page } from '../../components/page';
import { ValidatedForm } from '../../components/validated-form';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import type { FieldProblem } from '../../machines/platform-settings';
import { AuditTimelineLink } from '../shared/audit-link';

/**
 * /account/settings (docs/domain.md §12 "Settings and prices"): the admin's platform settings in
 * groups, each with its unit and range; a partner's price overrides beside the platform's prices.
 * The draft, its checks and the save are the page's machine's (src/machines/platform-settings.ts);
 * the view only selects and sends.
 */

const BASE_KEY = /_(floor|ceiling)$/;

function useLabels() {
  const intl = useIntl();
  const moneyName = useMoneyName();
  const t = (id: string, values?: Record<string, string>) =>
    intl.formatMessage({ id: id as MessageId }, values);
  const label = (key: string): string => {
    const match = BASE_KEY.exec(key);
    if (match && SETTING_BY_KEY.get(key)?.group === 'override') {
      const base = key.replace(BASE_KEY, '');
      return t(`platformSettings.${match[1]}`, { label: label(base) });
    }
    return t(`platformSettings.key.${key}`);
  };
  const unit = (view: SettingView) =>
    view.unit ? t(`platformSettings.unit.${view.unit}`, { moneyName }) : undefined;
  const problem = (p: FieldProblem | undefined) => (p ? t(p.id, p.values) : null);
  return { t, label, unit, problem, intl };
}

export default function SettingsPage() {
  const { form } = useArea(platformSettingsArea);
  const snapshot = useSelector(form, (s) => s);
  const { t, label, unit, problem, intl } = useLabels();
  const title = t('route.accountSettings');

  if (snapshot.matches('failed')) {
    return (
      <Page title={title}>
        <LoadFailed onRetry={() => form.send({ type: 'RELOAD' })} />
      </Page>
    );
  }
  const { config, draft, problems, error } = snapshot.context;
  if (!config) {
    return (
      <Page title={title}>
        <LoadingSpinner label={t('app.loading')} />
      </Page>
    );
  }
  const saving = snapshot.matches('saving');
  const dirty = snapshot.matches({ ready: 'dirty' });
  const edit = (key: string) => (value: string) => form.send({ type: 'EDIT', key, value });
  const byKey = new Map(config.settings.map((s) => [s.key, s]));

  const field = (view: SettingView) => {
    const value = draft[view.key] ?? view.value;
    if (view.kind === 'flag') {
      return (
        <SwitchField
          key={view.key}
          label={label(view.key)}
          value={value}
          disabled={saving}
          onChange={edit(view.key)}
        />
      );
    }
    if (view.kind === 'options' || view.kind === 'keys') {
      return (
        <CheckboxListField
          key={view.key}
          legend={label(view.key)}
          value={value}
          disabled={saving}
          error={problem(problems[view.key])}
          options={(view.options ?? []).map((o) => ({
            value: o,
            label: view.kind === 'keys' ? label(o) : t(`platformSettings.option.${o}`),
          }))}
          onChange={edit(view.key)}
        />
      );
    }
    const partner = config.scope === 'partner';
    const helper = partner
      ? [
          t('platformSettings.platformValue', { value: view.platform_value }),
          view.overridable
            ? t('platformSettings.range', {
                min: view.min ?? '',
                max: view.max ?? '',
                unit: unit(view) ?? '',
              })
            : t('platformSettings.notAllowed'),
          t('platformSettings.applies', { value: view.effective }),
        ].join(' · ')
      : t('platformSettings.range', {
          min: view.min ?? '',
          max: view.max ?? '',
          unit: unit(view) ?? '',
        });
    return (
      <UnitTextField
        key={view.key}
        label={label(view.key)}
        unit={unit(view)}
        value={value}
        placeholder={partner ? view.platform_value : undefined}
        helper={helper}
        error={problem(problems[view.key])}
        disabled={saving || (partner && !view.overridable)}
        inputMode={view.kind === 'money' ? 'decimal' : 'numeric'}
        onChange={edit(view.key)}
      />
    );
  };

  /** The override group: the allowed keys, then each price's floor and ceiling side by side. */
  const overrideFields = () => {
    const keys = byKey.get('partner_override_keys');
    return (
      <Stack gap="4">
        {keys && field(keys)}
        {OVERRIDABLE_KEYS.map((key) => {
          const floor = byKey.get(floorKey(key));
          const ceiling = byKey.get(ceilingKey(key));
          return floor && ceiling ? (
            <SimpleGrid key={key} columns={{ base: 1, md: 2 }} gap="3">
              {field(floor)}
              {field(ceiling)}
            </SimpleGrid>
          ) : null;
        })}
      </Stack>
    );
  };

  const group = (name: SettingGroup) => {
    const views = config.settings.filter((s) => s.group === name);
    if (views.length === 0) return null;
    const id = `settings-group-${name}`;
    return (
      <Card.Root key={name} variant="outline" as="section" aria-labelledby={id}>
        <Card.Header>
          <Heading as="h2" size="md" id={id}>
            {t(`platformSettings.group.${name}`)}
          </Heading>
        </Card.Header>
        <Card.Body>
          {name === 'override' ? (
            overrideFields()
          ) : (
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              {views.map(field)}
            </SimpleGrid>
          )}
        </Card.Body>
      </Card.Root>
    );
  };

  return (
    <Page
      title={title}
      actions={
        <AuditTimelineLink type="platform_config" name={title} size="sm" variant="outline" />
      }
    >
      <ValidatedForm
        aria-label={title}
        onSubmit={() => {
          form.send({ type: 'SAVE' });
        }}
      >
        <Stack gap="4">
          {config.scope === 'partner' && <Text>{t('platformSettings.partnerIntro')}</Text>}
          {SETTING_GROUPS.map(group)}
          {error && (
            <Alert.Root status="error" role="alert">
              <Alert.Indicator />
              <Alert.Title>{formatText(intl, error)}</Alert.Title>
            </Alert.Root>
          )}
          <HStack gap="3">
            <Button
              type="submit"
              disabled={!dirty}
              loading={saving}
              loadingText={t('platformSettings.save')}
              aria-busy={saving}
            >
              {t('platformSettings.save')}
            </Button>
            <Button
              variant="outline"
              disabled={!dirty}
              onClick={() => form.send({ type: 'RESET' })}
            >
              {t('platformSettings.reset')}
            </Button>
          </HStack>
        </Stack>
      </ValidatedForm>
    </Page>
  );
}
