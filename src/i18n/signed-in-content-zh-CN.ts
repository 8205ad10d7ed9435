import { contentValidationZhCN } from '../api/contract/messages-zh-CN';
import type signedInContentEnUS from './signed-in-content-en-US';

/** The zh-CN messages of the articles and agreements pages (see signed-in-content-en-US.ts). */
const signedInContentZhCN: Record<keyof typeof signedInContentEnUS, string> = {
  ...contentValidationZhCN,
};

export default signedInContentZhCN;
