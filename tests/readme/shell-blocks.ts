/** A fenced ```sh / ```bash block of a Markdown document. */
export interface ShellBlock {
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** Marked not runnable by `<!-- readme-test: skip -->` (with an optional reason) on the last non-blank line before it. */
  skip: boolean;
}

const skipMarker = /^<!--\s*readme-test:\s*skip\b.*-->$/;

/** The shell blocks of `markdown` in document order. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^(`{3,}|~{3,})\s*(\S*)/.exec(lines[index]);
    if (!fence) continue;
    const close = lines.findIndex(
      (line, at) => at > index && line.trim().startsWith(fence[1]) && line.trim().replace(/[`~]/g, '') === '',
    );
    const end = close < 0 ? lines.length : close;
    if (fence[2] === 'sh' || fence[2] === 'bash') {
      let before = index - 1;
      while (before >= 0 && lines[before].trim() === '') before--;
      blocks.push({
        line: index + 1,
        code: lines.slice(index + 1, end).join('\n'),
        skip: before >= 0 && skipMarker.test(lines[before].trim()),
      });
    }
    index = end;
  }
  return blocks;
}
