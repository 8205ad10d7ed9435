import signedInAuditEnUS from './signed-in-audit-en-US';
import signedInAiToolEnUS from './signed-in-ai-tool-en-US';
import signedInContentEnUS from './signed-in-content-en-US';
import signedInCreationEnUS from './signed-in-creation-en-US';
import signedInDigitalHumanEnUS from './signed-in-digital-human-en-US';
import signedInDomainsEnUS from './signed-in-domains-en-US';
import signedInEnUS from './signed-in-en-US';
import signedInMatrixEnUS from './signed-in-matrix-en-US';
import signedInMoneyEnUS from './signed-in-money-en-US';
import signedOutEnUS from './signed-out-en-US';
import signedOutBatchAuthEnUS from './signed-out-batch-auth-en-US';
import signedInSystemInitEnUS from './signed-in-system-init-en-US';
import signedInSettingsEnUS from './signed-in-settings-en-US';

/**
 * The en-US catalogue defines the message ids; zh-CN must have every one (checked by the
 * compiler, part by part). The console loads it in parts (src/i18n/messages.ts): what the
 * signed-out pages need, what every session shows, and the large areas' parts with their pages.
 * This whole catalogue is for the tests and the types.
 */
const enUS = {
  ...signedOutEnUS,
  ...signedInEnUS,
  ...signedInMoneyEnUS,
  ...signedInCreationEnUS,
  ...signedInDigitalHumanEnUS,
  ...signedInMatrixEnUS,
  ...signedInDomainsEnUS,
  ...signedOutBatchAuthEnUS,
  ...signedInAuditEnUS,
  ...signedInSystemInitEnUS,
  ...signedInSettingsEnUS,
  ...signedInAiToolEnUS,
  ...signedInContentEnUS,
} as const;

export default enUS;
export type MessageId = keyof typeof enUS;
