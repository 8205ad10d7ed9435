// @vitest-environment node
/**
 * The batch authorisation panel's live QR encoder (src/app/actors/matrix-batch-links.ts, the
 * `qrcode` package): a link's address becomes a PNG data URL of the panel's size. (The view tests
 * give the panel a fake encoder.)
 */
import { expect, test } from 'vitest';
import { matrixBatchLinksArea } from '../../src/app/actors/matrix-batch-links';

test('a link’s address is drawn as a PNG of 320 pixels', async () => {
  const url = 'https://console.example/batchAuthorization?token=abcdefghijklmnopqrstuvwxyz012345';
  const png = await matrixBatchLinksArea.live().drawQr(url);
  expect(png.startsWith('data:image/png;base64,')).toBe(true);
  const bytes = Buffer.from(png.slice('data:image/png;base64,'.length), 'base64');
  // The PNG header's width and height (IHDR, big-endian at 16 and 20).
  expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([320, 320]);
});
