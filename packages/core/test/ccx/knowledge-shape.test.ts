import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readCcxPackage } from '../../src/ccx/read-package.ts';
import { ccx2Package } from '../../../../tests/support/ccx-build.ts';
import { rawZip } from './zip-fixtures.ts';

const node = { id: 'n1', label: 'Ada', template_id: 'system_template_person', properties: {} };
const edge = { id: 'e1', source_node_id: 'n1', target_node_id: 'n1', label: 'knows' };
const withKnowledge = (text: string) => ccx2Package({ 'knowledge.jsonld': text });
const knowledge = (document: unknown) => withKnowledge(JSON.stringify(document));

/** A CCX 3.0 container whose default graph is `document`. */
function ccx3(document: unknown): Buffer {
  const text = JSON.stringify(document);
  const digest = (algorithm: string) => createHash(algorithm).update(text).digest('base64');
  const manifest = {
    ccx_version: '3.0',
    name: 'demo/x',
    package_version: '1.0.0',
    graphs: [
      {
        path: 'knowledge.jsonld',
        media_type: 'application/ld+json',
        namespace: 'ccx',
        name: 'knowledge',
        role: 'default',
        sha256: digest('sha256'),
        sha512: digest('sha512'),
      },
    ],
  };
  return rawZip([
    { name: 'mimetype', data: Buffer.from('application/vnd.ccx+zip'), method: 0 },
    { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest)) },
    { name: 'context.jsonld', data: Buffer.from('{"@context":{}}') },
    { name: 'knowledge.jsonld', data: Buffer.from(text) },
  ]);
}

describe('the shape of knowledge.jsonld', () => {
  it('reads nodes and edges of the documented types', () => {
    const content = readCcxPackage(
      knowledge({
        nodes: [{ ...node, position: { x: 1, y: 2 }, embedding: [0.5, 0.25], created_at: '2026-11-21 19:32:41+00:00' }],
        edges: [edge],
      }),
    );
    expect(content.nodes).toMatchObject([
      { key: 'n1', position: { x: 1, y: 2 }, embedding: [0.5, 0.25], created_at: '2026-11-21T19:32:41.000Z' },
    ]);
    expect(content.edges).toMatchObject([{ key: 'e1', source_node_key: 'n1', label: 'knows' }]);
    expect(readCcxPackage(knowledge({ nodes: [], edges: [] })).nodes).toEqual([]);
  });

  it('names members it ignores in a warning', () => {
    expect(readCcxPackage(knowledge({ nodes: [node], edges: [], extra: 1 })).warnings).toContain(
      'Ignored member(s) of knowledge.jsonld: extra',
    );
  });

  it.each([
    ['JSON null', 'null', /'knowledge.jsonld' must be a JSON object/],
    ['a list', '[]', /'knowledge.jsonld' must be a JSON object/],
    ['an empty object', '{}', /'knowledge.jsonld' has no list `nodes`/],
    ['no edges', JSON.stringify({ nodes: [node] }), /has no list `edges`/],
    ['null nodes', JSON.stringify({ nodes: null, edges: [] }), /has no list `nodes`/],
    ['nodes not a list', JSON.stringify({ nodes: {}, edges: [] }), /`nodes` must be a list/],
    ['a node that is no object', JSON.stringify({ nodes: ['n1'], edges: [] }), /nodes\[0\] must be an object/],
    ['a numeric id', JSON.stringify({ nodes: [{ id: 1 }], edges: [] }), /nodes\[0\] has no `id`/],
    [
      'a numeric label',
      JSON.stringify({ nodes: [{ ...node, label: 1 }], edges: [] }),
      /nodes\[0\]: `label` must be text/,
    ],
    [
      'list properties',
      JSON.stringify({ nodes: [{ ...node, properties: [] }], edges: [] }),
      /`properties` must be an object/,
    ],
    [
      'a text position',
      JSON.stringify({ nodes: [{ ...node, position: 'top' }], edges: [] }),
      /`position` must be an object/,
    ],
    [
      'a half position',
      JSON.stringify({ nodes: [{ ...node, position: { x: 1 } }], edges: [] }),
      /`position` must be an object of numbers/,
    ],
    [
      'a text embedding',
      JSON.stringify({ nodes: [{ ...node, embedding: 'AAAA' }], edges: [] }),
      /`embedding` must be a list of numbers/,
    ],
    [
      'a bad date',
      JSON.stringify({ nodes: [{ ...node, created_at: 'yesterday' }], edges: [] }),
      /`created_at` must be a datetime/,
    ],
    [
      'numeric source ids',
      JSON.stringify({ nodes: [{ ...node, source_ids: [1] }], edges: [] }),
      /`source_ids` must be a list of text/,
    ],
    [
      'an edge without ends',
      JSON.stringify({ nodes: [node], edges: [{ id: 'e1' }] }),
      /edges\[0\] has no `source_node_id`/,
    ],
    [
      'a numeric edge label',
      JSON.stringify({ nodes: [node], edges: [{ ...edge, label: 2 }] }),
      /edges\[0\]: `label` must be text/,
    ],
    [
      'text edge properties',
      JSON.stringify({ nodes: [node], edges: [{ ...edge, properties: 'x' }] }),
      /edges\[0\]: `properties` must be an object/,
    ],
  ])('refuses %s', (_case, text, message) => {
    expect(() => readCcxPackage(withKnowledge(text))).toThrow(message);
  });

  it('refuses a CCX 3.0 default graph without a list @graph', () => {
    expect(() => readCcxPackage(ccx3({ '@context': {}, anything: true }))).toThrow(/the list `@graph` is required/);
    expect(readCcxPackage(ccx3({ '@context': {}, '@graph': [] })).nodes).toEqual([]);
  });
});
