import { Button, Card, Heading, Input, SimpleGrid, Stack, Textarea } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { changePwdBody, editProfileBody } from '../../api/contract/auth';
import { useAppActors } from '../../app/actors/actors-context';
import { useSubmission } from '../../app/hooks/use-submission';
import { useSchemaForm } from '../../app/hooks/use-schema-form';
import { FormField } from '../../components/form-field';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Page } from '../../components/page';
import { ValidatedForm } from '../../components/validated-form';
import { PasswordInput } from '../../components/password-input';
import { notify } from '../../components/toaster';
import type { MessageId } from '../../i18n/messages';
import { UserConfigCard } from './user-config-card';

/** A card that is a form: heading, fields, one submit button. */
function FormCard(props: {
  id: string;
  title: MessageId;
  submit: MessageId;
  submitting: boolean;
  onSubmit: () => void | Promise<void>;
  children: ReactNode;
}) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: props.submit });
  return (
    <ValidatedForm aria-labelledby={props.id} onSubmit={props.onSubmit}>
      <Card.Root variant="outline">
        <Card.Header>
          <Heading as="h2" size="md" id={props.id}>
            {intl.formatMessage({ id: props.title })}
          </Heading>
        </Card.Header>
        <Card.Body>{props.children}</Card.Body>
        <Card.Footer>
          <Button
            type="submit"
            loading={props.submitting}
            loadingText={label}
            aria-busy={props.submitting}
          >
            {label}
          </Button>
        </Card.Footer>
      </Card.Root>
    </ValidatedForm>
  );
}

const PROFILE_FIELDS: [keyof typeof EMPTY_PROFILE, MessageId][] = [
  ['nickname', 'user.nickname'],
  ['email', 'user.email'],
  ['job', 'user.job'],
  ['organization', 'user.organization'],
  ['location', 'user.location'],
  ['personalWebsite', 'user.personalWebsite'],
];
const EMPTY_PROFILE = {
  nickname: '',
  email: '',
  introduction: '',
  personalWebsite: '',
  location: '',
  job: '',
  organization: '',
};

function ProfileForm() {
  const intl = useIntl();
  const actors = useAppActors();
  const user = useSelector(actors.auth, (s) => s.context.user);
  const initial = Object.fromEntries(
    Object.keys(EMPTY_PROFILE).map((k) => [k, user?.[k as keyof typeof EMPTY_PROFILE] ?? '']),
  ) as typeof EMPTY_PROFILE;
  const form = useSchemaForm(editProfileBody, initial);
  // The account actors refresh the user once saved (src/app/actors/account.ts).
  const submission = useSubmission(actors.account().profile);
  const { done, reset } = submission;
  useEffect(() => {
    if (!done) return;
    notify('success', intl.formatMessage({ id: 'profile.saved' }));
    reset();
  }, [done, reset, intl]);

  return (
    <FormCard
      id="profile-title"
      title="profile.title"
      submit="form.save"
      submitting={submission.submitting}
      onSubmit={async () => {
        const payload = await form.validate();
        if (payload) submission.submit(payload);
      }}
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        {PROFILE_FIELDS.map(([key, label]) => (
          <FormField key={key} label={intl.formatMessage({ id: label })} error={form.error(key)}>
            <Input {...form.bind(key)} />
          </FormField>
        ))}
      </SimpleGrid>
      <Stack marginTop="4">
        <FormField
          label={intl.formatMessage({ id: 'user.introduction' })}
          error={form.error('introduction')}
        >
          <Textarea {...form.bind('introduction')} />
        </FormField>
      </Stack>
    </FormCard>
  );
}

function PasswordForm() {
  const intl = useIntl();
  const { account } = useAppActors();
  const form = useSchemaForm(changePwdBody, {
    old_password: '',
    new_password: '',
    confirm_password: '',
  });
  // The account actors sign out once changed: the server ended every session of this user.
  const submission = useSubmission(account().password);
  const { done, reset } = submission;
  useEffect(() => {
    if (!done) return;
    notify('success', intl.formatMessage({ id: 'password.changed' }), 5000);
    reset();
  }, [done, reset, intl]);

  return (
    <FormCard
      id="password-title"
      title="password.title"
      submit="password.submit"
      submitting={submission.submitting}
      onSubmit={async () => {
        const payload = await form.validate();
        if (payload) submission.submit(payload);
      }}
    >
      <Stack gap="4" maxWidth="md">
        <FormField
          label={intl.formatMessage({ id: 'form.oldPassword' })}
          error={form.error('old_password')}
          required
        >
          <PasswordInput {...form.bind('old_password')} autoComplete="current-password" />
        </FormField>
        <NewPasswordFields
          label="form.newPassword"
          password={form.bind('new_password')}
          passwordError={form.error('new_password')}
          confirm={form.bind('confirm_password')}
          confirmError={form.error('confirm_password')}
        />
      </Stack>
    </FormCard>
  );
}

/** /user/setting: the user's profile, password, notifications and defaults. */
export default function UserSettingPage() {
  const intl = useIntl();
  return (
    <Page title={intl.formatMessage({ id: 'route.userSetting' })}>
      <ProfileForm />
      <PasswordForm />
      <UserConfigCard />
    </Page>
  );
}
