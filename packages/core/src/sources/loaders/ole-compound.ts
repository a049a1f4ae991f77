/**
 * Checks an OLE compound file (the container of legacy Office files) before a parser walks it: every
 * sector chain stays inside the file and ends, the directory tree has no loops, and no stream claims more
 * bytes than the file holds. A crafted file could otherwise send a reader round a chain forever or make it
 * allocate gigabytes. Reads the streams it is asked for.
 */
import { UnreadableFileError } from './port.ts';

const HEADER_BYTES = 512;
const HEADER_DIFAT_ENTRIES = 109;
const END_OF_CHAIN = -2;
const FREE = -1;
const STREAM = 2;
const ROOT = 5;
const NO_ENTRY = -1;

interface DirectoryEntry {
  name: string;
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

export class CompoundFile {
  private constructor(
    private readonly bytes: Buffer,
    private readonly sectorSize: number,
    private readonly miniSectorSize: number,
    private readonly miniStreamSectors: number[],
    private readonly chains: ReadonlyMap<DirectoryEntry, { mini: boolean; ids: number[] }>,
    /** Streams directly under the root storage, by name. */
    readonly streams: ReadonlyMap<string, DirectoryEntry>,
  ) {}

  /** `what` names the file in errors ("The DOC file"). */
  static open(bytes: Buffer, what: string): CompoundFile {
    const damaged = (detail: string) => new UnreadableFileError(`${what} is damaged (${detail})`);
    if (bytes.length < HEADER_BYTES || bytes.readUInt32BE(0) !== 0xd0cf11e0 || bytes.readUInt32BE(4) !== 0xa1b11ae1)
      throw new UnreadableFileError(`${what} is not an OLE compound file`);
    const sectorShift = bytes.readUInt16LE(0x1e);
    const miniShift = bytes.readUInt16LE(0x20);
    if ((sectorShift !== 9 && sectorShift !== 12) || miniShift !== 6) throw damaged('unknown sector sizes');
    const sectorSize = 1 << sectorShift;
    const sectorCount = Math.ceil((bytes.length - sectorSize) / sectorSize);
    if (sectorCount <= 0) throw damaged('no sectors');

    const readSector = (id: number): Buffer => {
      if (!Number.isInteger(id) || id < 0 || id >= sectorCount) throw damaged(`sector ${id} lies outside the file`);
      const start = (id + 1) * sectorSize;
      const sector = Buffer.alloc(sectorSize);
      bytes.copy(sector, 0, start, Math.min(bytes.length, start + sectorSize));
      return sector;
    };

    // The FAT sectors: the header lists the first 109, a chain of DIFAT sectors the rest.
    const fatSectorCount = bytes.readUInt32LE(0x2c);
    if (fatSectorCount > sectorCount) throw damaged('more allocation sectors than sectors');
    const fatSectors: number[] = [];
    for (let i = 0; i < Math.min(fatSectorCount, HEADER_DIFAT_ENTRIES); i++)
      fatSectors.push(bytes.readInt32LE(0x4c + i * 4));
    let difat = bytes.readInt32LE(0x44);
    const seenDifat = new Set<number>();
    while (fatSectors.length < fatSectorCount) {
      if (difat < 0 || seenDifat.has(difat)) throw damaged('the sector allocation list is broken');
      seenDifat.add(difat);
      const sector = readSector(difat);
      for (let p = 0; p < sectorSize - 4 && fatSectors.length < fatSectorCount; p += 4)
        fatSectors.push(sector.readInt32LE(p));
      difat = sector.readInt32LE(sectorSize - 4);
    }
    const fat = new Int32Array(fatSectorCount * (sectorSize / 4));
    fatSectors.forEach((id, index) => {
      const sector = readSector(id);
      for (let p = 0; p < sectorSize; p += 4) fat[index * (sectorSize / 4) + p / 4] = sector.readInt32LE(p);
    });

    const chain = (table: Int32Array, start: number, limit: number, kind: string): number[] => {
      const ids: number[] = [];
      const seen = new Set<number>();
      for (let id = start; id !== END_OF_CHAIN && id !== FREE; id = table[id]) {
        if (id < 0 || id >= limit || id >= table.length || seen.has(id)) throw damaged(`a ${kind} chain is broken`);
        seen.add(id);
        ids.push(id);
      }
      return ids;
    };
    const sectorChain = (start: number) => chain(fat, start, sectorCount, 'sector');

    const directory = Buffer.concat(sectorChain(bytes.readInt32LE(0x30)).map(readSector));
    const entries: DirectoryEntry[] = [];
    for (let p = 0; p + 128 <= directory.length; p += 128) {
      const nameBytes = directory.readUInt16LE(p + 64);
      entries.push({
        name: nameBytes >= 2 && nameBytes <= 64 ? directory.toString('utf16le', p, p + nameBytes - 2) : '',
        type: directory.readUInt8(p + 66),
        left: directory.readInt32LE(p + 68),
        right: directory.readInt32LE(p + 72),
        child: directory.readInt32LE(p + 76),
        start: directory.readInt32LE(p + 116),
        size: directory.readUInt32LE(p + 120),
      });
    }
    const root = entries.find((entry) => entry.type === ROOT);
    if (!root) throw damaged('no root entry');

    // The root's children are the tree of `left`/`right` links under its `child`.
    const topLevel = new Set<number>();
    const siblings = [root.child];
    while (siblings.length > 0) {
      const id = siblings.pop()!;
      if (id === NO_ENTRY) continue;
      if (id < 0 || id >= entries.length || topLevel.has(id)) throw damaged('the directory tree loops');
      topLevel.add(id);
      siblings.push(entries[id].left, entries[id].right);
    }
    // Every entry reachable from the root once, and no more: a loop anywhere in the tree is refused.
    const reached = new Set<number>();
    const streams = new Map<string, DirectoryEntry>();
    const pending = [root.child];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (id === NO_ENTRY) continue;
      if (id < 0 || id >= entries.length || reached.has(id)) throw damaged('the directory tree loops');
      reached.add(id);
      const entry = entries[id];
      pending.push(entry.left, entry.right, entry.child);
      if (entry.size > bytes.length) throw damaged(`the stream ${entry.name} claims more bytes than the file holds`);
      if (entry.type === STREAM && topLevel.has(id)) streams.set(entry.name, entry);
    }

    const miniCutoff = bytes.readUInt32LE(0x38);
    const miniFatSectors = sectorChain(bytes.readInt32LE(0x3c));
    const miniFatBytes = Buffer.concat(miniFatSectors.map(readSector));
    const miniFat = new Int32Array(miniFatBytes.length / 4);
    for (let i = 0; i < miniFat.length; i++) miniFat[i] = miniFatBytes.readInt32LE(i * 4);
    const miniStreamSectors = root.size > 0 ? sectorChain(root.start) : [];
    const miniSectorSize = 1 << miniShift;
    const miniSectorCount = (miniStreamSectors.length * sectorSize) / miniSectorSize;
    // Every stream's whole chain is walked here, so a reader given this file meets no broken one.
    const chains = new Map<DirectoryEntry, { mini: boolean; ids: number[] }>();
    for (const id of reached) {
      const entry = entries[id];
      if (entry.type !== STREAM || entry.size === 0) continue;
      const mini = entry.size < miniCutoff;
      const ids = mini ? chain(miniFat, entry.start, miniSectorCount, 'mini sector') : sectorChain(entry.start);
      if (ids.length * (mini ? miniSectorSize : sectorSize) < entry.size)
        throw damaged(`the stream ${entry.name} is shorter than it claims`);
      chains.set(entry, { mini, ids });
    }
    return new CompoundFile(bytes, sectorSize, miniSectorSize, miniStreamSectors, chains, streams);
  }

  /** The bytes of a top-level stream, or null when the file has none of that name. */
  stream(name: string): Buffer | null {
    const entry = this.streams.get(name);
    if (!entry) return null;
    const { mini, ids } = this.chains.get(entry) ?? { mini: false, ids: [] };
    const pieces = ids.map((id) => {
      if (!mini) return this.bytes.subarray((id + 1) * this.sectorSize, (id + 2) * this.sectorSize);
      const offset = id * this.miniSectorSize;
      const sector = this.miniStreamSectors[Math.floor(offset / this.sectorSize)];
      const start = (sector + 1) * this.sectorSize + (offset % this.sectorSize);
      return this.bytes.subarray(start, start + this.miniSectorSize);
    });
    return Buffer.concat(pieces).subarray(0, entry.size);
  }
}
