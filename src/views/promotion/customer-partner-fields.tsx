import { Input, NativeSelect, Switch } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import type { CustomerRow } from '../../api/contract/customers';
import { useArea } from '../../app/actors/areas';
import { customersArea } from '../../app/actors/customers';
import { useLoadActor } from '../../app/hooks/use-load';
import { FormField } from '../../components/form-field';
import type { MessageId } from '../../i18n/messages';
import type { Values } from '../../app/actors/customer-form';

/** Prefix (warned when taken), tier, merchant limit (-1 = unlimited) and the OEM flag. */
export function PartnerFields(props: {
  values: Values;
  setValues: (update: (v: Values) => Values) => void;
  error: (key: keyof Values) => string | null;
  locked: boolean;
  row: CustomerRow | null;
}) {
  const intl = useIntl();
  const t = (id: MessageId) => intl.formatMessage({ id });
  const used = useLoadActor(useArea(customersArea).usedPrefixes);
  const { values, setValues, locked } = props;
  const prefix = values.prefix.trim().toUpperCase();
  const taken =
    prefix !== '' && prefix !== props.row?.service_prefix_no && (used.data ?? []).includes(prefix);
  const fixed = props.row !== null && props.row.merchant_count > 0;
  return (
    <>
      <FormField
        label={t('customers.prefix')}
        error={props.error('prefix') ?? (taken ? t('customers.prefixUsed') : null)}
        helper={fixed ? t('customers.prefixFixed') : t('customers.prefixHelp')}
        required
      >
        <Input
          name="service_prefix_no"
          autoComplete="off"
          value={values.prefix}
          disabled={locked || fixed}
          onChange={(e) => {
            const prefixValue = e.currentTarget.value;
            setValues((v) => ({ ...v, prefix: prefixValue }));
          }}
        />
      </FormField>
      <FormField label={t('customers.tier')} error={props.error('tier')}>
        <NativeSelect.Root disabled={locked}>
          <NativeSelect.Field
            name="service_type"
            value={values.tier}
            onChange={(e) => {
              const tier = e.currentTarget.value;
              setValues((v) => ({ ...v, tier }));
            }}
          >
            <option value="1">{t('customers.tierOem')}</option>
            <option value="2">{t('customers.tierOrdinary')}</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      <FormField
        label={t('customers.merchantLimit')}
        error={props.error('limit')}
        helper={t('customers.merchantLimitHelp')}
        required
      >
        <Input
          name="merchant_count_limit"
          inputMode="numeric"
          autoComplete="off"
          value={values.limit}
          disabled={locked}
          onChange={(e) => {
            const limit = e.currentTarget.value;
            setValues((v) => ({ ...v, limit }));
          }}
        />
      </FormField>
      <Switch.Root
        checked={values.openOem}
        disabled={locked}
        onCheckedChange={(e) => setValues((v) => ({ ...v, openOem: e.checked }))}
      >
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>{t('customers.openOem')}</Switch.Label>
      </Switch.Root>
    </>
  );
}
