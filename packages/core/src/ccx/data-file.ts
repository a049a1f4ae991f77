import { once } from 'node:events';
import fs from 'node:fs';
import { finished } from 'node:stream/promises';
import { DigestStream, type Digests } from './checksums.ts';

/** A data file written piece by piece to disk (never whole in memory), digested as it goes. */
export class DataFileWriter {
  private readonly stream: fs.WriteStream;
  private readonly digests = new DigestStream();
  private failure: Error | null = null;

  constructor(readonly path: string) {
    this.stream = fs.createWriteStream(path);
    // Writes complete after write() returns: a failure between calls is kept here and thrown by the next call,
    // never left as an unhandled 'error' event (which ends the process).
    this.stream.on('error', (error) => (this.failure ??= error));
  }

  async write(text: string): Promise<void> {
    this.throwIfFailed();
    const data = Buffer.from(text, 'utf8');
    this.digests.update(data);
    if (!this.stream.write(data)) await once(this.stream, 'drain');
  }

  async close(): Promise<Digests & { size: number }> {
    this.throwIfFailed();
    this.stream.end();
    await finished(this.stream);
    return { ...this.digests.digest(), size: this.digests.size };
  }

  /** Stops writing and removes the file (the export failed, or the file has no content). */
  async discard(): Promise<void> {
    this.stream.destroy();
    // The file is closed (and a pending open or write settled) before it is removed, so nothing recreates it.
    await finished(this.stream).catch(() => undefined);
    await fs.promises.rm(this.path, { force: true });
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
