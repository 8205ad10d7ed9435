import type { MessageId } from '../../i18n/messages';
import { Button, Card, Heading, Input, SimpleGrid, Stack, Textarea } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { changePwd, editProfile } from '../../api/auth';
import {
  changePwdBody,
  editProfileBody,
  type ChangePwdBody,
  type EditProfileBody,
} from '../../api/contract/auth';
import { useAppActors } from '../../app/actors-context';
import { useFormSubmit } from '../../app/use-form-submit';
import { fieldErrors } from '../../app/zod-errors';
import { FormField } from '../../components/form-field';
import { Page } from '../../components/page';
import { PasswordInput } from '../../components/password-input';
import { notify } from '../../components/toaster';
import { formatText } from '../../i18n/intl';

type ProfileValues = Required<EditProfileBody>;

function ProfileForm() {
  const intl = useIntl();
  const { auth } = useAppActors();
  const user = useSelector(auth, (s) => s.context.user);
  const [values, setValues] = useState<ProfileValues>(() => ({
    nickname: user?.nickname ?? '',
    email: user?.email ?? '',
    introduction: user?.introduction ?? '',
    personalWebsite: user?.personalWebsite ?? '',
    location: user?.location ?? '',
    job: user?.job ?? '',
    organization: user?.organization ?? '',
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const form = useFormSubmit(editProfile);
  const { done, reset } = form;
  useEffect(() => {
    if (!done) return;
    notify('success', intl.formatMessage({ id: 'profile.saved' }));
    auth.send({ type: 'REFRESH_USER' });
    reset();
  }, [done, reset, auth, intl]);

  const set = (key: keyof ProfileValues) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  const err = (key: string) => (errors[key] ? formatText(intl, errors[key]) : null);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = editProfileBody.safeParse(values);
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (parsed.success) form.submit(parsed.data);
  };
  const field = (key: keyof ProfileValues, labelId: MessageId) => (
    <FormField label={intl.formatMessage({ id: labelId })} error={err(key)}>
      <Input value={values[key]} onChange={set(key)} />
    </FormField>
  );

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="profile-title">
      <Card.Root variant="outline">
        <Card.Header>
          <Heading as="h2" size="md" id="profile-title">
            {intl.formatMessage({ id: 'profile.title' })}
          </Heading>
        </Card.Header>
        <Card.Body>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            {field('nickname', 'user.nickname')}
            {field('email', 'user.email')}
            {field('job', 'user.job')}
            {field('organization', 'user.organization')}
            {field('location', 'user.location')}
            {field('personalWebsite', 'user.personalWebsite')}
          </SimpleGrid>
          <Stack marginTop="4">
            <FormField
              label={intl.formatMessage({ id: 'user.introduction' })}
              error={err('introduction')}
            >
              <Textarea value={values.introduction} onChange={set('introduction')} />
            </FormField>
          </Stack>
        </Card.Body>
        <Card.Footer>
          <Button
            type="submit"
            loading={form.submitting}
            loadingText={intl.formatMessage({ id: 'form.save' })}
            aria-busy={form.submitting}
          >
            {intl.formatMessage({ id: 'form.save' })}
          </Button>
        </Card.Footer>
      </Card.Root>
    </form>
  );
}

const emptyPwd: ChangePwdBody = { old_password: '', new_password: '', confirm_password: '' };

function PasswordForm() {
  const intl = useIntl();
  const { auth } = useAppActors();
  const [values, setValues] = useState<ChangePwdBody>(emptyPwd);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const form = useFormSubmit(changePwd);
  const { done } = form;
  useEffect(() => {
    if (!done) return;
    // The server ended every session of this user: say so and go to login without another call.
    notify('success', intl.formatMessage({ id: 'password.changed' }), 5000);
    auth.send({ type: 'SIGNED_OUT_BY_SERVER' });
  }, [done, auth, intl]);

  const set = (key: keyof ChangePwdBody) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  const err = (key: string) => (errors[key] ? formatText(intl, errors[key]) : null);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = changePwdBody.safeParse(values);
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (parsed.success) form.submit(parsed.data);
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="password-title">
      <Card.Root variant="outline">
        <Card.Header>
          <Heading as="h2" size="md" id="password-title">
            {intl.formatMessage({ id: 'password.title' })}
          </Heading>
        </Card.Header>
        <Card.Body>
          <Stack gap="4" maxWidth="md">
            <FormField
              label={intl.formatMessage({ id: 'form.oldPassword' })}
              error={err('old_password')}
              required
            >
              <PasswordInput
                value={values.old_password}
                onChange={set('old_password')}
                autoComplete="current-password"
              />
            </FormField>
            <FormField
              label={intl.formatMessage({ id: 'form.newPassword' })}
              error={err('new_password')}
              helper={intl.formatMessage({ id: 'validation.passwordRule' })}
              required
            >
              <PasswordInput
                value={values.new_password}
                onChange={set('new_password')}
                autoComplete="new-password"
              />
            </FormField>
            <FormField
              label={intl.formatMessage({ id: 'form.confirmPassword' })}
              error={err('confirm_password')}
              required
            >
              <PasswordInput
                value={values.confirm_password}
                onChange={set('confirm_password')}
                autoComplete="new-password"
              />
            </FormField>
          </Stack>
        </Card.Body>
        <Card.Footer>
          <Button
            type="submit"
            loading={form.submitting}
            loadingText={intl.formatMessage({ id: 'password.submit' })}
            aria-busy={form.submitting}
          >
            {intl.formatMessage({ id: 'password.submit' })}
          </Button>
        </Card.Footer>
      </Card.Root>
    </form>
  );
}

/** /user/setting: the user's profile and password. */
export default function UserSettingPage() {
  const intl = useIntl();
  return (
    <Page title={intl.formatMessage({ id: 'route.userSetting' })}>
      <ProfileForm />
      <PasswordForm />
    </Page>
  );
}
