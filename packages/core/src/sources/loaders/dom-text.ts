/**
 * DOM → plain text with sections, shared by the HTML, DOCX (through mammoth's HTML) and EPUB loaders:
 * block elements end lines, headings start sections, table cells are tab-joined, and code keeps its
 * whitespace. Walks iteratively, so deeply nested markup cannot overflow the stack.
 */

export interface SectionText {
  section: string | null;
  text: string;
}

const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'iframe',
  'object',
  'canvas',
  'select',
  'button',
]);
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);
const HEADING = /^h[1-6]$/;
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function nameOf(element: Element): string {
  return element.localName.toLowerCase();
}

export function domSections(root: Node, firstSection: string | null = null): SectionText[] {
  const sections: SectionText[] = [];
  let section = firstSection;
  let lines: string[] = [];
  let line = '';
  let preDepth = 0;

  const endLine = (): void => {
    const text =
      preDepth > 0
        ? line.replace(/\s+$/, '')
        : line
            .replace(/ +/g, ' ')
            .replace(/ ?\t ?/g, '\t')
            .trim();
    if (text.trim()) lines.push(text);
    line = '';
  };
  const endSection = (): void => {
    endLine();
    if (lines.length > 0) sections.push({ section, text: lines.join('\n') });
    lines = [];
  };

  const stack: { node: Node; leaving: boolean }[] = [{ node: root, leaving: false }];
  while (stack.length > 0) {
    const { node, leaving } = stack.pop()!;
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) {
      line += preDepth > 0 ? (node.nodeValue ?? '') : (node.nodeValue ?? '').replace(/\s+/g, ' ');
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE && node !== root) continue;
    const name = node.nodeType === ELEMENT_NODE ? nameOf(node as Element) : '';
    if (SKIPPED.has(name)) continue;
    if (leaving) {
      if (name === 'pre') preDepth--;
      if (BLOCKS.has(name) || HEADING.test(name)) endLine();
      continue;
    }
    if (HEADING.test(name)) {
      endSection();
      section = collapseWhitespace(node.textContent ?? '') || section;
    } else if (name === 'br') {
      if (preDepth > 0) line += '\n';
      else endLine();
    } else if (name === 'td' || name === 'th') {
      if (line.trim()) line += '\t';
    } else if (BLOCKS.has(name)) endLine();
    if (name === 'pre') preDepth++;
    stack.push({ node, leaving: true });
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], leaving: false });
  }
  endSection();
  return sections;
}
