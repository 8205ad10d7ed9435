import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import type { S3Config } from '../../server/platform/config';
import type { Clock } from '../../server/platform/lib/clock';

/**
 * A local S3 for the storage tests: s3rver (the only S3 server on npm) on a random port with its
 * files in a temp dir, behind a small front that does what s3rver does not:
 * - it checks the SigV4 signature of every presigned request (s3rver's source: "Signature version
 *   4 calculation is unimplemented" — it would serve a tampered URL), and its expiry against the
 *   tests' clock, as S3 does;
 * - it answers AbortMultipartUpload (s3rver answers 405) and records it;
 * - it refuses a CompleteMultipartUpload whose parts are not in ascending order (S3's
 *   InvalidPartOrder; s3rver sorts them).
 * - it refuses a CompleteMultipartUpload naming a part that was not uploaded or with another
 *   ETag (S3's InvalidPart; s3rver does not compare ETags and crashes on a missing part).
 * Everything else goes to s3rver unchanged.
 */
export interface S3TestServer {
  config: S3Config;
  /** Requests the front saw: `METHOD /bucket/key?query`. */
  seen: string[];
  close(): Promise<void>;
}

export const S3_BUCKET = 'test-bucket';
// s3rver's built-in account.
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';
const REGION = 'us-east-1';

const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
const hmac = (key: string | Buffer, text: string) =>
  createHmac('sha256', key).update(text).digest();

/** Why a presigned request is refused (SigV4, query authentication), or undefined when it is good. */
function presignProblem(request: http.IncomingMessage, now: number): string | undefined {
  const url = request.url ?? '/';
  const [pathPart, queryPart = ''] = url.split('?');
  const pairs = queryPart
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = decodeURIComponent(at < 0 ? pair : pair.slice(0, at));
      const value = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1));
      return [name, value] as const;
    });
  const query = new Map(pairs);
  const signature = query.get('X-Amz-Signature');
  const amzDate = query.get('X-Amz-Date') ?? '';
  const credential = (query.get('X-Amz-Credential') ?? '').split('/');
  const expires = Number(query.get('X-Amz-Expires'));
  const signedHeaders = query.get('X-Amz-SignedHeaders') ?? '';
  if (!signature || credential.length !== 5 || !Number.isFinite(expires)) return 'malformed';
  const signedAt = Date.parse(
    amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
  );
  if (!(signedAt <= now + 60_000) || now > signedAt + expires * 1000) return 'expired';
  const canonicalQuery = pairs
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headerNames = signedHeaders.split(';');
  const canonicalHeaders = headerNames
    .map((name) => {
      const value = request.headers[name];
      return `${name}:${(Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [
    request.method,
    pathPart,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const [accessKey, date, region, service] = credential;
  if (accessKey !== ACCESS_KEY) return 'unknown key';
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET_KEY}`, date), region), service), 'aws4_request');
  const expected = createHmac('sha256', key).update(toSign).digest('hex');
  return expected === signature ? undefined : 'signature';
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export async function startS3TestServer(clock: Clock): Promise<S3TestServer> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-s3rver-'));
  const s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: S3_BUCKET }],
  });
  const backend = await s3rver.run();
  const seen: string[] = [];
  /** ETags of the parts uploaded, by `uploadId:partNumber`. */
  const partEtags = new Map<string, string>();
  const bareEtag = (etag: string) => etag.replace(/&quot;|"/g, '');

  const front = http.createServer((request, response) => {
    const url = request.url ?? '/';
    seen.push(`${request.method} ${url}`);
    if (url.includes('X-Amz-Signature=')) {
      const problem = presignProblem(request, clock());
      if (problem) {
        request.resume();
        response.writeHead(403, { 'content-type': 'application/xml' });
        response.end(
          problem === 'expired'
            ? xmlError('AccessDenied', 'Request has expired')
            : xmlError('SignatureDoesNotMatch', `refused: ${problem}`),
        );
        return;
      }
    }
    if (request.method === 'DELETE' && /[?&]uploadId=/.test(url)) {
      request.resume();
      response.writeHead(204).end();
      return;
    }
    if (request.method === 'POST' && /[?&]uploadId=/.test(url)) {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const numbers = [...body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) =>
          Number(m[1]),
        );
        const uploadId = new URLSearchParams(url.split('?')[1] ?? '').get('uploadId');
        const named = [...body.toString().matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => [
          /<PartNumber>(\d+)<\/PartNumber>/.exec(m[1])?.[1],
          /<ETag>([^<]*)<\/ETag>/.exec(m[1])?.[1] ?? '',
        ]);
        const unknown =
          named.length !== numbers.length ||
          named.some(([n, etag]) => partEtags.get(`${uploadId}:${n}`) !== bareEtag(etag!));
        if (unknown) {
          response.writeHead(400, { 'content-type': 'application/xml' });
          response.end(
            xmlError('InvalidPart', 'One or more of the specified parts could not be found'),
          );
          return;
        }
        if (numbers.some((n, i) => i > 0 && n <= numbers[i - 1])) {
          response.writeHead(400, { 'content-type': 'application/xml' });
          response.end(
            xmlError('InvalidPartOrder', 'The list of parts was not in ascending order'),
          );
          return;
        }
        pass(Readable.from([body]));
      });
      return;
    }
    pass(request);

    function pass(body: Readable) {
      const forward = http.request(
        {
          host: backend.address,
          port: backend.port,
          method: request.method,
          path: url,
          headers: request.headers,
        },
        (answer) => {
          const query = new URLSearchParams(url.split('?')[1] ?? '');
          const etag = answer.headers.etag;
          if (
            request.method === 'PUT' &&
            query.get('uploadId') &&
            query.get('partNumber') &&
            etag
          ) {
            partEtags.set(`${query.get('uploadId')}:${query.get('partNumber')}`, bareEtag(etag));
          }
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forward.on('error', (error) => response.destroy(error));
      body.pipe(forward);
    }
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as AddressInfo;

  return {
    config: {
      endpoint: `http://127.0.0.1:${port}`,
      bucket: S3_BUCKET,
      region: REGION,
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET_KEY,
    },
    seen,
    async close() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await s3rver.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
