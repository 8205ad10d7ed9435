import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { SmsProvider } from './types';

/**
 * The embedded default: no SMS gateway. The code goes to the server log and is appended as
 * `mobile purpose code` to DATA_DIR/sms.log, where a developer (or a browser test) reads it.
 */
export function createLogSmsProvider(dataDir: string, log: FastifyBaseLogger): SmsProvider {
  const file = path.join(dataDir, 'sms.log');
  return {
    name: 'log',
    async send({ mobile, purpose, code }) {
      log.info({ mobile, purpose, code }, 'sms code (embedded provider)');
      await fs.mkdir(dataDir, { recursive: true });
      await fs.appendFile(file, `${mobile} ${purpose} ${code}\n`);
    },
  };
}
