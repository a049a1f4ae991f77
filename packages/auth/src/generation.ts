import fs from 'node:fs';

/**
 * A counter file that writers bump in place after changing a file, so readers in other processes can
 * notice the change with one 8-byte read on an open descriptor instead of a stat of the path — the
 * cheapest way for auth-verify to see a logout or revocation on the very next request.
 */
export class GenerationCounter {
  private fd: number | undefined;
  private readonly buffer = Buffer.alloc(8);

  constructor(readonly file: string) {}

  /** The current value; -1 when the counter file does not exist yet. */
  current(): number {
    if (this.fd === undefined) {
      try {
        this.fd = fs.openSync(this.file, 'r');
      } catch {
        return -1;
      }
    }
    return fs.readSync(this.fd, this.buffer, 0, 8, 0) === 8 ? Number(this.buffer.readBigUInt64LE(0)) : -1;
  }

  /** Increments the counter in place; a write of 8 bytes at offset 0 is never seen half-done. */
  bump(): void {
    const fd = fs.openSync(this.file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
    try {
      const buffer = Buffer.alloc(8);
      const previous = fs.readSync(fd, buffer, 0, 8, 0) === 8 ? buffer.readBigUInt64LE(0) : 0n;
      buffer.writeBigUInt64LE(previous + 1n);
      fs.writeSync(fd, buffer, 0, 8, 0);
    } finally {
      fs.closeSync(fd);
    }
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
