import { Box, Flex, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { DEFAULT_THEME_COLOR } from '../../api/contract/domains';
import type { DomainValues } from '../../machines/domain-form';
import type { T } from '../shared/use-t';

/** The platform's own logo, shown while a domain sets none. */
const PLATFORM_LOGO = '/logo.svg';

/**
 * What a domain's visitors will see, drawn from the form's draft as it is typed: the login page's
 * brand block (logo, name, the record numbers at its foot) and the navigation bar (logo, name,
 * the balance under the money name, in the theme colour). A small likeness, not the real pages.
 */
export function BrandPreview(props: { values: DomainValues; t: T }) {
  const { values: v, t } = props;
  const name = v.name.trim() || v.hostname.trim() || '—';
  const color = (
    /^#[0-9a-f]{6}$/i.test(v.theme_color) ? v.theme_color : DEFAULT_THEME_COLOR
  ).toLowerCase();
  const logo = v.logo.trim() || PLATFORM_LOGO;
  const alt = t('domains.previewImageAlt', { name });
  const moneyName = v.money_name.trim() || '—';
  return (
    <Stack
      gap="3"
      as="section"
      aria-label={t('domains.preview')}
      data-testid="brand-preview"
      borderWidth="1px"
      borderRadius="md"
      padding="3"
    >
      <Text fontWeight="semibold">{t('domains.preview')}</Text>
      <Text fontSize="sm" color="fg.muted">
        {t('domains.previewNavbar')}
      </Text>
      <Flex
        data-testid="preview-navbar"
        align="center"
        justify="space-between"
        paddingX="3"
        paddingY="2"
        borderRadius="sm"
        borderTopWidth="3px"
        style={{ borderTopColor: color }}
        bg="bg.muted"
      >
        <HStack gap="2">
          <Image src={logo} alt={alt} height="6" width="6" objectFit="contain" />
          <Text fontWeight="semibold" data-testid="preview-navbar-name">
            {name}
          </Text>
        </HStack>
        <Text fontSize="sm" data-testid="preview-money-name">
          {t('domains.previewBalance', { moneyName })}
        </Text>
      </Flex>
      <Text fontSize="sm" color="fg.muted">
        {t('domains.previewLogin')}
      </Text>
      <Stack data-testid="preview-login" align="center" gap="2" padding="3" bg="bg.muted">
        <Image src={logo} alt={alt} height="10" width="10" objectFit="contain" />
        <Text fontSize="lg" fontWeight="bold" data-testid="preview-login-name">
          {name}
        </Text>
        <Box width="24" height="1" borderRadius="full" style={{ backgroundColor: color }} />
        <Stack gap="0" align="center" fontSize="xs" color="fg.muted">
          {v.copyright.trim() && <Text>{v.copyright}</Text>}
          {v.icp_record_number.trim() && <Text>{v.icp_record_number}</Text>}
          {v.police_record === '1' && v.police_record_number.trim() && (
            <Text data-testid="preview-police">
              {t('domains.previewPolice', { number: v.police_record_number })}
            </Text>
          )}
        </Stack>
      </Stack>
    </Stack>
  );
}
