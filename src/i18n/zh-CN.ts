import type { MessageId } from './en-US';
import signedInZhCN from './signed-in-zh-CN';
import signedOutZhCN from './signed-out-zh-CN';

/** The zh-CN catalogue, both parts (see en-US.ts). */
const zhCN: Record<MessageId, string> = { ...signedOutZhCN, ...signedInZhCN };

export default zhCN;
