import {
  Alert,
  Button,
  CloseButton,
  Drawer,
  Field,
  NumberInput,
  Portal,
  Stack,
  Switch,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { notify } from '../../components/toaster';
import type { MessageId } from '../../i18n/messages';
import { MENU_WIDTH_LIMITS, SWITCH_KEYS, type SwitchKey } from '../../machines/settings';
import { useAppActors } from '../actors/actors-context';

const SWITCH_LABELS: Record<SwitchKey, MessageId> = {
  navbar: 'settings.navbar',
  menu: 'settings.menu',
  topMenu: 'settings.topMenu',
  footer: 'settings.footer',
  tabBar: 'settings.tabBar',
  menuFromServer: 'settings.menuFromServer',
  colorWeak: 'settings.colorWeak',
};

/** The global settings drawer (docs/domain.md §13): 300 wide, not routed, closed by cancel or its close button. */
export function SettingsDrawer() {
  const intl = useIntl();
  const { settings } = useAppActors();
  const open = useSelector(settings, (s) => s.hasTag('drawerOpen'));
  const values = useSelector(settings, (s) => s.context);
  const close = () => settings.send({ type: 'CLOSE_DRAWER' });
  // What is typed in the width field: a width is sent only once it is within the limits (the
  // field clamps on blur), else typing "300" would be clamped at its first key, "3".
  const [widthDraft, setWidthDraft] = useState(String(values.menuWidth));
  useEffect(() => setWidthDraft(String(values.menuWidth)), [values.menuWidth]);

  // Spec §2 order: the switches, the menu width field, then colour weak.
  const renderSwitch = (key: SwitchKey) => (
    <Switch.Root
      key={key}
      display="flex"
      justifyContent="space-between"
      checked={values[key]}
      onCheckedChange={(e) => settings.send({ type: 'SET', key, value: e.checked })}
    >
      <Switch.Label>{intl.formatMessage({ id: SWITCH_LABELS[key] })}</Switch.Label>
      <Switch.HiddenInput />
      <Switch.Control />
    </Switch.Root>
  );

  const copySettings = async () => {
    const { globalSettings: _drawer, ...layout } = values;
    try {
      await navigator.clipboard.writeText(JSON.stringify(layout, null, 2));
      notify('success', intl.formatMessage({ id: 'settings.copied' }));
    } catch {
      notify('error', intl.formatMessage({ id: 'settings.copyFailed' }));
    }
  };

  return (
    <Drawer.Root
      open={open}
      placement="end"
      onOpenChange={(e) => {
        if (!e.open) close();
      }}
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content width="300px" maxWidth="300px" data-testid="settings-drawer">
            <Drawer.Header>
              <Drawer.Title>{intl.formatMessage({ id: 'settings.title' })}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="4">
                <Alert.Root status="info" size="sm">
                  <Alert.Indicator />
                  <Alert.Description>
                    {intl.formatMessage({ id: 'settings.info' })}
                  </Alert.Description>
                </Alert.Root>
                {SWITCH_KEYS.filter((key) => key !== 'colorWeak').map(renderSwitch)}
                <Field.Root orientation="horizontal" justifyContent="space-between">
                  <Field.Label>{intl.formatMessage({ id: 'settings.menuWidth' })}</Field.Label>
                  <NumberInput.Root
                    size="sm"
                    width="80px"
                    min={MENU_WIDTH_LIMITS.min}
                    max={MENU_WIDTH_LIMITS.max}
                    value={widthDraft}
                    onValueChange={(e) => {
                      setWidthDraft(e.value);
                      if (
                        Number.isFinite(e.valueAsNumber) &&
                        e.valueAsNumber >= MENU_WIDTH_LIMITS.min &&
                        e.valueAsNumber <= MENU_WIDTH_LIMITS.max
                      ) {
                        settings.send({ type: 'SET_MENU_WIDTH', value: e.valueAsNumber });
                      }
                    }}
                  >
                    <NumberInput.Input />
                  </NumberInput.Root>
                </Field.Root>
                {renderSwitch('colorWeak')}
              </Stack>
            </Drawer.Body>
            <Drawer.Footer>
              <Button variant="outline" onClick={close}>
                {intl.formatMessage({ id: 'form.cancel' })}
              </Button>
              <Button onClick={() => void copySettings()}>
                {intl.formatMessage({ id: 'settings.copy' })}
              </Button>
            </Drawer.Footer>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={intl.formatMessage({ id: 'form.close' })} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
