import os from 'node:os';
import { isIP } from 'node:net';
import { generate } from 'selfsigned';

const validDays = 825;

/**
 * A self-signed certificate for this machine: ECDSA P-256 (as strong as RSA-3072, made in milliseconds where
 * an RSA-4096 key takes seconds), SHA-256, valid 825 days, naming localhost,
 * 127.0.0.1, ::1, the host's name and `hostname` when given (the name clients will use).
 */
export async function selfSignedCredentials(hostname?: string): Promise<{ cert: string; key: string }> {
  const names = [...new Set(['localhost', os.hostname(), ...(hostname ? [hostname] : [])])];
  const addresses = ['127.0.0.1', '::1', ...names.filter((name) => isIP(name))];
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate.getTime() + validDays * 86_400_000);
  const generated = await generate(
    [
      { name: 'commonName', value: hostname ?? 'localhost' },
      { name: 'organizationName', value: 'Rhizome' },
    ],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            ...names.filter((name) => !isIP(name)).map((value) => ({ type: 2 as const, value })),
            ...[...new Set(addresses)].map((ip) => ({ type: 7 as const, ip })),
          ],
        },
      ],
    },
  );
  return { cert: generated.cert, key: generated.private };
}
