import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import type { PlatformImage } from '../../src/api/contract/platform-images';
import { UPLOAD_GRANT_HEADER, type UploadTokenReply } from '../../src/api/contract/resources';
import { api, type Reply, type TestApp } from './helpers';

/** Shared steps of the upload suites: grants, tus requests through inject, what is on disk. */

export const EN = { lang: 'en-US' };

export function grant(
  t: TestApp,
  token: string,
  query: { type: string; name: string; size: number | string },
): Promise<Reply<UploadTokenReply>> {
  return t.call<UploadTokenReply>('GET', api('/upload/generate_sts_token'), {
    token,
    query: { type: query.type, name: query.name, size: String(query.size) },
    headers: EN,
  });
}

/** A tus request through inject (the grant header, tus's version header). */
export async function tusCall(
  t: TestApp,
  method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: Buffer,
) {
  const response = await t.app.inject({
    method,
    url,
    headers: { 'tus-resumable': '1.0.0', ...EN, ...headers },
    ...(payload ? { payload } : {}),
  });
  let body: { code: number; msg: string } | undefined;
  try {
    body = response.json();
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body, raw: response.body };
}

/** Creates the tus upload of a grant and sends `bytes` in one PATCH; answers the last reply. */
export async function tusSend(t: TestApp, granted: UploadTokenReply, bytes: Buffer) {
  const headers = granted.tus!.headers;
  const created = await tusCall(t, 'POST', granted.tus!.endpoint, {
    ...headers,
    'upload-length': String(bytes.length),
  });
  if (created.status !== 201) return created;
  const location = String(created.headers.location);
  return tusCall(
    t,
    'PATCH',
    location,
    {
      ...headers,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    bytes,
  );
}

/** Grant + tus upload as `token`; throws unless both succeed. Answers the upload key. */
export async function uploadBytes(
  t: TestApp,
  token: string,
  type: string,
  name: string,
  bytes: Buffer,
): Promise<string> {
  const granted = await grant(t, token, { type, name, size: bytes.length });
  if (granted.body.code !== 1) throw new Error(`grant refused: ${granted.raw}`);
  const sent = await tusSend(t, granted.body.data, bytes);
  if (sent.status !== 204) throw new Error(`tus upload failed: ${sent.status} ${sent.raw}`);
  return granted.body.data.upload_key;
}

/** Every file under `dir` (relative paths), none when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

export const grantHeader = (granted: UploadTokenReply) => granted.tus!.headers[UPLOAD_GRANT_HEADER];

/** A small ZIP archive (one stored file), as a JPEG+ZIP polyglot appends one. */
export function zipOf(name: string, content: Buffer): Buffer {
  const crc = zlib.crc32(content);
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const localPart = Buffer.concat([local, fileName, content]);
  const centralPart = Buffer.concat([central, fileName]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(centralPart.length, 12);
  end.writeUInt32LE(localPart.length, 16);
  return Buffer.concat([localPart, centralPart, end]);
}

/**
 * `POST /upload/platform_image` as a browser's form sends it: `purpose`, then the file (its name
 * as given). `token` undefined: no session.
 */
export async function uploadPlatformImage(
  t: TestApp,
  token: string | undefined,
  purpose: string,
  name: string,
  bytes: Buffer,
  lang = 'en-US',
): Promise<Reply<PlatformImage>> {
  const boundary = '----vc-platform-image';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n`,
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await t.app.inject({
    method: 'POST',
    url: api('/upload/platform_image'),
    headers: {
      ...(token === undefined ? {} : { token }),
      'content-type': `multipart/form-data; boundary=${boundary}`,
      lang,
    },
    payload,
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.json(),
    raw: response.body,
  };
}
