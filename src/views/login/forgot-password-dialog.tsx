import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { resetPwdBody } from '../../api/contract/auth';
import { useAppActors } from '../../app/actors/actors-context';
import { useSubmission } from '../../app/hooks/use-submission';
import { useSchemaForm } from '../../app/hooks/use-schema-form';
import { FormDialog } from '../../components/form-dialog';
import { NewPasswordFields } from '../../components/new-password-fields';
import { notify } from '../../components/toaster';
import { MobileCodeFields } from './mobile-code-fields';

const EMPTY = { mobile: '', code: '', new_password: '', confirm_password: '' };

/** Forgot password: an SMS code to the account's mobile, then a new password. */
export function ForgotPasswordDialog(props: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const form = useSchemaForm(resetPwdBody, EMPTY);
  const submission = useSubmission(useAppActors().account().forgotPassword);
  const { done, reset } = submission;
  const { onClose } = props;
  const clear = form.reset;

  useEffect(() => {
    if (!done) return;
    notify('success', intl.formatMessage({ id: 'forgot.done' }));
    clear();
    reset();
    onClose();
  }, [done, reset, onClose, clear, intl]);

  return (
    <FormDialog
      open={props.open}
      title={intl.formatMessage({ id: 'forgot.title' })}
      submitLabel={intl.formatMessage({ id: 'forgot.submit' })}
      submitting={submission.submitting}
      onClose={props.onClose}
      onSubmit={async () => {
        const payload = await form.validate();
        if (payload) submission.submit(payload);
      }}
    >
      <MobileCodeFields form={form} purpose="reset" />
      <NewPasswordFields
        label="form.newPassword"
        password={form.bind('new_password')}
        passwordError={form.error('new_password')}
        confirm={form.bind('confirm_password')}
        confirmError={form.error('confirm_password')}
      />
    </FormDialog>
  );
}
