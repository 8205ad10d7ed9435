import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config';
import { createLogSmsProvider } from './log';
import type { SmsProvider } from './types';

export type { SmsMessage, SmsProvider } from './types';

/** The configured SMS provider: the embedded log until a gateway adapter is added here. */
export function createSmsProvider(config: Config, log: FastifyBaseLogger): SmsProvider {
  return createLogSmsProvider(config.dataDir, log);
}
