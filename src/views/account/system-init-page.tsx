import {
  Alert,
  Button,
  Card,
  Dialog,
  Heading,
  HStack,
  Input,
  Portal,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import {
  INIT_CONFIG_FIELDS,
  INIT_CONFIG_GROUPS,
  type CertKind,
  type InitConfigGroup,
  type InitFieldSpec,
} from '../../api/contract/init-config';
import { useArea } from '../../app/actors/areas';
import { initConfigArea, type InitConfigGroupActor } from '../../app/actors/init-config';
import { formatDateTime } from '../../components/dates';
import { FormField } from '../../components/form-field';
import { LoadingSpinner } from '../../components/loading-spinner';
import { Page } from '../../components/page';
import { SecretField } from '../../components/secret-field';
import { ValidatedForm } from '../../components/validated-form';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { secretStateOf } from '../../machines/init-config-group';
import { AuditTimelineLink } from '../shared/audit-link';
import { useT, type T } from '../shared/use-t';

/**
 * /account/system-init (admin): one card per settings group (docs/domain.md §System init), each on
 * its own group actor of the system init area: the fields (secrets write-only, with their state
 * and a confirmed clear), save, the WeChat Pay files' upload and the connection test with its
 * result. The view selects and sends.
 */
export default function SystemInitPage() {
  const t = useT();
  const area = useArea(initConfigArea);
  return (
    <Page
      title={t('route.systemInit')}
      actions={
        <AuditTimelineLink
          type="init_config"
          name={t('route.systemInit')}
          size="sm"
          variant="outline"
        />
      }
    >
      <Text color="fg.muted">{t('initConfig.intro')}</Text>
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="4">
        {INIT_CONFIG_GROUPS.map((group) => (
          <GroupCard key={group} group={group} actor={area[group]} />
        ))}
      </SimpleGrid>
    </Page>
  );
}

const GROUP_LABEL: Record<InitConfigGroup, MessageId> = {
  wechat_pay: 'initConfig.group.wechat_pay',
  mini_program: 'initConfig.group.mini_program',
  storage: 'initConfig.group.storage',
  douyin: 'initConfig.group.douyin',
  sms: 'initConfig.group.sms',
  ai_text: 'initConfig.group.ai_text',
};

const FIELD_LABEL: Record<string, MessageId> = {
  mch_id: 'initConfig.field.mch_id',
  apiv3_key: 'initConfig.field.apiv3_key',
  serial_no: 'initConfig.field.serial_no',
  private_key: 'initConfig.field.private_key',
  certificate: 'initConfig.field.certificate',
  appid: 'initConfig.field.appid',
  app_secret: 'initConfig.field.app_secret',
  endpoint: 'initConfig.field.endpoint',
  region: 'initConfig.field.region',
  bucket: 'initConfig.field.bucket',
  access_key: 'initConfig.field.access_key',
  secret_key: 'initConfig.field.secret_key',
  cdn_base: 'initConfig.field.cdn_base',
  client_key: 'initConfig.field.client_key',
  client_secret: 'initConfig.field.client_secret',
  redirect_uri: 'initConfig.field.redirect_uri',
  access_key_id: 'initConfig.field.access_key_id',
  access_key_secret: 'initConfig.field.access_key_secret',
  sign_name: 'initConfig.field.sign_name',
  template_code: 'initConfig.field.template_code',
  base_url: 'initConfig.field.base_url',
  api_key: 'initConfig.field.api_key',
  model: 'initConfig.field.model',
  timeout_seconds: 'initConfig.field.timeout_seconds',
};

/** A write-only field's state line. */
function stateText(t: T, state: ReturnType<typeof secretStateOf>): string {
  if (!state?.configured) return t('initConfig.secret.unset');
  if (state.source === 'environment') return t('initConfig.secret.environment');
  const at = state.updated_at === null ? '' : formatDateTime(state.updated_at);
  const by = state.updated_by ?? '';
  return state.last4
    ? t('initConfig.secret.set', { last4: state.last4, at, by })
    : t('initConfig.secret.setShort', { at, by });
}

function GroupCard(props: { group: InitConfigGroup; actor: InitConfigGroupActor }) {
  const { group, actor } = props;
  const t = useT();
  const intl = useIntl();
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const testing = useSelector(actor, (s) => s.matches({ ready: 'testing' }));
  const confirming = useSelector(actor, (s) => s.matches({ ready: 'confirmingClear' }));
  const { saved, draft, errors, error, test, clearing } = useSelector(actor, (s) => s.context);
  const title = t(GROUP_LABEL[group]);
  const headingId = `init-config-${group}`;
  const errorText = (id: string | undefined) => (id ? t(id as MessageId) : null);

  const field = (spec: InitFieldSpec) => {
    const label = t(FIELD_LABEL[spec.key]);
    const testId = `init-${group}-${spec.key}`;
    if (spec.type === 'secret' || spec.type === 'file') {
      const state = secretStateOf(saved, spec.key);
      const clearable = state?.source === 'settings';
      return (
        <SecretField
          key={spec.key}
          label={label}
          state={stateText(t, state)}
          value={draft[spec.key]}
          placeholder={t('initConfig.secret.placeholder')}
          error={errorText(errors[spec.key])}
          onChange={(value) => actor.send({ type: 'EDIT', key: spec.key, value })}
          clearLabel={clearable ? t('initConfig.clear', { field: label }) : undefined}
          onClear={clearable ? () => actor.send({ type: 'ASK_CLEAR', key: spec.key }) : undefined}
          disabled={busy}
          testId={testId}
        >
          {spec.type === 'file' ? (
            <Input
              type="file"
              accept=".pem,application/x-pem-file"
              aria-label={t('initConfig.upload', { field: label })}
              disabled={busy}
              data-testid={testId}
              p="1"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) actor.send({ type: 'UPLOAD', kind: spec.key as CertKind, file });
                e.target.value = '';
              }}
            />
          ) : undefined}
        </SecretField>
      );
    }
    return (
      <FormField
        key={spec.key}
        label={label}
        error={errorText(errors[spec.key])}
        helper={
          spec.type === 'int'
            ? t('initConfig.range', { min: spec.min!, max: spec.max! })
            : undefined
        }
      >
        <Input
          value={draft[spec.key] ?? ''}
          inputMode={spec.type === 'int' ? 'numeric' : spec.type === 'url' ? 'url' : undefined}
          disabled={busy}
          data-testid={testId}
          onChange={(e) => actor.send({ type: 'EDIT', key: spec.key, value: e.target.value })}
        />
      </FormField>
    );
  };

  return (
    <Card.Root
      variant="outline"
      as="section"
      aria-labelledby={headingId}
      data-testid={`init-${group}`}
    >
      <Card.Header>
        <Heading as="h2" size="md" id={headingId}>
          {title}
        </Heading>
      </Card.Header>
      <Card.Body>
        {loading && <LoadingSpinner label={t('initConfig.loading')} />}
        {failed && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>{t('initConfig.loadFailed')}</Alert.Title>
            <Button size="xs" ms="auto" onClick={() => actor.send({ type: 'RETRY' })}>
              {t('initConfig.retry')}
            </Button>
          </Alert.Root>
        )}
        {saved && (
          <ValidatedForm onSubmit={() => actor.send({ type: 'SAVE' })} aria-label={title}>
            <Stack gap="3">
              {INIT_CONFIG_FIELDS[group].map(field)}
              {error && (
                <Text color="fg.error" role="alert">
                  {formatText(intl, error)}
                </Text>
              )}
              {test && (
                <Alert.Root
                  status={test.ok ? 'success' : 'error'}
                  data-testid={`init-${group}-test-result`}
                >
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Title>
                      {t(test.ok ? 'initConfig.testOk' : 'initConfig.testFailed')}
                    </Alert.Title>
                    <Alert.Description>{test.message}</Alert.Description>
                  </Alert.Content>
                </Alert.Root>
              )}
              <HStack gap="2" justify="flex-end">
                <Button
                  variant="outline"
                  disabled={busy}
                  aria-busy={testing}
                  onClick={() => actor.send({ type: 'TEST' })}
                  data-testid={`init-${group}-test`}
                >
                  {t('initConfig.test')}
                </Button>
                <Button type="submit" disabled={busy} data-testid={`init-${group}-save`}>
                  {t('initConfig.save', { group: title })}
                </Button>
              </HStack>
            </Stack>
          </ValidatedForm>
        )}
      </Card.Body>
      <ClearDialog
        open={confirming}
        field={clearing ? t(FIELD_LABEL[clearing]) : ''}
        onCancel={() => actor.send({ type: 'CANCEL_CLEAR' })}
        onConfirm={() => actor.send({ type: 'CONFIRM_CLEAR' })}
      />
    </Card.Root>
  );
}

function ClearDialog(props: {
  open: boolean;
  field: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const t = useT();
  return (
    <Dialog.Root
      open={props.open}
      role="alertdialog"
      placement="center"
      onOpenChange={(e) => {
        if (!e.open) props.onCancel();
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="init-clear-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('initConfig.clearTitle', { field: props.field })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>{t('initConfig.clearBody')}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={props.onCancel}>
                {t('initConfig.cancel')}
              </Button>
              <Button colorPalette="red" onClick={props.onConfirm}>
                {t('initConfig.clearConfirm')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
