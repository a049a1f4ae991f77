/**
 * A set of vector labels. Labels are SQLite rowids, dense from 1, so a bitmap holds a million of them in
 * 128 kB and answers `has` in a few nanoseconds — cheap enough for an HNSW filter callback or for checking
 * every row of a reader's tail. Labels past `bitmapLimit` (a sparse rowid space) go to a plain Set.
 */
const bitmapLimit = 1 << 27;

export class LabelSet {
  #words = new Uint32Array(0);
  #overflow: Set<number> | null = null;
  #size = 0;

  static of(labels: Iterable<number>): LabelSet {
    const set = new LabelSet();
    for (const label of labels) set.add(label);
    return set;
  }

  get size(): number {
    return this.#size;
  }

  has(label: number): boolean {
    if (label >= 0 && label < bitmapLimit && Number.isInteger(label)) {
      const word = label >>> 5;
      return word < this.#words.length && (this.#words[word] & (1 << (label & 31))) !== 0;
    }
    return this.#overflow?.has(label) ?? false;
  }

  add(label: number): void {
    if (label >= 0 && label < bitmapLimit && Number.isInteger(label)) {
      const word = label >>> 5;
      if (word >= this.#words.length) this.#grow(word + 1);
      const bit = 1 << (label & 31);
      if ((this.#words[word] & bit) === 0) {
        this.#words[word] |= bit;
        this.#size += 1;
      }
      return;
    }
    this.#overflow ??= new Set();
    if (!this.#overflow.has(label)) {
      this.#overflow.add(label);
      this.#size += 1;
    }
  }

  delete(label: number): void {
    if (label >= 0 && label < bitmapLimit && Number.isInteger(label)) {
      const word = label >>> 5;
      const bit = 1 << (label & 31);
      if (word < this.#words.length && (this.#words[word] & bit) !== 0) {
        this.#words[word] &= ~bit;
        this.#size -= 1;
      }
      return;
    }
    if (this.#overflow?.delete(label)) this.#size -= 1;
  }

  #grow(words: number): void {
    const next = new Uint32Array(Math.max(words, Math.ceil(this.#words.length * 1.5), 32));
    next.set(this.#words);
    this.#words = next;
  }
}
