import { once } from 'node:events';
import fs from 'node:fs';
import { DigestStream, type Digests } from './checksums.ts';

/** A data file written piece by piece to disk (never whole in memory), digested as it goes. */
export class DataFileWriter {
  private readonly stream: fs.WriteStream;
  private readonly digests = new DigestStream();

  constructor(readonly path: string) {
    this.stream = fs.createWriteStream(path);
  }

  async write(text: string): Promise<void> {
    const data = Buffer.from(text, 'utf8');
    this.digests.update(data);
    if (!this.stream.write(data)) await once(this.stream, 'drain');
  }

  async close(): Promise<Digests & { size: number }> {
    this.stream.end();
    await once(this.stream, 'finish');
    return { ...this.digests.digest(), size: this.digests.size };
  }

  /** Stops writing and removes the file (the export failed). */
  async discard(): Promise<void> {
    this.stream.destroy();
    await fs.promises.rm(this.path, { force: true });
  }
}
