import { Alert, Box, Button, Flex, Heading, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import type { BatchLinkState, SocialPlatformId } from '../../api/contract/matrix';
import { useAppActors } from '../../app/actors/actors-context';
import { useArea } from '../../app/actors/areas';
import { batchAuthorizationArea } from '../../app/actors/batch-authorization';
import { LoadingSpinner } from '../../components/loading-spinner';
import { LocaleSwitch } from '../../components/locale-switch';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { useT } from '../shared/use-t';

/** Each platform's name (the public page's own: the matrix part does not load here). */
const PLATFORM: Record<SocialPlatformId, MessageId> = {
  douyin: 'batchAuth.platformDouyin',
  kuaishou: 'batchAuth.platformKuaishou',
  xiaohongshu: 'batchAuth.platformXiaohongshu',
  channels: 'batchAuth.platformChannels',
};

/** Why a link that is not valid cannot be used. */
const REASON: Record<Exclude<BatchLinkState, 'valid'>, MessageId> = {
  expired: 'batchAuth.reasonExpired',
  revoked: 'batchAuth.reasonRevoked',
  used_up: 'batchAuth.reasonUsedUp',
};

const REASON_ID = 'batch-auth-reason';

/**
 * /batchAuthorization?token=… (public: no login, a signed-in visitor too): the page a batch
 * authorisation link opens (docs/domain.md §19). The site's branding, whose link it is, the
 * platform, what authorising grants, the expiry and the uses left, and "Authorise" (disabled, with
 * the reason, when the link is expired, revoked or used up): the browser goes to the platform and
 * comes back here with `&bound=<id>` (said as linked to the owner) or `&error=<message id>` (the
 * console's own text), then those are taken out of the address. Its texts are in the signed-out
 * part of the catalogue. The page's machine: src/machines/batch-authorization.ts.
 */
export default function BatchAuthorizationPage() {
  const t = useT();
  const intl = useIntl();
  const { branding } = useAppActors();
  const info = useSelector(branding, (s) => s.context.info);
  const { page } = useArea(batchAuthorizationArea);
  useOpen((event) => page.send(event));

  const state = useSelector(page, (s) => s.value as string);
  const link = useSelector(page, (s) => s.context.info);
  const refusal = useSelector(page, (s) => s.context.refusal);
  const returnError = useSelector(page, (s) => s.context.returnError);
  const authError = useSelector(page, (s) => s.context.authError);
  const busy = useSelector(page, (s) => s.hasTag('authorising'));

  return (
    <Flex minHeight="100vh" direction="column" align="center" bg="bg.subtle" padding="4" gap="4">
      <HStack width="full" maxWidth="lg" justify="space-between">
        <HStack gap="3">
          {info?.logo && <Image src={info.logo} alt="" boxSize="8" />}
          <Text fontSize="lg" fontWeight="bold">
            {info?.name ?? ''}
          </Text>
        </HStack>
        <LocaleSwitch />
      </HStack>
      <Box
        as="main"
        width="full"
        maxWidth="lg"
        bg="bg"
        padding={{ base: '6', md: '8' }}
        borderRadius="l3"
        boxShadow="md"
      >
        <Stack gap="5">
          <Heading as="h1" size="xl">
            {t('batchAuth.title')}
          </Heading>
          {(state === 'idle' || state === 'checking' || state === 'loading') && (
            <LoadingSpinner label={t('app.loading')} />
          )}
          {state === 'refused' && (
            <Alert.Root status="error" role="alert">
              <Alert.Indicator />
              <Alert.Title>{formatText(intl, refusal ?? 'batchAuth.errorFailed')}</Alert.Title>
            </Alert.Root>
          )}
          {state === 'bound' && (
            <Alert.Root status="success" role="status" data-testid="batch-auth-bound">
              <Alert.Indicator />
              <Alert.Title>
                {link
                  ? t('batchAuth.boundTo', { owner: link.owner_name })
                  : t('batchAuth.boundDone')}
              </Alert.Title>
            </Alert.Root>
          )}
          {link && state !== 'bound' && state !== 'refused' && (
            <>
              {(returnError || authError) && (
                <Alert.Root status="error" role="alert">
                  <Alert.Indicator />
                  <Alert.Title>{formatText(intl, (authError ?? returnError)!)}</Alert.Title>
                </Alert.Root>
              )}
              <LinkFacts link={link} />
              {link.state !== 'valid' && (
                <Text id={REASON_ID} color="fg.error" fontWeight="medium">
                  {t(REASON[link.state])}
                </Text>
              )}
              <Box>
                <Button
                  size="lg"
                  disabled={link.state !== 'valid'}
                  loading={busy}
                  loadingText={t('batchAuth.authorise', { platform: t(PLATFORM[link.platform]) })}
                  aria-busy={busy}
                  aria-describedby={link.state !== 'valid' ? REASON_ID : undefined}
                  onClick={() => page.send({ type: 'AUTHORISE' })}
                >
                  {t('batchAuth.authorise', { platform: t(PLATFORM[link.platform]) })}
                </Button>
              </Box>
            </>
          )}
        </Stack>
      </Box>
    </Flex>
  );
}

/** Whose link, what it grants, and its expiry and uses left. */
function LinkFacts(props: {
  link: {
    owner_name: string;
    platform: SocialPlatformId;
    expires_at: number;
    uses_left: number | null;
  };
}) {
  const t = useT();
  const intl = useIntl();
  const { link } = props;
  const values = { owner: link.owner_name, platform: t(PLATFORM[link.platform]) };
  const facts: [MessageId, string][] = [
    ['batchAuth.owner', link.owner_name],
    ['batchAuth.platform', values.platform],
    [
      'batchAuth.expires',
      intl.formatDate(link.expires_at, { dateStyle: 'medium', timeStyle: 'short' }),
    ],
    [
      'batchAuth.usesLeft',
      link.uses_left === null ? t('batchAuth.noLimit') : intl.formatNumber(link.uses_left),
    ],
  ];
  return (
    <Stack gap="4">
      <Text fontSize="lg">{t('batchAuth.whose', values)}</Text>
      <Text>{t('batchAuth.grants', values)}</Text>
      <Heading as="h2" size="sm">
        {t('batchAuth.details')}
      </Heading>
      <Box as="dl" data-testid="batch-auth-facts">
        {facts.map(([label, value]) => (
          <HStack key={label} justify="space-between" gap="4" paddingY="1" borderBottomWidth="1px">
            <Text as="dt" color="fg.muted">
              {t(label)}
            </Text>
            <Text as="dd" fontWeight="medium" textAlign="end">
              {value}
            </Text>
          </HStack>
        ))}
      </Box>
    </Stack>
  );
}

/**
 * Opens the address's link once per token, with what the platform's return says (`bound`,
 * `error`), then takes those out of the address (replaced, not pushed): a reload does not say it
 * again.
 */
function useOpen(
  send: (event: { type: 'OPEN'; token: string; bound: boolean; error: string | null }) => void,
) {
  const [search, setSearch] = useSearchParams();
  const token = search.get('token') ?? '';
  const bound = search.get('bound');
  const error = search.get('error');
  const handler = useRef(send);
  handler.current = send;
  const opened = useRef<string | null>(null);
  useEffect(() => {
    const returned = bound !== null || error !== null;
    if (!returned && opened.current === token) return;
    opened.current = token;
    handler.current({
      type: 'OPEN',
      token,
      bound: bound !== null,
      error: bound !== null ? null : error,
    });
    if (!returned) return;
    setSearch(
      (s) => {
        const next = new URLSearchParams(s);
        next.delete('bound');
        next.delete('error');
        return next;
      },
      { replace: true },
    );
  }, [token, bound, error, setSearch]);
}
