import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { containerKind } from '../../../src/sources/unpack/kind.ts';
import type { UnpackLimits } from '../../../src/sources/unpack/limits.ts';
import { UnpackRefusal } from '../../../src/sources/unpack/refusal.ts';
import { unpack } from '../../../src/sources/unpack/unpack.ts';
import { gzipped, tarArchive, zipArchive, zipWithRawName } from './archives.ts';

const limits: UnpackLimits = {
  maxMembers: 10,
  maxTotalBytes: 200_000,
  maxMemberBytes: 120_000,
  maxRatio: 100,
  ratioFloorBytes: 50_000,
  maxDepth: 3,
};

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-unpack-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function unpacked(filename: string, bytes: Buffer, bounds: Partial<UnpackLimits> = {}) {
  const file = path.join(dir, 'upload');
  fs.writeFileSync(file, bytes);
  const kind = await containerKind(file, filename);
  if (!kind) throw new Error(`${filename} is no container`);
  return unpack({
    path: file,
    filename,
    kind,
    dir: path.join(dir, 'incoming'),
    limits: { ...limits, ...bounds },
    allowed: ['*'],
  });
}

/** The refusal's message, and that no member file was left behind. */
async function refusal(filename: string, bytes: Buffer, bounds: Partial<UnpackLimits> = {}): Promise<string> {
  const error = await unpacked(filename, bytes, bounds).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UnpackRefusal);
  const incoming = path.join(dir, 'incoming');
  expect(fs.existsSync(incoming) ? fs.readdirSync(incoming) : []).toEqual([]);
  return (error as Error).message;
}

/** Random words: text that compresses about as much as prose does. */
function prose(bytes: number): string {
  const words = ['harbour', 'tide', 'keeper', 'lantern', 'gull', 'rope', 'ferry', 'salt', 'mast', 'quay'];
  let text = '';
  while (text.length < bytes)
    text += `${words[Math.floor(Math.random() * words.length)]}${Math.random().toString(36).slice(2, 5)} `;
  return text.slice(0, bytes);
}

describe('unpacking archives', () => {
  it('names zip members by their path, keeps readable ones and lists the others', async () => {
    const zip = await zipArchive([
      { name: 'notes/a.md', content: '# A\n\nSee [b](b.md).\n' },
      { name: 'notes/deep/b.txt', content: 'plain words' },
      { name: 'bin/tool.bin', content: Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0]) },
    ]);
    const result = await unpacked('bundle.zip', zip);
    expect(result.members.map((member) => [member.filename, member.format])).toEqual([
      ['notes/a.md', 'markdown'],
      ['notes/deep/b.txt', 'text'],
    ]);
    expect(result.refused).toEqual([
      { filename: 'bin/tool.bin', error: "'bin/tool.bin' is not a file type Rhizome can read" },
    ]);
    expect(fs.readFileSync(result.members[0].path, 'utf8')).toContain('See [b](b.md)');
  });

  it('reads tar and tar.gz, and a zip inside a tar under its own path', async () => {
    const inner = await zipArchive([{ name: 'inner.md', content: '# Inner\n' }]);
    const tar = tarArchive([
      { name: 'docs/', type: '5' },
      { name: 'docs/one.md', content: '# One\n' },
      { name: 'docs/pack.zip', content: inner },
    ]);
    for (const [name, bytes] of [
      ['docs.tar', tar],
      ['docs.tgz', gzipped(tar)],
    ] as const) {
      const result = await unpacked(name, bytes);
      expect(result.members.map((member) => member.filename)).toEqual(['docs/one.md', 'docs/pack.zip/inner.md']);
      expect(result.refused).toEqual([]);
    }
  });

  it('refuses a path outside the archive, an absolute path, a link and a device', async () => {
    expect(await refusal('up.zip', await zipWithRawName('../x.md', 'escape'))).toContain('"../x.md"');
    expect(await refusal('abs.zip', await zipWithRawName('/etc/x.md', 'absolute'))).toContain('"/etc/x.md"');
    expect(
      await refusal('link.zip', await zipArchive([{ name: 'link.md', content: '/etc/passwd', mode: 0o120777 }])),
    ).toBe("'link.zip' holds 'link.md', a link or device rather than a file");
    expect(await refusal('up.tar', tarArchive([{ name: 'a/../../x.md', content: 'x' }]))).toContain(
      "'a/../../x.md', a path outside the archive",
    );
    expect(await refusal('link.tar', tarArchive([{ name: 'l', type: '2', linkname: '/etc/passwd' }]))).toContain(
      "'l', a SymbolicLink rather than a file",
    );
    expect(await refusal('hard.tar', tarArchive([{ name: 'h', type: '1', linkname: 'x' }]))).toContain('a Link');
    expect(await refusal('dev.tar', tarArchive([{ name: 'tty', type: '3' }]))).toContain('a CharacterDevice');
  });

  it('refuses past the member count, the member size, the total size and the ratio', async () => {
    const many = Array.from({ length: 11 }, (_, index) => ({ name: `n${index}.txt`, content: `note ${index}` }));
    expect(await refusal('many.zip', await zipArchive(many))).toBe(
      "'many.zip' has 11 entries, more than the limit of 10",
    );
    expect(await refusal('many.tar', tarArchive(many))).toBe("'many.tar' has more than 10 members (at 'n10.txt')");
    expect(await refusal('big.tar', tarArchive([{ name: 'big.txt', content: prose(130_000) }]))).toContain(
      "has a member larger than 120000 bytes (batching.max_upload_bytes): 'big.txt'",
    );
    const two = [
      { name: 'one.txt', content: prose(110_000) },
      { name: 'two.txt', content: prose(110_000) },
    ];
    expect(await refusal('two.tar.gz', gzipped(tarArchive(two)))).toContain(
      "unpacks to more than 200000 bytes (at 'two.txt'",
    );
    const zeros = await zipArchive([{ name: 'zeros.txt', content: Buffer.alloc(100_000, 'a') }]);
    expect(await refusal('bomb.zip', zeros)).toBe(
      "'bomb.zip' expands to more than 100 times its size, as a zip bomb does (at 'zeros.txt')",
    );
  });

  it('refuses a damaged archive', async () => {
    const zip = await zipArchive([{ name: 'a.txt', content: prose(5000) }]);
    zip.fill(0x55, 40, 400);
    expect(await refusal('broken.zip', zip)).toMatch(/^'broken.zip' is damaged|^'broken.zip' is not a valid zip/);
    const tar = tarArchive([{ name: 'a.txt', content: 'words' }]);
    tar.fill(0x41, 148, 156);
    expect(await refusal('broken.tar', tar)).toMatch(/^'broken.tar' is not a readable tar archive/);
  });
});

const message = (subject: string, body: string, extra = '') =>
  [
    'From: Alice Archer <alice@example.org>',
    'To: Bob Baker <bob@example.org>, carol@example.org',
    `Subject: ${subject}`,
    'Date: Tue, 1 Mar 2022 10:00:00 +0000',
    `Message-ID: <${subject.replace(/\W/g, '')}@example.org>`,
    extra,
    '',
    body,
  ]
    .filter((line, index) => line !== '' || index > 5)
    .join('\n');

describe('unpacking mail', () => {
  it('makes an .eml its message, with headers as metadata, and its attachment a member', async () => {
    const eml = [
      'From: Alice Archer <alice@example.org>',
      'To: Bob Baker <bob@example.org>',
      'Subject: Harbour survey',
      'Date: Tue, 1 Mar 2022 10:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>The <b>quayside</b> survey is attached.</p>',
      '--b1',
      'Content-Type: text/plain; name="survey.txt"',
      'Content-Disposition: attachment; filename="survey.txt"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('Depth at the quay: four fathoms.').toString('base64'),
      '--b1--',
      '',
    ].join('\r\n');
    const result = await unpacked('survey.eml', Buffer.from(eml));
    expect(result.members.map((member) => member.filename)).toEqual(['survey.eml', 'survey.eml/survey.txt']);
    const [mail, attachment] = result.members;
    expect(mail.title).toBe('Harbour survey');
    expect(mail.metadata).toMatchObject({
      mail: {
        from: [{ name: 'Alice Archer', address: 'alice@example.org' }],
        to: [{ name: 'Bob Baker', address: 'bob@example.org' }],
        date: '2022-03-01T10:00:00.000Z',
        subject: 'Harbour survey',
        attachments: ['survey.txt'],
      },
    });
    const text = fs.readFileSync(mail.path, 'utf8');
    expect(text).toContain('From: Alice Archer <alice@example.org>');
    expect(text).toContain('The quayside survey is attached.');
    expect(fs.readFileSync(attachment.path, 'utf8')).toBe('Depth at the quay: four fathoms.');
  });

  it('splits an mbox into numbered messages and unescapes >From lines', async () => {
    const mbox = [
      'From alice@example.org Tue Mar  1 10:00:00 2022',
      message('First tide', 'The first message.\n>From the harbour wall.'),
      '',
      'From bob@example.org Tue Mar  1 11:00:00 2022',
      message('Second tide', 'The second message.'),
      '',
    ].join('\n');
    const result = await unpacked('inbox.mbox', Buffer.from(mbox));
    expect(result.members.map((member) => [member.filename, member.title])).toEqual([
      ['0001.eml', 'First tide'],
      ['0002.eml', 'Second tide'],
    ]);
    expect(fs.readFileSync(result.members[0].path, 'utf8')).toContain('\nFrom the harbour wall.');
  });
});
