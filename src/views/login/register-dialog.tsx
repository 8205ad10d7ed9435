import { Input } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { registerBody } from '../../api/contract/auth';
import { useAppActors } from '../../app/actors/actors-context';
import { useSubmission } from '../../app/hooks/use-submission';
import { useSchemaForm } from '../../app/hooks/use-schema-form';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { NewPasswordFields } from '../../components/new-password-fields';
import { notify } from '../../components/toaster';
import { AgreementLinks } from './agreement-links';
import { MobileCodeFields } from './mobile-code-fields';

const EMPTY = { username: '', password: '', mobile: '', code: '' };

/** Merchant sign-up under the partner that owns this domain (offered when the platform allows it). */
export function RegisterDialog(props: {
  open: boolean;
  onClose: () => void;
  onRegistered: (username: string) => void;
}) {
  const intl = useIntl();
  const form = useSchemaForm(registerBody, EMPTY);
  const submission = useSubmission(useAppActors().account().register);
  const { done, reset } = submission;
  const { onClose, onRegistered } = props;
  const { username } = form.values;
  const clear = form.reset;

  useEffect(() => {
    if (!done) return;
    notify('success', intl.formatMessage({ id: 'register.done' }));
    onRegistered(username);
    clear();
    reset();
    onClose();
  }, [done, reset, onClose, onRegistered, username, clear, intl]);

  return (
    <FormDialog
      open={props.open}
      title={intl.formatMessage({ id: 'register.title' })}
      submitLabel={intl.formatMessage({ id: 'register.submit' })}
      submitting={submission.submitting}
      onClose={props.onClose}
      onSubmit={async () => {
        const payload = await form.validate({ domain: window.location.hostname });
        if (payload) submission.submit(payload);
      }}
    >
      <FormField
        label={intl.formatMessage({ id: 'form.account' })}
        error={form.error('username')}
        required
      >
        <Input {...form.bind('username')} autoComplete="username" />
      </FormField>
      <NewPasswordFields
        label="form.password"
        password={form.bind('password')}
        passwordError={form.error('password')}
      />
      <MobileCodeFields form={form} purpose="register" />
      {/* Registering is the consent to the versions in force (docs/domain.md §24). */}
      <AgreementLinks sentence="register.agreements" />
    </FormDialog>
  );
}
