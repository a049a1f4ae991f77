// The README as a fresh install meets it: its shell examples run in order against the embedded default
// (tests/stack/readme.test.ts runs them through nginx), and the operations its text names exist.
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server.ts';
import { apiReferences, fitsRoute } from './api-references.ts';
import { readmeExamples, readmeMarkdown } from './readme-examples.ts';

describe('the README examples on a fresh embedded install', () => {
  const { server } = readmeExamples(() => startTestServer());

  it('names in its text only API operations that exist', async () => {
    const document = (await (await fetch(`${server().url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const references = apiReferences(readmeMarkdown);
    expect(references.length).toBeGreaterThan(30);
    const unknown = references.filter(
      ({ method, path }) =>
        !Object.entries(document.paths).some(
          ([route, operations]) => method.toLowerCase() in operations && fitsRoute(path, route),
        ),
    );
    expect(unknown.map(({ method, path, line }) => `README.md:${line} ${method} ${path}`)).toEqual([]);
  });
});
