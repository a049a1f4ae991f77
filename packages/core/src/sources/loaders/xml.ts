/**
 * XML as indented text that keeps the element structure: a container element on its own line, a leaf as
 * "name: text", attributes in brackets (`book [id=bk101]`).
 */
import { TextAssembler } from './assemble.ts';
import { declaredCharset } from './encoding.ts';
import { defineLoader } from './formats.ts';
import type { LoadedDocument } from './port.ts';
import { readTextFile } from './text-file.ts';
import { scanXml } from './xml-scan.ts';

/** Deeper levels are indented like this one, so a pathological nesting does not fill the text with spaces. */
const MAX_INDENT = 12;

interface OpenElement {
  name: string;
  label: string;
  text: string;
  announced: boolean;
}

function label(name: string, attrs: Record<string, string>): string {
  const shown = Object.entries(attrs)
    .filter(([key]) => key !== 'xmlns' && !key.startsWith('xmlns:'))
    .map(([key, value]) => `${key}=${value.replace(/\s+/g, ' ').trim()}`);
  return shown.length > 0 ? `${name} [${shown.join(', ')}]` : name;
}

/** Renders the structure; stops once `budget` characters are written. */
export function renderXml(source: string, budget: number): { text: string; root: string | null; elements: number } {
  const lines: string[] = [];
  let length = 0;
  const stack: OpenElement[] = [];
  let root: string | null = null;
  let elements = 0;
  const emit = (depth: number, line: string): void => {
    lines.push(`${'  '.repeat(Math.min(depth, MAX_INDENT))}${line}`);
    length += line.length + 1;
  };
  const clean = (text: string): string => text.replace(/\s+/g, ' ').trim();
  const close = (): void => {
    const element = stack.pop()!;
    const text = clean(element.text);
    if (!element.announced) {
      if (text) emit(stack.length, `${element.label}: ${text}`);
      else if (element.label !== element.name) emit(stack.length, element.label);
    } else if (text) emit(stack.length + 1, text);
  };

  for (const token of scanXml(source)) {
    if (length > budget) break;
    if (token.type === 'text') {
      if (stack.length > 0) stack[stack.length - 1].text += token.text;
    } else if (token.type === 'open') {
      elements++;
      root ??= token.name;
      const parent = stack[stack.length - 1];
      if (parent && !parent.announced) {
        const text = clean(parent.text);
        emit(stack.length - 1, text ? `${parent.label}: ${text}` : parent.label);
        parent.text = '';
        parent.announced = true;
      } else if (parent) {
        const text = clean(parent.text);
        if (text) emit(stack.length, text);
        parent.text = '';
      }
      stack.push({ name: token.name, label: label(token.name, token.attrs), text: '', announced: false });
      if (token.selfClosing) close();
    } else if (stack.length > 0 && stack[stack.length - 1].name === token.name) {
      close();
    } else if (stack.some((element) => element.name === token.name)) {
      // An unclosed child: close it with its parent, as a lenient parser would.
      while (stack[stack.length - 1].name !== token.name) close();
      close();
    }
  }
  while (stack.length > 0) close();
  return { text: lines.join('\n'), root, elements };
}

export const xmlLoader = defineLoader('xml', async (input): Promise<LoadedDocument> => {
  const file = await readTextFile(input, declaredCharset);
  const { text, root, elements } = renderXml(file.text, input.limits.maxTextChars);
  const assembler = new TextAssembler(input.limits.maxTextChars);
  assembler.add(text);
  const warnings = file.truncated ? ['the XML file is larger than the text limit; only its start was read'] : [];
  const result = assembler.result();
  return {
    ...result,
    warnings: [...warnings, ...result.warnings],
    format: 'xml',
    kind: 'structured',
    title: null,
    metadata: { encoding: file.encoding, root, elements },
  };
});
