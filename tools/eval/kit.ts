/**
 * The 2WikiMultihopQA retrieval kit (shared/testdata/eval/2wiki): its passages and questions, and a
 * deterministic subset of both for quick runs and the CI guard.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Passage {
  title: string;
  text: string;
}

export interface Question {
  question: string;
  /** Titles of the passages that together hold the answer. */
  supporting_titles: string[];
}

export interface Kit {
  passages: Passage[];
  questions: Question[];
}

export const defaultKitDir = path.resolve(import.meta.dirname, '../../../shared/testdata/eval/2wiki');

export function loadKit(dir = defaultKitDir): Kit {
  const read = <T>(file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as T;
  return { passages: read<Passage[]>('corpus.json'), questions: read<Question[]>('questions-51.json') };
}

/**
 * The first `questionCount` questions and `passageCount` passages that include all their supporting
 * passages, the rest taken in corpus order (the distractors a real corpus has). Passage order follows
 * the corpus.
 */
export function subsetKit(kit: Kit, passageCount: number, questionCount: number): Kit {
  const questions = kit.questions.slice(0, questionCount);
  const needed = new Set(questions.flatMap((question) => question.supporting_titles));
  const room = Math.max(0, passageCount - needed.size);
  let fillers = 0;
  const passages = kit.passages.filter((passage) => needed.has(passage.title) || (fillers < room && ++fillers > 0));
  return { passages, questions };
}

/** What a passage's source holds: its title as the first line, then its text. */
export function passageText(passage: Passage): string {
  return `${passage.title}\n\n${passage.text}`;
}

/** How the eval names the uploaded files: after the passage's title, or by number (the title only in the text). */
export type Naming = 'titles' | 'numbered';

/** Each passage's upload filename, in passage order: its title made safe for a filename, or `doc-0001.txt` …. */
export function passageFilenames(passages: readonly Passage[], naming: Naming = 'titles'): string[] {
  return passages.map((passage, index) =>
    naming === 'numbered'
      ? `doc-${String(index + 1).padStart(4, '0')}.txt`
      : `${passage.title.replace(/[/\\\0]/g, '_')}.txt`,
  );
}
