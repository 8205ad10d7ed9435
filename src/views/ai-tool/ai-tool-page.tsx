import { Tabs } from '@chakra-ui/react';
import { useArea } from '../../app/actors/areas';
import { aiToolArea, type DeleteTarget } from '../../app/actors/ai-tools';
import { Page } from '../../components/page';
import { ConfirmRowDialog } from '../shared/call-dialog';
import { useT } from '../shared/use-t';
import { IndustriesTab } from './industries-tab';
import { ScriptsTab } from './scripts-tab';
import { ToolsTab } from './tools-tab';

/**
 * /ai-tool/ai-tool-index (admin; docs/domain.md §23): the AI tools (with try-it), the industry
 * tree and the scripts, a tab each. The AI tool area owns the calls; this view selects and sends.
 */
export default function AiToolPage() {
  const t = useT();
  const area = useArea(aiToolArea);
  return (
    <Page title={t('route.aiToolIndex')}>
      <Tabs.Root defaultValue="tools" variant="line" lazyMount>
        <Tabs.List>
          <Tabs.Trigger value="tools">{t('aiTool.tabTools')}</Tabs.Trigger>
          <Tabs.Trigger value="industries">{t('aiTool.tabIndustries')}</Tabs.Trigger>
          <Tabs.Trigger value="scripts">{t('aiTool.tabScripts')}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="tools">
          <ToolsTab area={area} />
        </Tabs.Content>
        <Tabs.Content value="industries">
          <IndustriesTab area={area} />
        </Tabs.Content>
        <Tabs.Content value="scripts">
          <ScriptsTab area={area} />
        </Tabs.Content>
      </Tabs.Root>
      <ConfirmRowDialog<DeleteTarget, null, null>
        actor={area.remove}
        title={() => t('aiTool.deleteTitle')}
        what={(row) => t('aiTool.deleteWhat', { label: row.label })}
        submitLabel={t('aiTool.delete')}
        payload={() => null}
      />
    </Page>
  );
}
