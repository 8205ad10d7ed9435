import signedInEnUS from './signed-in-en-US';
import signedOutEnUS from './signed-out-en-US';

/**
 * The en-US catalogue defines the message ids; zh-CN must have every one (checked by the
 * compiler). The console loads it in two parts (src/i18n/messages.ts): what the signed-out pages
 * need, and the rest with the session. This whole catalogue is for the tests and the types.
 */
const enUS = { ...signedOutEnUS, ...signedInEnUS } as const;

export default enUS;
export type MessageId = keyof typeof enUS;
