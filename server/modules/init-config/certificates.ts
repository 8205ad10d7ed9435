import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  CERT_MAX_BYTES,
  certKindSchema,
  type CertKind,
} from '../../../src/api/contract/init-config';
import { AppError, refuse } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';

/**
 * The WeChat Pay files of `POST /init_config/upload_cert` (multipart: `kind`, then `file`): the
 * merchant's RSA private key (`apiclient_key.pem`) or its certificate (`apiclient_cert.pem`), each
 * one PEM block of the right kind that Node's crypto opens. Read into memory (16 KB at most).
 */
export async function readCertificateForm(
  request: FastifyRequest,
): Promise<{ kind: CertKind; pem: string }> {
  if (!request.isMultipart()) throw refuse('initConfig.fileMissing');
  let kind: unknown;
  let part: MultipartFile | undefined;
  let bytes: Buffer | undefined;
  try {
    for await (const next of request.parts({
      limits: { fileSize: CERT_MAX_BYTES, files: 1, fields: 2, parts: 3 },
    })) {
      if (next.type === 'file') {
        part = next;
        bytes = await next.toBuffer();
        break;
      }
      if (next.fieldname === 'kind') kind = next.value;
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw refuse('initConfig.fileTooLarge', { max: `${CERT_MAX_BYTES / 1024} KB` });
    }
    if (error instanceof AppError) throw error;
    throw new AppError('request.bad', {}, 400);
  }
  const input = parseInput(certKindSchema, { kind }, request.locale);
  if (!part || !bytes || bytes.length === 0) throw refuse('initConfig.fileMissing');
  const pem = bytes.toString('utf8').trim();
  if (input.kind === 'private_key' ? !isRsaPrivateKey(pem) : !isCertificate(pem)) {
    throw refuse(
      input.kind === 'private_key' ? 'initConfig.badPrivateKey' : 'initConfig.badCertificate',
    );
  }
  return { kind: input.kind, pem: `${pem}\n` };
}

const block = (pem: string, label: RegExp) =>
  new RegExp(
    `^-----BEGIN (${label.source})-----\\r?\\n[A-Za-z0-9+/=\\r\\n]+-----END \\1-----$`,
  ).test(pem);

function isRsaPrivateKey(pem: string): boolean {
  if (!block(pem, /PRIVATE KEY|RSA PRIVATE KEY/)) return false;
  try {
    return createPrivateKey(pem).asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
}

function isCertificate(pem: string): boolean {
  if (!block(pem, /CERTIFICATE/)) return false;
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}
