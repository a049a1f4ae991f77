import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BadInput } from '@rhizome/contracts/errors';
import { digestsOf } from '../../src/ccx/checksums.ts';
import { readCcxPackage } from '../../src/ccx/read-package.ts';
import { ZipArchive } from '../../src/ccx/zip-reader.ts';
import { rawZip, type RawEntry } from './zip-fixtures.ts';

const conformance = path.resolve(import.meta.dirname, '../../../../../shared/testdata/ccx3-conformance');

function refusal(bytes: Buffer): string {
  try {
    readCcxPackage(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(BadInput);
    expect((error as BadInput).code).toBe('VALIDATION_ERROR');
    return (error as BadInput).message;
  }
  throw new Error('the package was accepted');
}

/** A CCX 2.0 package whose manifest checksums the given data files (or declares `overrides` instead). */
function ccx2(
  files: Record<string, string>,
  overrides: Partial<Record<string, { sha256?: string; size?: number }>> = {},
  extra: RawEntry[] = [],
): Buffer {
  const contents = Object.entries(files).map(([name, text]) => {
    const digests = digestsOf(Buffer.from(text));
    return {
      type: name.split('.')[0],
      path: name,
      media_type: 'application/ld+json',
      file_size_bytes: overrides[name]?.size ?? Buffer.byteLength(text),
      checksum_sha256: overrides[name]?.sha256 ?? digests.sha256,
      checksum_sha512: digests.sha512,
    };
  });
  const manifest = { ccx_version: '2.0', name: 'test/pkg', package_version: '1.0.0', contents };
  return rawZip([
    ...Object.entries(files).map(([name, text]) => ({ name, data: Buffer.from(text) })),
    { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest)) },
    ...extra,
  ]);
}

const knowledge = JSON.stringify({
  nodes: [
    {
      id: 'n1',
      label: 'Ada',
      template_id: 'system_template_person',
      properties: { born: 1815 },
      created_at: '2026-11-21 19:32:41.741462+00:00',
    },
    { id: 'n2', label: 'Engine', template_id: 'tpl_machine', properties: {} },
  ],
  edges: [
    { id: 'e1', template_id: 'system_template_link', source_node_id: 'n1', target_node_id: 'n2', label: 'designed' },
  ],
});

describe('reading CCX packages', () => {
  it('reads every valid CCX 3.0 conformance package and refuses every invalid one with a precise 400', () => {
    for (const file of fs.readdirSync(path.join(conformance, 'valid'))) {
      const content = readCcxPackage(fs.readFileSync(path.join(conformance, 'valid', file)));
      expect(content.info, file).toMatchObject({ ccx_version: '3.0', name: 'demo/people', package_version: '1.0.0' });
    }
    const expected: Record<string, RegExp> = {
      'bad-checksum.ccx': /checksum mismatch for 'knowledge.jsonld'/,
      'compressed-mimetype.ccx': /`mimetype` entry must be stored uncompressed/,
      'corrupt-context.ccx': /'context.jsonld' is not valid JSON/,
      'invalid-manifest.ccx': /required field `name` is missing/,
      'malformed-manifest.ccx': /'manifest.json' is not valid JSON/,
      'missing-manifest.ccx': /manifest.json is missing/,
      'missing-mimetype.ccx': /`mimetype` entry is missing/,
      'path-traversal.ccx': /'..\/evil.txt' has a path traversal component/,
      'remote-context-file.ccx': /'context.jsonld' refers to a remote @context/,
      'remote-context.ccx': /'knowledge.jsonld' refers to a remote @context/,
      'signed-missing-sig.ccx': /'signatures\/manifest.sig' is declared in the manifest but missing/,
    };
    const invalid = fs.readdirSync(path.join(conformance, 'invalid'));
    expect(invalid.sort()).toEqual(Object.keys(expected).sort());
    for (const file of invalid)
      expect(refusal(fs.readFileSync(path.join(conformance, 'invalid', file))), file).toMatch(expected[file]);
  });

  it('maps CCX 3.0 JSON-LD: typed entities, reference properties as edges, selector chunks from the text asset', () => {
    const content = readCcxPackage(fs.readFileSync(path.join(conformance, 'valid', 'sources-minimal.ccx')));
    expect(content.nodes.map((node) => [node.iri, node.label, node.template_name])).toEqual([
      ['urn:ccx:demo:alice', 'Alice Smith', 'Person'],
      ['urn:ccx:demo:acme', 'Acme Corporation', 'Organization'],
    ]);
    expect(content.edges).toMatchObject([
      { source_node_key: 'urn:ccx:demo:alice', target_node_key: 'urn:ccx:demo:acme', label: 'worksFor' },
    ]);
    expect(content.sources).toMatchObject([
      {
        iri: 'urn:ccx:demo:source/hr-doc',
        chunks: [{ content: 'Alice Smith', start_offset: 0, end_offset: 11, chunk_index: 0 }],
      },
    ]);
  });

  it('reads a CCX 2.0 package with both datetime forms and verifies every checksum', () => {
    const content = readCcxPackage(ccx2({ 'knowledge.jsonld': knowledge }));
    expect(content.info).toMatchObject({ ccx_version: '2.0', name: 'test/pkg' });
    expect(content.nodes).toMatchObject([
      {
        key: 'n1',
        iri: 'urn:ccx:test/pkg:node/n1',
        label: 'Ada',
        properties: { born: 1815 },
        created_at: '2026-11-21T19:32:41.741Z',
      },
      { key: 'n2', template_key: 'tpl_machine' },
    ]);
    expect(content.edges).toMatchObject([{ source_node_key: 'n1', target_node_key: 'n2', label: 'designed' }]);
    expect(
      refusal(
        ccx2(
          { 'knowledge.jsonld': knowledge },
          { 'knowledge.jsonld': { sha256: digestsOf(Buffer.from('other')).sha256 } },
        ),
      ),
    ).toMatch(/checksum mismatch for 'knowledge.jsonld'/);
    expect(refusal(ccx2({ 'knowledge.jsonld': knowledge }, { 'knowledge.jsonld': { size: 3 } }))).toMatch(
      /the manifest says 3/,
    );
    expect(
      refusal(
        ccx2({ 'knowledge.jsonld': knowledge }, {}, [
          { name: 'templates.jsonld', data: Buffer.from('{"templates":[]}') },
        ]),
      ),
    ).toMatch(/'templates.jsonld' is not covered by a checksum/);
    expect(refusal(ccx2({ 'knowledge.jsonld': '{"nodes":[{"label":"no id"}]}' }))).toMatch(
      /knowledge.jsonld: nodes\[0\] has no `id`/,
    );
    expect(refusal(ccx2({ 'knowledge.jsonld': '{"nodes":' }))).toMatch(/'knowledge.jsonld' is not valid JSON/);
    expect(refusal(ccx2({ 'sources.jsonl': '{"id":"s1","chunks":[{"id":"c1"}]}' }))).toMatch(
      /sources.jsonl line 1: chunks\[0\] has no `content`/,
    );
  });

  it('accepts a higher minor version and refuses other majors', () => {
    const manifest = (version: string) =>
      rawZip([
        {
          name: 'manifest.json',
          data: Buffer.from(
            JSON.stringify({ ccx_version: version, name: 'x', package_version: '1.0.0', contents: [] }),
          ),
        },
      ]);
    expect(readCcxPackage(manifest('2.1')).info.ccx_version).toBe('2.1');
    expect(refusal(manifest('4.0'))).toMatch(/CCX version 4.0 is not supported/);
    expect(refusal(manifest('two'))).toMatch(/`ccx_version` must be a MAJOR.MINOR/);
  });
});

describe('zip safety', () => {
  const one = (entry: Partial<RawEntry>) => rawZip([{ name: 'data.json', data: Buffer.from('{}'), ...entry }]);
  const refused = (bytes: Buffer) => {
    try {
      ZipArchive.open(bytes);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('the archive was accepted');
  };

  it('refuses unsafe names, links, oversized or bomb-like entries, too many entries and non-archives', () => {
    expect(refused(one({ name: 'a/../../b' }))).toMatch(/path traversal/);
    expect(refused(one({ name: '/etc/passwd' }))).toMatch(/absolute/);
    expect(refused(one({ name: 'C:/windows' }))).toMatch(/absolute/);
    expect(refused(one({ name: 'dir\\file' }))).toMatch(/non-portable/);
    expect(refused(one({ unixMode: 0o120777 }))).toMatch(/link or special file/);
    expect(refused(one({ declaredSize: 6 * 1024 ** 3, method: 0 }))).toMatch(
      /declares 6442450944 bytes; at most 536870912/,
    );
    expect(refused(one({ data: Buffer.alloc(8 * 1024 * 1024) }))).toMatch(/compresses more than 250:1/);
    expect(
      refused(
        rawZip([
          { name: 'a', data: Buffer.from('1') },
          { name: 'a', data: Buffer.from('2') },
        ]),
      ),
    ).toMatch(/appears twice/);
    expect(refused(Buffer.from('plain text'))).toMatch(/not a ZIP archive/);
    const many = rawZip(Array.from({ length: 5 }, (_, index) => ({ name: `f${index}`, data: Buffer.from('x') })));
    expect(() =>
      ZipArchive.open(many, {
        maxEntries: 4,
        maxEntryBytes: 100,
        maxTotalBytes: 100,
        maxRatio: 250,
        ratioFloorBytes: 100,
      }),
    ).toThrow(/5 entries; at most 4/);
    expect(() =>
      ZipArchive.open(many, {
        maxEntries: 10,
        maxEntryBytes: 100,
        maxTotalBytes: 4,
        maxRatio: 250,
        ratioFloorBytes: 100,
      }),
    ).toThrow(/more than 4 bytes in total/);
    expect(ZipArchive.open(one({ unixMode: 0o100644 })).entries.map((entry) => entry.name)).toEqual(['data.json']);
  });

  it('never inflates beyond the declared size and checks the CRC', () => {
    const lying = ZipArchive.open(one({ data: Buffer.alloc(100_000, 65), declaredSize: 1_000 }));
    expect(() => lying.read(lying.entries[0])).toThrow(/inflates beyond its declared size/);
    const corrupt = one({ data: Buffer.from('{"a":1}'), method: 0 });
    corrupt[30 + 'data.json'.length + 2] ^= 0xff;
    const archive = ZipArchive.open(corrupt);
    expect(() => archive.read(archive.entries[0])).toThrow(/fails its CRC check/);
  });
});
