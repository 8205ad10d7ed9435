import { NativeSelect } from '@chakra-ui/react';
import type { PlatformUserRow } from '../../api/contract/customers';
import { useArea } from '../../app/actors/areas';
import { customersArea } from '../../app/actors/customers';
import { useLoadActor } from '../../app/hooks/use-load';
import { FilterSelect } from '../../components/filter-bar';
import { FormField } from '../../components/form-field';

const label = (u: PlatformUserRow) =>
  u.name && u.name !== u.username ? `${u.name} (${u.username})` : u.username;

/** Partners (admin) or agents the caller may pick (the customers area's, loaded once). */
function usePickerUsers(userType: 1 | 3) {
  const area = useArea(customersArea);
  const load = useLoadActor(userType === 1 ? area.partnerChoices : area.agentChoices);
  return load.data?.list ?? [];
}

/** A filter by partner or agent ('' = all). */
export function UserFilter(props: {
  userType: 1 | 3;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const users = usePickerUsers(props.userType);
  return (
    <FilterSelect
      label={props.label}
      value={props.value}
      onChange={props.onChange}
      options={users.map((u) => ({ value: String(u.id), label: label(u) }))}
    />
  );
}

/** A form field choosing a partner or agent; `only` narrows agents to one partner. */
export function UserPicker(props: {
  userType: 1 | 3;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The text of '' (none). */
  emptyLabel: string;
  error?: string | null;
  required?: boolean;
  disabled?: boolean;
  servicePartner?: number | null;
}) {
  const users = usePickerUsers(props.userType).filter(
    (u) => !props.servicePartner || u.service_id === props.servicePartner,
  );
  return (
    <FormField label={props.label} error={props.error} required={props.required}>
      <NativeSelect.Root disabled={props.disabled}>
        <NativeSelect.Field
          name={props.userType === 1 ? 'service_id' : 'agent_id'}
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        >
          <option value="">{props.emptyLabel}</option>
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {label(u)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FormField>
  );
}
