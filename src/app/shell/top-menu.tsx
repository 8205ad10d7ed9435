import { Button, Flex, Menu, Portal } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { Icon, type IconName } from '../../components/icons';
import type { MessageId } from '../../i18n/messages';
import { useActiveMenuName } from './side-menu';
import { useMenuSections } from './use-menu-sections';

/** The menu as a horizontal bar (settings: top menu): one dropdown per section. */
export function TopMenu() {
  const intl = useIntl();
  const navigate = useNavigate();
  const sections = useMenuSections();
  const activeName = useActiveMenuName();
  const t = (id: string) => intl.formatMessage({ id: id as MessageId });
  return (
    <Flex
      as="nav"
      aria-label={intl.formatMessage({ id: 'shell.menu' })}
      gap="1"
      paddingX="4"
      paddingY="1"
      borderBottomWidth="1px"
      bg="bg.panel"
      overflowX="auto"
      data-testid="top-menu"
    >
      {sections.map((section) => {
        const active = section.routes.some((r) => r.name === activeName);
        return (
          <Menu.Root key={section.key} onSelect={(d) => navigate(d.value)}>
            <Menu.Trigger asChild>
              <Button
                variant={active ? 'subtle' : 'ghost'}
                size="sm"
                color={active ? 'brand.fg' : undefined}
              >
                <Icon name={section.icon as IconName} size={16} />
                {t(section.titleId)}
              </Button>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  {section.routes.map((route) => (
                    <Menu.Item
                      key={route.name}
                      value={route.path}
                      aria-current={route.name === activeName ? 'page' : undefined}
                    >
                      {t(route.titleId)}
                    </Menu.Item>
                  ))}
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
        );
      })}
    </Flex>
  );
}
