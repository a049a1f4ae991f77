import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BadInput } from '@rhizome/contracts/errors';

export type TlsMode = 'self-signed' | 'custom';

/** The certificate and key the server answers HTTPS with. */
export interface TlsCredentials {
  cert: string;
  key: string;
  mode: TlsMode;
}

export interface TlsStatus {
  enabled: boolean;
  mode: TlsMode | null;
  subject: string | null;
  issuer: string | null;
  valid_from: string | null;
  valid_to: string | null;
  fingerprint256: string | null;
  hostnames: string[];
}

const files = { cert: 'cert.pem', key: 'key.pem', mode: 'mode' } as const;

/** PEM text that parses as a certificate and a private key belonging to it; a 400 naming the field at fault otherwise. */
function checkedCredentials(cert: string, key: string): crypto.X509Certificate {
  let certificate: crypto.X509Certificate;
  try {
    certificate = new crypto.X509Certificate(cert);
  } catch {
    throw BadInput.field('cert_file is not a PEM certificate', 'cert_file');
  }
  let privateKey: crypto.KeyObject;
  try {
    privateKey = crypto.createPrivateKey(key);
  } catch {
    throw BadInput.field(
      'key_file is not a PEM private key (an encrypted key needs its passphrase removed)',
      'key_file',
    );
  }
  if (!certificate.checkPrivateKey(privateKey))
    throw BadInput.field('key_file is not the private key of the certificate in cert_file', 'key_file');
  return certificate;
}

const hostnamesOf = (certificate: crypto.X509Certificate) =>
  (certificate.subjectAltName ?? '')
    .split(',')
    .map((entry) => entry.trim().replace(/^(DNS|IP Address):/, ''))
    .filter(Boolean);

/**
 * The server's TLS credentials in `<data dir>/tls/`: the certificate, its key (readable by the owner
 * only) and how they came (self-signed here or installed). Listeners are told of every change, so a
 * running server switches to HTTPS, to a new certificate or back to HTTP without a restart.
 */
export class TlsStore {
  private readonly listeners = new Set<(credentials: TlsCredentials | null) => void>();

  constructor(readonly dir: string) {}

  /** Where the certificate and key are, for a server that reads them itself (nginx in front of the stack). */
  get files(): { cert: string; key: string } {
    return { cert: path.join(this.dir, files.cert), key: path.join(this.dir, files.key) };
  }

  read(): TlsCredentials | null {
    try {
      const [cert, key, mode] = Object.values(files).map((name) => fs.readFileSync(path.join(this.dir, name), 'utf8'));
      return { cert, key, mode: mode.trim() === 'custom' ? 'custom' : 'self-signed' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  status(): TlsStatus {
    const credentials = this.read();
    if (!credentials)
      return {
        enabled: false,
        mode: null,
        subject: null,
        issuer: null,
        valid_from: null,
        valid_to: null,
        fingerprint256: null,
        hostnames: [],
      };
    const certificate = new crypto.X509Certificate(credentials.cert);
    return {
      enabled: true,
      mode: credentials.mode,
      subject: certificate.subject,
      issuer: certificate.issuer,
      valid_from: new Date(certificate.validFrom).toISOString(),
      valid_to: new Date(certificate.validTo).toISOString(),
      fingerprint256: certificate.fingerprint256,
      hostnames: hostnamesOf(certificate),
    };
  }

  /** Checks the pair, then writes it (each file whole: written aside, then renamed over the old one). */
  install(cert: string, key: string, mode: TlsMode): TlsStatus {
    checkedCredentials(cert, key);
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const write = (name: string, text: string, fileMode: number) => {
      const target = path.join(this.dir, name);
      const aside = `${target}.${process.pid}.tmp`;
      fs.writeFileSync(aside, text, { mode: fileMode });
      fs.renameSync(aside, target);
    };
    write(files.key, key, 0o600);
    write(files.cert, cert, 0o644);
    write(files.mode, mode, 0o644);
    this.announce();
    return this.status();
  }

  remove(): void {
    for (const name of Object.values(files)) fs.rmSync(path.join(this.dir, name), { force: true });
    this.announce();
  }

  onChange(listener: (credentials: TlsCredentials | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private announce(): void {
    const credentials = this.read();
    for (const listener of this.listeners) listener(credentials);
  }
}

/** The TLS store of a data directory, in `<data dir>/tls/`. */
export function tlsStoreIn(dataDir: string): TlsStore {
  return new TlsStore(path.join(dataDir, 'tls'));
}
