import fs from 'node:fs';
import path from 'node:path';

/**
 * Replaces `file` atomically (write `<file>.tmp`, fsync, rename) so a reader in another process
 * never sees half a file. Mode 0600: the settings file stores secrets.
 */
export function writeFileAtomic(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  const fd = fs.openSync(temporary, 'w', 0o600);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } catch (error) {
    // A full disk leaves a half-written temporary file; the settings file stays as it was.
    fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  // A temporary file left over by a crash keeps its old mode when reopened.
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}
