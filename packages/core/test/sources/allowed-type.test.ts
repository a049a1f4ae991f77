import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allowedType } from '../../src/sources/loaders/allowed-type.ts';

describe('allowedType: the one upload type check of REST uploads and MCP add_document', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'allowed-type-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, bytes: string | Buffer) => {
    const at = path.join(dir, name);
    fs.writeFileSync(at, bytes);
    return at;
  };

  it('takes a readable type the allowlist admits, by its bytes, and names the file when refusing', async () => {
    const note = file('note.txt', 'Marie Curie was born in Warsaw in 1867.\n');
    const type = await allowedType(note, 'note.txt', ['*']);
    expect(type).toMatchObject({ mediaType: 'text/plain' });
    expect(await allowedType(note, 'note.txt', ['text/plain'])).toEqual(type);
    expect(await allowedType(note, 'note.txt', ['application/pdf'])).toEqual({
      refused: "'note.txt' is text/plain, which batching.allowed_content_types does not allow",
    });
    const binary = file('data.txt', Buffer.from([0, 159, 146, 150, 0, 1, 2, 3, 255, 254, 0, 0]));
    expect(await allowedType(binary, 'data.txt', ['*'])).toEqual({
      refused: "'data.txt' is not a file type Rhizome can read",
    });
  });
});
