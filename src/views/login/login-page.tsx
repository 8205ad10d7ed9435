import {
  Alert,
  Box,
  Button,
  Checkbox,
  Flex,
  Heading,
  HStack,
  Image,
  Input,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import {
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
} from 'react';
import { useIntl } from 'react-intl';
import { useAppActors } from '../../app/actors/actors-context';
import { withLaterTheme } from '../../app/routes/lazy';
import { takeOverPrerender } from '../../app/boot/prerender-handover';
import { useSchemaForm } from '../../app/hooks/use-schema-form';
import { FormField } from '../../components/form-field';
import { LocaleSwitch, switchLocale } from '../../components/locale-switch';
import type { Locale } from '../../api/contract/messages';
import { STORAGE_KEYS } from '../../api/contract/storage-keys';
import { PasswordInput } from '../../components/password-input';
import { formatText } from '../../i18n/intl';
import { AgreementLinks } from './agreement-links';

// The dialogs load when first wanted (hover, focus or click), not with the page.
const loadForgot = withLaterTheme(() => import('./forgot-password-dialog'));
const loadRegister = withLaterTheme(() => import('./register-dialog'));
const prefetch = (load: () => Promise<unknown>) => () => {
  load().catch(() => {}); // a failed prefetch is retried by the click
};
const ForgotPasswordDialog = lazy(() =>
  loadForgot().then((m) => ({ default: m.ForgotPasswordDialog })),
);
const RegisterDialog = lazy(() => loadRegister().then((m) => ({ default: m.RegisterDialog })));
// The login rules (and zod) load when the form is first focused or pointed at, or at submit.
const loadLoginBody = () => import('../../api/contract/auth').then((m) => m.loginBody);

/** Where "remember account" keeps the account name. The password is never stored. */
const REMEMBERED_ACCOUNT_KEY = STORAGE_KEYS.rememberedAccount;

function rememberedAccount(): string | null {
  try {
    return localStorage.getItem(REMEMBERED_ACCOUNT_KEY);
  } catch {
    return null;
  }
}

export default function LoginPage() {
  const intl = useIntl();
  const { auth, branding } = useAppActors();
  const signingIn = useSelector(auth, (s) => s.hasTag('signingIn'));
  const authError = useSelector(auth, (s) => (s.matches('signedOut') ? s.context.error : null));
  const info = useSelector(branding, (s) => s.context.info);

  const form = useSchemaForm(loadLoginBody, { account: rememberedAccount() ?? '', password: '' });
  const [remember, setRemember] = useState(() => rememberedAccount() !== null);
  const [dialog, setDialog] = useState<'forgot' | 'register' | null>(null);
  // Once opened, a dialog stays mounted (closed) so it keeps its state, as before.
  const [opened, setOpened] = useState({ forgot: false, register: false });
  const open = (which: 'forgot' | 'register') => {
    setOpened((o) => ({ ...o, [which]: true }));
    setDialog(which);
  };

  const main = useRef<HTMLDivElement>(null);
  // The copy of this page pre-rendered at build time (login.html), when the visitor saw it
  // first, hands over what was done in it: typed and ticked (applied before the browser paints),
  // a language chosen, a submit held until now (sent once this page has those values).
  const [submitHeld, setSubmitHeld] = useState(false);
  useLayoutEffect(() => {
    const copied = takeOverPrerender(main.current);
    if (!copied) return;
    const { account, password } = copied.values;
    form.setValues((v) => ({ account: account ?? v.account, password: password ?? v.password }));
    if (copied.checked !== null) setRemember(copied.checked);
    if (copied.locale) switchLocale(copied.locale as Locale);
    if (copied.submitted) setSubmitHeld(true);
    // A button clicked in the copy (forgot password, show password) is clicked here.
    if (copied.clicked !== null) main.current?.querySelectorAll('button')[copied.clicked]?.click();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when this page first commits
  }, []);
  useEffect(() => {
    if (!submitHeld) return;
    setSubmitHeld(false);
    main.current?.querySelector('form')?.requestSubmit();
  }, [submitHeld]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const payload = await form.validate();
    if (!payload) return;
    try {
      if (remember) localStorage.setItem(REMEMBERED_ACCOUNT_KEY, payload.account);
      else localStorage.removeItem(REMEMBERED_ACCOUNT_KEY);
    } catch {
      /* storage unavailable: nothing to remember */
    }
    auth.send({ type: 'LOGIN', account: payload.account, password: payload.password });
  };
  const brandName = info?.name ?? '';

  return (
    <Flex minHeight="100vh" direction={{ base: 'column', md: 'row' }} bg="bg.subtle">
      <Flex
        flex="1"
        direction="column"
        justify="center"
        padding={{ base: '8', md: '16' }}
        // The domain's theme colour, its text the colour that reads on it (brand-colour.ts).
        bg="brand.solid"
        color="brand.contrast"
        data-testid="login-brand"
        gap="4"
      >
        <HStack gap="3">
          {info?.logo && <Image src={info.logo} alt="" boxSize="10" />}
          <Text fontSize="2xl" fontWeight="bold">
            {brandName}
          </Text>
        </HStack>
        <Text fontSize="lg" maxWidth="md">
          {intl.formatMessage({ id: 'login.slogan' })}
        </Text>
      </Flex>
      <Flex flex="1" align="center" justify="center" padding="8" position="relative">
        <Box position="absolute" top="4" right="4">
          <LocaleSwitch />
        </Box>
        <Box
          ref={main}
          as="main"
          width="full"
          maxWidth="sm"
          bg="bg"
          padding="8"
          borderRadius="l3"
          boxShadow="md"
        >
          <form
            noValidate
            onSubmit={(e) => void onSubmit(e)}
            onFocus={form.preload}
            onPointerEnter={form.preload}
            aria-labelledby="login-title"
          >
            <Stack gap="5">
              <Heading as="h1" id="login-title" size="xl">
                {intl.formatMessage({ id: 'login.title' })}
              </Heading>
              {authError && (
                <Alert.Root status="error" role="alert">
                  <Alert.Indicator />
                  <Alert.Title>{formatText(intl, authError)}</Alert.Title>
                </Alert.Root>
              )}
              <FormField
                label={intl.formatMessage({ id: 'form.account' })}
                error={form.error('account')}
              >
                <Input
                  {...form.bind('account')}
                  autoComplete="username"
                  placeholder={intl.formatMessage({ id: 'login.accountPlaceholder' })}
                />
              </FormField>
              <FormField
                label={intl.formatMessage({ id: 'form.password' })}
                error={form.error('password')}
              >
                <PasswordInput
                  {...form.bind('password')}
                  autoComplete="current-password"
                  placeholder={intl.formatMessage({ id: 'login.passwordPlaceholder' })}
                />
              </FormField>
              <HStack justify="space-between">
                <Checkbox.Root
                  checked={remember}
                  onCheckedChange={(e) => setRemember(e.checked === true)}
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{intl.formatMessage({ id: 'login.remember' })}</Checkbox.Label>
                </Checkbox.Root>
                <Button
                  variant="plain"
                  size="sm"
                  color="brand.fg"
                  onPointerEnter={prefetch(loadForgot)}
                  onFocus={prefetch(loadForgot)}
                  onClick={() => open('forgot')}
                >
                  {intl.formatMessage({ id: 'login.forgot' })}
                </Button>
              </HStack>
              <Button
                type="submit"
                width="full"
                loading={signingIn}
                loadingText={intl.formatMessage({ id: 'login.submitting' })}
                aria-busy={signingIn}
              >
                {intl.formatMessage({ id: 'login.submit' })}
              </Button>
              {/* Before Register: a button clicked in the pre-rendered copy (no branding, so no
                  Register yet) is found again here by its place (prerender-handover.ts). */}
              <AgreementLinks sentence="login.agreements" />
              {info?.register_open === '1' && (
                <Button
                  variant="ghost"
                  width="full"
                  onPointerEnter={prefetch(loadRegister)}
                  onFocus={prefetch(loadRegister)}
                  onClick={() => open('register')}
                >
                  {intl.formatMessage({ id: 'login.register' })}
                </Button>
              )}
            </Stack>
          </form>
        </Box>
      </Flex>
      {opened.forgot && (
        <Suspense>
          <ForgotPasswordDialog open={dialog === 'forgot'} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {opened.register && (
        <Suspense>
          <RegisterDialog
            open={dialog === 'register'}
            onClose={() => setDialog(null)}
            onRegistered={(username) => form.setValues({ account: username, password: '' })}
          />
        </Suspense>
      )}
    </Flex>
  );
}
