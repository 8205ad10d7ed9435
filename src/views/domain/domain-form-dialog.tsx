import { Alert, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { DEFAULT_THEME_COLOR } from '../../api/contract/domains';
import type { DomainActors } from '../../app/actors/domains';
import { ColorField, SelectField, SwitchField, TextField } from '../../components/form-fields';
import { formatText } from '../../i18n/intl';
import type { DomainField } from '../../machines/domain-form';
import { CustomerDialogFrame } from '../shared/customer-dialog-frame';
import { useT } from '../shared/use-t';
import { BrandImageField } from './brand-image-field';
import { BrandPreview } from './brand-preview';

const SHOW_FLAGS = ['dy_auth_publish_show', 'expirence_money_show', 'saler_show'] as const;

/**
 * Add or edit a domain. The draft and its errors live in the domain form machine (the area's
 * `form` actor); this view shows them and sends each change, and the preview beside the fields
 * draws the same draft.
 */
export function DomainFormDialog(props: { area: DomainActors }) {
  const intl = useIntl();
  const t = useT();
  const { form } = props.area;
  const open = useSelector(form, (s) => s.hasTag('open'));
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const failed = useSelector(form, (s) => s.matches('failed'));
  const { target, values, errors, error } = useSelector(form, (s) => s.context);
  const partners = useSelector(props.area.owners, (s) => s.context.data?.list ?? []);
  const locked = submitting || failed;
  const change = (field: DomainField) => (value: string) =>
    form.send({ type: 'CHANGE', field, value });
  const errorOf = (field: string) => (errors[field] ? formatText(intl, errors[field]) : null);
  const text = (
    field: DomainField,
    label: string,
    extra: { helper?: string; required?: boolean } = {},
  ) => (
    <TextField
      name={field}
      label={label}
      value={values[field]}
      onChange={change(field)}
      error={errorOf(field)}
      disabled={locked}
      {...extra}
    />
  );
  // A partner beyond the picker's first page keeps its own name as a choice.
  const owners = [
    { value: '', label: t('domains.ownerPlatform') },
    ...partners.map((p) => ({ value: String(p.id), label: p.name || p.username })),
  ];
  if (target?.owner_id && !owners.some((o) => o.value === String(target.owner_id))) {
    owners.push({
      value: String(target.owner_id),
      label: target.owner_name ?? String(target.owner_id),
    });
  }
  return (
    <CustomerDialogFrame
      open={open}
      submitting={submitting}
      failed={failed}
      error={error}
      onRetry={() => form.send({ type: 'RETRY' })}
      onBack={() => form.send({ type: 'BACK' })}
      onClose={() => form.send({ type: 'CLOSE' })}
      title={target ? t('domains.editTitle', { hostname: target.hostname }) : t('domains.addTitle')}
      submitLabel={t(target ? 'form.save' : 'domains.create')}
      size="xl"
      testId="domain-dialog"
      onSubmit={() => form.send({ type: 'SUBMIT' })}
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4" alignItems="start">
        <Stack gap="3">
          {text('hostname', t('domains.hostname'), {
            helper: t('domains.hostnameHelp'),
            required: true,
          })}
          <SelectField
            name="owner_id"
            label={t('domains.owner')}
            value={values.owner_id}
            onChange={change('owner_id')}
            error={errorOf('owner_id')}
            disabled={locked}
            options={owners}
          />
          {text('name', t('domains.name'), { required: true })}
          {(['logo', 'favicon'] as const).map((field) => (
            <BrandImageField
              key={field}
              upload={props.area[field]}
              label={t(field === 'logo' ? 'domains.logo' : 'domains.favicon')}
              helper={t(field === 'logo' ? 'domains.logoHelp' : 'domains.faviconHelp')}
              value={values[field]}
              error={errorOf(field)}
              disabled={locked}
              onClear={() => change(field)('')}
              testId={`domain-${field}`}
            />
          ))}
          {text('copyright', t('domains.copyright'))}
          {text('icp_record_number', t('domains.icp'))}
          <SwitchField
            name="police_record"
            label={t('domains.policeRecord')}
            value={values.police_record}
            onChange={change('police_record')}
            disabled={locked}
          />
          {text('police_record_number', t('domains.policeRecordNumber'))}
          {text('money_name', t('domains.moneyName'), { helper: t('domains.moneyNameHelp') })}
          <ColorField
            name="theme_color"
            label={t('domains.themeColor')}
            pickerLabel={t('domains.themeColorPicker')}
            helper={t('domains.themeColorHelp')}
            fallback={DEFAULT_THEME_COLOR}
            value={values.theme_color}
            onChange={change('theme_color')}
            error={errorOf('theme_color')}
            disabled={locked}
          />
          <Text fontWeight="medium">{t('domains.showFlags')}</Text>
          {SHOW_FLAGS.map((flag) => (
            <SwitchField
              key={flag}
              name={flag}
              label={t(`domains.flag.${flag}`)}
              value={values[flag]}
              onChange={change(flag)}
              disabled={locked}
            />
          ))}
          <SelectField
            name="status"
            label={t('domains.status')}
            value={values.status}
            onChange={change('status')}
            disabled={locked}
            options={[
              { value: '1', label: t('domains.enabled') },
              { value: '0', label: t('domains.disabled') },
            ]}
          />
          {errors._form && (
            <Alert.Root status="warning" role="alert">
              <Alert.Indicator />
              <Alert.Title>{formatText(intl, errors._form)}</Alert.Title>
            </Alert.Root>
          )}
        </Stack>
        <BrandPreview values={values} t={t} />
      </SimpleGrid>
    </CustomerDialogFrame>
  );
}
