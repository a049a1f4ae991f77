/**
 * A text's lines as offsets, for the passes that read a large text line by line: no object or string per
 * line, and a line's text is sliced only once a cheap look at its characters says a pattern could match.
 */

/** The characters of `\s` and of String.prototype.trim. */
export function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

export class Lines {
  /** Where each line starts, and one more entry: the end of the text plus one, as if it ended on a newline. */
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', newline + 1))
      this.starts.push(newline + 1);
    this.starts.push(text.length + 1);
  }

  get count(): number {
    return this.starts.length - 1;
  }

  start(line: number): number {
    return this.starts[line];
  }

  /** Exclusive, before the newline. */
  end(line: number): number {
    return this.starts[line + 1] - 1;
  }

  /** Where the line's text starts once leading white space is trimmed (its end when it is blank). */
  contentStart(line: number): number {
    const end = this.end(line);
    let at = this.start(line);
    while (at < end && isWhiteSpace(this.text.charCodeAt(at))) at++;
    return at;
  }

  /** Where the line's text ends once trailing white space is trimmed. */
  contentEnd(line: number): number {
    const start = this.start(line);
    let at = this.end(line);
    while (at > start && isWhiteSpace(this.text.charCodeAt(at - 1))) at--;
    return at;
  }

  isBlank(line: number): boolean {
    return this.contentStart(line) === this.end(line);
  }

  /** The line's first character after leading white space (NaN when it is blank). */
  firstCode(line: number): number {
    const at = this.contentStart(line);
    return at < this.end(line) ? this.text.charCodeAt(at) : NaN;
  }

  /** The line's last character before trailing white space (NaN when it is blank). */
  lastCode(line: number): number {
    const at = this.contentEnd(line);
    return at > this.start(line) ? this.text.charCodeAt(at - 1) : NaN;
  }

  lineText(line: number): string {
    return this.text.slice(this.start(line), this.end(line));
  }

  trimmed(line: number): string {
    return this.text.slice(this.contentStart(line), this.contentEnd(line));
  }

  /** The line's last `length` characters (all of a shorter line). */
  tail(line: number, length: number): string {
    return this.text.slice(Math.max(this.start(line), this.end(line) - length), this.end(line));
  }
}
