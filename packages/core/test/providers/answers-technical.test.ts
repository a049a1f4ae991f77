import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractiveAnswer } from '../../src/providers/llm/builtin/answers.ts';
import { loadBuiltinNlp, type BuiltinNlp } from '../../src/providers/llm/builtin/nlp.ts';
import { sentenceSpans } from '../../src/sources/text/sentences.ts';

let nlp: BuiltinNlp;
beforeAll(async () => {
  nlp = await loadBuiltinNlp();
});

const fixture = (name: string) =>
  fs.readFileSync(new URL(`../../../../tests/fixtures/technical/${name}`, import.meta.url), 'utf8');

/** A document's sentences as chat offers them: one passage per sentence, marked with the file and its number. */
function passagesOf(...files: string[]) {
  return files.flatMap((file) => {
    const text = fixture(file);
    return sentenceSpans(text).map(([start, end], index) => ({
      text: text.slice(start, end).replace(/\s+/g, ' '),
      marker: `[${file}:${index + 1}]`,
    }));
  });
}

const corpus = () => passagesOf('redis-README.md', 'ssh.1.txt', 'git-add.1.txt', 'tar.1.txt', 'python-history.txt');

describe('builtin chat answers over technical documents', () => {
  it('quotes the sentence that says who created Python', () => {
    const [first] = extractiveAnswer(nlp, 'Who created Python?', corpus());
    expect(first).toMatch(/^Python was created in the early 1990s by Guido van Rossum .* \[python-history\.txt:\d+\]$/);
  });

  it('answers what git add does from the git-add page, not from a Redis link list', () => {
    const answer = extractiveAnswer(nlp, 'What does the git add command do?', corpus());
    expect(answer.length).toBeGreaterThan(0);
    for (const sentence of answer) expect(sentence).toContain('[git-add.1.txt:');
    expect(answer.join(' ')).not.toContain('The full list of Redis commands');
  });

  it('answers how to forward a port with the -L, -R or -D option, not with the list of RFCs', () => {
    const answer = extractiveAnswer(nlp, 'how do I forward a port over ssh', corpus());
    expect(answer[0]).toMatch(/forward/i);
    expect(answer[0]).toContain('[ssh.1.txt:');
    expect(answer.join(' ')).not.toMatch(/RFC 425\d/);
  });

  it('says what Redis is with a sentence, not with a command line that names redis-server', () => {
    const passages = [
      '% ./redis-server --port 9999 --replicaof 127.0.0.1 6379 % ./redis-server /etc/redis/6379.conf --loglevel debug',
      'Redis is often referred to as a *data structures* server.',
      'Start a redis-server instance, then in another terminal try the following:',
    ].map((text, index) => ({ text, marker: `[${index}]` }));
    const [first] = extractiveAnswer(nlp, 'what kind of server is Redis', passages);
    expect(first).toBe('Redis is often referred to as a *data structures* server. [1]');
  });

  it('never quotes a fragment cut at a dot inside code or a host name', () => {
    // Each passage is one sentence; the NLP's own cuts at "aof." and "BeOpen." must not split it.
    const passages = [
      {
        text: 'This is used by `rdb.c` to create the snapshots on disk and by `aof.c` in order to perform the AOF rewrite when the append only file gets too big.',
        marker: '[1]',
      },
      {
        text: 'In May 2000, Guido and the Python core development team moved to BeOpen.com to form the BeOpen PythonLabs team.',
        marker: '[2]',
      },
    ];
    expect(extractiveAnswer(nlp, 'what does aof.c do for the AOF rewrite', passages)[0]).toBe(
      `${passages[0].text} [1]`,
    );
    expect(extractiveAnswer(nlp, 'where did the Python team move in 2000', passages)[0]).toBe(
      `${passages[1].text} [2]`,
    );
  });

  it('still cuts a passage of several sentences where the text ends one', () => {
    const answer = extractiveAnswer(nlp, 'Where was Marie Curie born?', [
      { text: 'Marie Curie was born in Warsaw. She moved to Paris.', marker: '[1]' },
    ]);
    expect(answer).toEqual(['Marie Curie was born in Warsaw. [1]']);
  });
});
