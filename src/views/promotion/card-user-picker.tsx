import { Input, NativeSelect } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { roleOf } from '../../api/contract/roles';
import { useArea } from '../../app/actors/areas';
import { cardsArea } from '../../app/actors/cards';
import { useListActor } from '../../app/hooks/use-list';
import { FormField } from '../../components/form-field';
import type { MessageId } from '../../i18n/messages';
import { userLabel } from '../shared/card-format';

export interface PickedUser {
  id: number;
  label: string;
}

const SEARCH_DELAY_MS = 300;

/**
 * A user the caller may reach (admin: anyone; partner: its subtree), searched by keyword as the
 * person types: a search field and a choice of the matches. What is typed and chosen is the
 * dialog's machine's (docs/architecture.md "Forms"): the picker only shows and reports it.
 */
export function CardUserPicker(props: {
  label: string;
  keyword: string;
  onKeyword: (keyword: string) => void;
  picked: PickedUser | null;
  onPick: (user: PickedUser | null) => void;
  error?: string | null;
  required?: boolean;
}) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const { keyword } = props;
  const users = useListActor(useArea(cardsArea).users);
  const { setFilters } = users;
  const applied = users.query.filters.keyword;
  useEffect(() => {
    if (keyword === applied) return;
    const timer = setTimeout(() => setFilters({ keyword }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [keyword, applied, setFilters]);

  const rows = users.rows;
  const unlisted = props.picked && !rows.some((u) => u.id === props.picked?.id);
  return (
    <>
      <FormField label={t('cards.searchUser')}>
        <Input
          type="search"
          autoComplete="off"
          value={keyword}
          onChange={(e) => props.onKeyword(e.currentTarget.value)}
        />
      </FormField>
      <FormField
        label={props.label}
        error={props.error}
        helper={users.loading ? t('app.loading') : t('cards.userMatches', { count: users.total })}
        required={props.required}
      >
        <NativeSelect.Root>
          <NativeSelect.Field
            value={props.picked ? String(props.picked.id) : ''}
            onChange={(e) => {
              const id = Number(e.currentTarget.value);
              const user = rows.find((u) => u.id === id);
              props.onPick(user ? { id: user.id, label: userLabel(user) } : null);
            }}
          >
            <option value="">{t('cards.chooseUser')}</option>
            {unlisted && props.picked && (
              <option value={props.picked.id}>{props.picked.label}</option>
            )}
            {rows.map((u) => (
              <option key={u.id} value={u.id}>
                {`${userLabel(u)} · ${t(`role.${roleOf(u.user_type)}` as MessageId)}`}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
    </>
  );
}
