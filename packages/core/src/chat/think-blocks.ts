/**
 * Some local models write their reasoning into the answer text, between `<think>` and `</think>`, instead
 * of streaming it apart. Fed the text deltas as they arrive, this sends what is inside such a block to the
 * thinking and the rest to the answer. A tag split across deltas is held back until it is whole, so neither
 * side ever shows half a tag.
 */

const tags = { open: '<think>', close: '</think>' } as const;

export interface SplitDelta {
  text: string;
  thinking: string;
}

/** How many characters at the end of `buffer` could begin `tag` (a tag cut by the delta boundary). */
function partialTagLength(buffer: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, buffer.length); length > 0; length--) {
    if (tag.startsWith(buffer.slice(-length).toLowerCase())) return length;
  }
  return 0;
}

export class ThinkBlockSplitter {
  private inside = false;
  private held = '';
  /** The next thought begins a paragraph of its own: thinking came before it, in an earlier block or call. */
  private separate: boolean;
  /** A block just closed: the whitespace that parts it from the answer belongs to neither. */
  private afterBlock = false;

  /** `thoughtBefore`: the turn already has thinking (an earlier tool round), which this stream's must not run into. */
  constructor(thoughtBefore = false) {
    this.separate = thoughtBefore;
  }

  feed(delta: string): SplitDelta {
    const out: SplitDelta = { text: '', thinking: '' };
    let buffer = this.held + delta;
    for (;;) {
      const tag = this.inside ? tags.close : tags.open;
      const at = buffer.toLowerCase().indexOf(tag);
      if (at < 0) break;
      this.append(out, buffer.slice(0, at));
      buffer = buffer.slice(at + tag.length);
      this.inside = !this.inside;
      if (!this.inside) this.afterBlock = this.separate = true;
    }
    const keep = partialTagLength(buffer, this.inside ? tags.close : tags.open);
    this.append(out, buffer.slice(0, buffer.length - keep));
    this.held = buffer.slice(buffer.length - keep);
    return out;
  }

  /** Reasoning the provider streamed apart from the text: thinking as a block's content is. */
  reasoning(delta: string): SplitDelta {
    return { text: '', thinking: this.thought(delta) };
  }

  /** The end of the stream: whatever was held back was not a tag after all. */
  flush(): SplitDelta {
    const out: SplitDelta = { text: '', thinking: '' };
    this.append(out, this.held);
    this.held = '';
    return out;
  }

  private append(out: SplitDelta, piece: string): void {
    if (this.inside) out.thinking += this.thought(piece);
    else out.text += this.answer(piece);
  }

  private thought(piece: string): string {
    if (!piece) return '';
    const separator = this.separate ? '\n\n' : '';
    this.separate = false;
    return separator + piece;
  }

  private answer(piece: string): string {
    if (!this.afterBlock) return piece;
    const text = piece.trimStart();
    if (text) this.afterBlock = false;
    return text;
  }
}
