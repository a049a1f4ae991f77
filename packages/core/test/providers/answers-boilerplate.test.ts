import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { markBoilerplate } from '../../src/chat/boilerplate.ts';
import { contentCategoriesOf } from '../../src/extraction/index.ts';
import { extractiveAnswer } from '../../src/providers/llm/builtin/answers.ts';
import { loadBuiltinNlp, type BuiltinNlp } from '../../src/providers/llm/builtin/nlp.ts';
import { sentenceSpans } from '../../src/sources/text/sentences.ts';

let nlp: BuiltinNlp;
beforeAll(async () => {
  nlp = await loadBuiltinNlp();
});

const fixture = (name: string) =>
  fs.readFileSync(new URL(`../../../../tests/fixtures/technical/${name}`, import.meta.url), 'utf8');

/** A document's sentences as chat offers them: one passage per sentence, marked with the file, boilerplate marked. */
function passagesOf(...files: string[]) {
  return markBoilerplate(
    files.flatMap((file) => {
      const text = fixture(file);
      return sentenceSpans(text).map(([start, end]) => ({
        text: text.slice(start, end).replace(/\s+/g, ' '),
        marker: `[${file}]`,
      }));
    }),
  );
}

describe('builtin chat answers and boilerplate', () => {
  it('classifies a licence block as legal and prose as nothing', () => {
    const licence =
      'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, INCLUDING THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE.';
    expect(contentCategoriesOf(licence, ['legal', 'bibliography'])).toEqual(['legal']);
    expect(contentCategoriesOf('Redis is often referred to as a data structures server.', ['legal'])).toEqual([]);
  });

  it('answers what Redis is from the README, not from the warranty disclaimer', () => {
    const answer = extractiveAnswer(
      nlp,
      'what kind of server is Redis',
      passagesOf('redis-copyright.txt', 'redis-README.md'),
    );
    expect(answer.length).toBeGreaterThan(0);
    expect(answer[0]).toContain('[redis-README.md]');
    expect(answer.join(' ')).not.toMatch(/WARRANT/);
  });

  it('still quotes the list of RFCs for a question only it answers', () => {
    const [first] = extractiveAnswer(
      nlp,
      'which RFC describes the architecture of the SSH protocol',
      passagesOf('ssh.1.txt'),
    );
    expect(first).toContain('The Secure Shell (SSH) Protocol Architecture, RFC 4251');
  });
});
