import type { MessageId } from './en-US';
import signedInAuditZhCN from './signed-in-audit-zh-CN';
import signedInAiToolZhCN from './signed-in-ai-tool-zh-CN';
import signedInContentZhCN from './signed-in-content-zh-CN';
import signedInCreationZhCN from './signed-in-creation-zh-CN';
import signedInDigitalHumanZhCN from './signed-in-digital-human-zh-CN';
import signedInDomainsZhCN from './signed-in-domains-zh-CN';
import signedInMatrixZhCN from './signed-in-matrix-zh-CN';
import signedInMoneyZhCN from './signed-in-money-zh-CN';
import signedInZhCN from './signed-in-zh-CN';
import signedOutZhCN from './signed-out-zh-CN';
import signedOutBatchAuthZhCN from './signed-out-batch-auth-zh-CN';
import signedInSystemInitZhCN from './signed-in-system-init-zh-CN';
import signedInSettingsZhCN from './signed-in-settings-zh-CN';

/** The zh-CN catalogue, every part (see en-US.ts). */
const zhCN: Record<MessageId, string> = {
  ...signedOutZhCN,
  ...signedInZhCN,
  ...signedInMoneyZhCN,
  ...signedInCreationZhCN,
  ...signedInDigitalHumanZhCN,
  ...signedInMatrixZhCN,
  ...signedInDomainsZhCN,
  ...signedOutBatchAuthZhCN,
  ...signedInAuditZhCN,
  ...signedInSystemInitZhCN,
  ...signedInSettingsZhCN,
  ...signedInAiToolZhCN,
  ...signedInContentZhCN,
};

export default zhCN;
