import { createHash } from 'node:crypto';

export interface Digests {
  sha256: string;
  sha512: string;
}

/** SHA-256 and SHA-512 of the exact bytes, standard padded base64 (CCX 2.0 and 3.0 alike). */
export function digestsOf(data: Buffer): Digests {
  return {
    sha256: createHash('sha256').update(data).digest('base64'),
    sha512: createHash('sha512').update(data).digest('base64'),
  };
}

/** Incremental digests for a file written piece by piece. */
export class DigestStream {
  private readonly sha256 = createHash('sha256');
  private readonly sha512 = createHash('sha512');
  size = 0;

  update(data: Buffer): void {
    this.sha256.update(data);
    this.sha512.update(data);
    this.size += data.length;
  }

  digest(): Digests {
    return { sha256: this.sha256.digest('base64'), sha512: this.sha512.digest('base64') };
  }
}

/** Whether a declared digest matches: base64 as the formats write it, or hex as some 2.0-era tools did. */
export function digestMatches(declared: string, actualBase64: string): boolean {
  if (declared === actualBase64) return true;
  return (
    /^[0-9a-f]+$/i.test(declared) && Buffer.from(actualBase64, 'base64').toString('hex') === declared.toLowerCase()
  );
}
