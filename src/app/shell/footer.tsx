import { Flex, Link, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useAppActors } from '../actors/actors-context';

/** The footer (settings: footer): copyright, ICP record number and police record number. */
export function Footer() {
  const { branding } = useAppActors();
  const info = useSelector(branding, (s) => s.context.info);
  if (!info) return null;
  return (
    <Flex
      as="footer"
      justify="center"
      align="center"
      gap="4"
      wrap="wrap"
      paddingY="3"
      fontSize="xs"
      color="fg.muted"
      borderTopWidth="1px"
      bg="bg.panel"
    >
      {info.copyright && <Text>{info.copyright}</Text>}
      {info.icp_record_number && (
        <Link href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer" color="fg.muted">
          {info.icp_record_number}
        </Link>
      )}
      {info.police_record === '1' && info.police_record_number && (
        <Text>{info.police_record_number}</Text>
      )}
    </Flex>
  );
}
