/**
 * reStructuredText without docutils: underlined (and overlined) titles become sections; directives keep
 * their text (admonitions, code, figure captions, API descriptions) except those with none (toctree, image,
 * include, raw …) and their options; comments and link targets go; inline markup is reduced to its text.
 */
import { TextAssembler } from './assemble.ts';
import { defineLoader } from './formats.ts';
import type { LoadedDocument } from './port.ts';
import { readTextFile } from './text-file.ts';

const ADORNMENT = /^([!-/:-@[-`{-~])\1+\s*$/;
const EXPLICIT = /^(\s*)\.\.(?:\s+(.*))?$/;
const DIRECTIVE = /^([\w:.+-]+)::\s*(.*)$/;
/** Directives with nothing to read (navigation, includes, media, configuration); others keep their text. */
const SILENT_DIRECTIVES = new Set([
  'toctree',
  'image',
  'include',
  'literalinclude',
  'raw',
  'contents',
  'index',
  'meta',
  'highlight',
  'default-role',
  'role',
  'sectnum',
  'section-numbering',
  'header',
  'footer',
  'class',
  'title',
  'tabularcolumns',
  'currentmodule',
  'module',
  'automodule',
  'autoclass',
  'autofunction',
  'automethod',
  'autoattribute',
  'autodata',
  'autoexception',
  'autosummary',
  'unicode',
  'date',
  'replace',
  'target-notes',
  'moduleauthor',
  'codeauthor',
]);
/** Directives whose argument is a file name rather than text. */
const PATH_ARGUMENT_DIRECTIVES = new Set(['figure', 'csv-table', 'graphviz', 'plot']);

function indentOf(line: string): number {
  return /^\s*/.exec(line)![0].length;
}

/** Inline markup reduced to its text: roles, references, emphasis, literals, substitutions, footnote marks. */
export function rstInline(line: string): string {
  return line
    .replace(/\s?\[(?:#[\w-]*|\*|\d+|[A-Za-z][\w.-]*)\]_/g, '')
    .replace(/(?::[\w.+-]+)+:`([^`]+)`/g, (_match, inner: string) =>
      inner.replace(/\s*<[^<>]+>$/, '').replace(/^[~!]/, ''),
    )
    .replace(/`([^`<]+?)\s*<[^`]*>`_{1,2}/g, '$1')
    .replace(/``([^`]+)``/g, '$1')
    .replace(/`([^`]+)`_{0,2}/g, '$1')
    .replace(/\*\*(\S(?:.*?\S)?)\*\*/g, '$1')
    .replace(/(^|[\s(])\*(\S(?:.*?\S)?)\*(?=$|[\s).,;:!?])/g, '$1$2')
    .replace(/\|(\w[^|]*?)\|_{0,2}/g, '$1')
    .replace(/\b([\w-]+)_{1,2}(?=$|[\s).,;:!?])/g, '$1')
    .replace(/\\(.)/g, '$1');
}

interface RstSection {
  title: string | null;
  lines: string[];
}

export function rstSections(text: string): RstSection[] {
  const lines = text.split('\n');
  const sections: RstSection[] = [{ title: null, lines: [] }];
  const emit = (line: string): void => {
    sections[sections.length - 1].lines.push(line);
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const next = lines[i + 1] ?? '';
    const after = lines[i + 2] ?? '';

    // Overlined title: adornment, title, the same adornment.
    if (ADORNMENT.test(line) && next.trim() && !ADORNMENT.test(next) && after.trim() === line.trim()) {
      sections.push({ title: rstInline(next.trim()), lines: [rstInline(next.trim())] });
      i += 3;
      continue;
    }
    // Underlined title: text, then an adornment at least as long as the text.
    if (
      line.trim() &&
      indentOf(line) === 0 &&
      !ADORNMENT.test(line) &&
      ADORNMENT.test(next) &&
      next.trim().length >= Math.min(line.trim().length, 3)
    ) {
      sections.push({ title: rstInline(line.trim()), lines: [rstInline(line.trim())] });
      i += 2;
      continue;
    }
    // A transition (a lone adornment line) carries no text.
    if (ADORNMENT.test(line)) {
      i++;
      continue;
    }
    const explicit = EXPLICIT.exec(line);
    if (explicit) {
      const indent = explicit[1].length;
      const directive = DIRECTIVE.exec(explicit[2] ?? '');
      let end = i + 1;
      while (end < lines.length && (!lines[end].trim() || indentOf(lines[end]) > indent)) end++;
      const directiveName = directive?.[1].replace(/^\w+:/, '');
      if (directive && directiveName && !SILENT_DIRECTIVES.has(directiveName)) {
        if (directive[2].trim() && !PATH_ARGUMENT_DIRECTIVES.has(directiveName)) emit(rstInline(directive[2].trim()));
        let body = i + 1;
        while (body < end && /^\s*:[\w -]+:/.test(lines[body])) body++;
        for (const bodyLine of lines.slice(body, end))
          emit(rstInline(bodyLine.slice(Math.min(indentOf(bodyLine), indent + 3))));
      } else if (!directive && /^\[[^\]]+\]\s/.test(explicit[2] ?? '')) {
        // A footnote or citation: its text is content.
        emit(rstInline(explicit[2]!));
        for (const bodyLine of lines.slice(i + 1, end)) emit(rstInline(bodyLine.trim()));
      }
      i = end;
      continue;
    }
    // Table borders (grid `+---+`, simple `===  ===`) and a lone literal-block marker.
    if (/^\s*\+[-=+]+\+\s*$/.test(line) || /^\s*[=-]+(?:\s+[=-]+)+\s*$/.test(line) || line.trim() === '::') {
      i++;
      continue;
    }
    let cleaned = line.replace(/::\s*$/, ':');
    if (/^\s*\|.*\|\s*$/.test(cleaned)) cleaned = cleaned.replace(/\|/g, ' ').replace(/ {2,}/g, ' ');
    cleaned = cleaned.replace(/^(\s*):([^:`]+):(\s+|$)/, '$1$2:$3');
    emit(rstInline(cleaned));
    i++;
  }
  return sections.filter((section) => section.lines.some((line) => line.trim() !== ''));
}

export const rstLoader = defineLoader('rst', async (input): Promise<LoadedDocument> => {
  const file = await readTextFile(input);
  const sections = rstSections(file.text);
  const assembler = new TextAssembler(input.limits.maxTextChars);
  for (const section of sections)
    if (!assembler.add(section.lines.join('\n').replace(/\n{3,}/g, '\n\n'), null, section.title)) break;
  return {
    ...assembler.result(),
    format: 'rst',
    kind: 'prose',
    title: sections.find((section) => section.title !== null)?.title ?? null,
    metadata: { encoding: file.encoding, sections: sections.length },
  };
});
