import type { Request, Response } from 'express';
import multer from 'multer';
import { tlsEndpoints as api } from '@rhizome/contracts/api/tls';
import { ApiError, NotFound } from '@rhizome/contracts/errors';
import type { RouteTable } from '../http/route.ts';
import { multipartParseError } from '../http/upload.ts';
import type { CortexDeps } from '../deps.ts';
import { selfSignedCredentials, tlsStoreOf } from '../tls/index.ts';

/** A certificate chain or a key is a few kilobytes; a megabyte is no PEM file. */
const maxPemBytes = 1024 * 1024;
const pemFields = ['cert_file', 'key_file'] as const;

type PemUpload = Partial<Record<(typeof pemFields)[number], string>>;
const receivedKey = Symbol('tls-upload');
type WithPem = Request & { [receivedKey]?: PemUpload };

/** The two PEM parts of a multipart request, read into memory; a part over the limit is a 413. */
async function receivePem(req: Request, res: Response): Promise<void> {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxPemBytes, files: 2, fields: 10 },
  }).fields(pemFields.map((name) => ({ name, maxCount: 1 })));
  const failure = await new Promise<unknown>((resolve) => upload(req, res, resolve));
  if (failure instanceof multer.MulterError) {
    if (failure.code === 'LIMIT_FILE_SIZE') throw ApiError.payloadTooLarge(maxPemBytes);
    throw ApiError.validation([
      {
        loc: ['body', failure.field ?? 'file'],
        msg: `Send cert_file and key_file only (${failure.message})`,
        type: 'value_error',
      },
    ]);
  }
  if (failure) throw multipartParseError(failure);
  const files = (req.files ?? {}) as Record<string, Express.Multer.File[] | undefined>;
  const received: PemUpload = {};
  for (const name of pemFields) {
    const file = files[name]?.[0];
    if (file) received[name] = file.buffer.toString('utf8');
  }
  (req as WithPem)[receivedKey] = received;
}

/** HTTPS for the server itself: a self-signed or installed certificate, its status, and back to HTTP. */
export function mountTlsRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const store = tlsStoreOf(platform);
  routes.add(api.status, () => store.status());
  routes.add(api.selfSigned, async ({ query }) => {
    const { cert, key } = await selfSignedCredentials(query.hostname);
    platform.logger.info(
      `TLS: a self-signed certificate for ${query.hostname ?? 'localhost'} is installed; HTTPS is on`,
    );
    return { status: 'enabled' as const, ...store.install(cert, key, 'self-signed') };
  });
  routes.add(
    api.custom,
    ({ req }) => {
      const { cert_file: cert, key_file: key } = (req as WithPem)[receivedKey] ?? {};
      const missing = pemFields.filter((name) => !(req as WithPem)[receivedKey]?.[name]);
      if (!cert || !key)
        throw ApiError.validation(
          missing.map((name) => ({ loc: ['body', name], msg: `${name} is required (a PEM file)`, type: 'missing' })),
        );
      const status = store.install(cert, key, 'custom');
      platform.logger.info(
        `TLS: the certificate of ${status.subject ?? 'an unnamed subject'} is installed; HTTPS is on`,
      );
      return { status: 'enabled' as const, ...status };
    },
    receivePem,
  );
  routes.add(api.certificate, ({ res }) => {
    const credentials = store.read();
    if (!credentials) throw NotFound.resource('TLS certificate', 'current');
    res.setHeader('content-type', 'application/x-pem-file');
    res.setHeader('content-disposition', 'attachment; filename="rhizome.pem"');
    res.send(credentials.cert);
  });
  routes.add(api.remove, () => {
    store.remove();
    platform.logger.info('TLS: the certificate is removed; plain HTTP again');
  });
}
