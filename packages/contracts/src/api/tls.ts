import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Nullable } from './common.ts';

const tag = 'settings';

const TlsMode = Type.Union([Type.Literal('self-signed'), Type.Literal('custom')]);

export const TlsStatusSchema = Type.Object({
  enabled: Type.Boolean(),
  mode: Nullable(TlsMode),
  subject: Nullable(Type.String()),
  issuer: Nullable(Type.String()),
  valid_from: Nullable(Type.String({ format: 'date-time' })),
  valid_to: Nullable(Type.String({ format: 'date-time' })),
  fingerprint256: Nullable(Type.String()),
  /** The DNS names and addresses the certificate is valid for. */
  hostnames: Type.Array(Type.String()),
});

const Enabled = Type.Composite([Type.Object({ status: Type.Literal('enabled') }), TlsStatusSchema]);

export const tlsEndpoints = {
  status: endpoint({
    method: 'GET',
    path: '/settings/tls/status',
    tag,
    status: 200,
    summary: 'Whether the server answers HTTPS, and the certificate it answers with',
    response: TlsStatusSchema,
  }),
  selfSigned: endpoint({
    method: 'POST',
    path: '/settings/tls/selfsigned',
    tag,
    status: 200,
    errors: [422],
    summary:
      'Generate a self-signed certificate (ECDSA P-256, localhost, 127.0.0.1 and the host name, plus `hostname`) and switch to HTTPS; replaces any certificate',
    query: Type.Object({
      hostname: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 253,
          pattern: '^[A-Za-z0-9.:-]+$',
          description: 'an extra name to certify',
        }),
      ),
    }),
    response: Enabled,
  }),
  custom: endpoint({
    method: 'POST',
    path: '/settings/tls/custom',
    tag,
    status: 200,
    errors: [400, 413, 422],
    consumes: 'multipart/form-data',
    files: { field: 'cert_file', multiple: false },
    summary:
      'Install a PEM certificate (cert_file, its chain after it) and its unencrypted PEM key (key_file) and switch to HTTPS; a pair that does not match is refused',
    response: Enabled,
  }),
  certificate: endpoint({
    method: 'GET',
    path: '/settings/tls/certificate',
    tag,
    status: 200,
    errors: [404],
    produces: 'application/x-pem-file',
    summary:
      'The certificate the server answers HTTPS with, as PEM: what a client adds to its trust store for a self-signed one',
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/settings/tls',
    tag,
    status: 204,
    summary: 'Remove the certificate and answer plain HTTP again',
  }),
};
