/**
 * An archive or mailbox upload unpacked into the files that become its sources. Every member is written
 * to a file of its own beside the uploads, then either read as a container in turn (an archive in an
 * archive, a mailbox attached to a message, down to `maxDepth`), kept with its sniffed type, or listed
 * with the reason it is refused. A bound passed anywhere refuses the whole upload and removes every file
 * written for it.
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { allowedType } from '../loaders/allowed-type.ts';
import type { LoaderFormat } from '../loaders/port.ts';
import { containerKind, type ContainerKind } from './kind.ts';
import { UnpackBudget, type Expansion, type UnpackLimits } from './limits.ts';
import { readMessage } from './mail.ts';
import { mailboxMessages } from './mbox.ts';
import { UnpackRefusal } from './refusal.ts';
import type { MemberFacts, MemberSink } from './sink.ts';
import { spool } from './spool.ts';
import { readTar } from './tar.ts';
import { readZip } from './zip.ts';

/** A member to become a source: its file on disk, its name (its path in the upload) and its type. */
export interface UnpackedMember extends Omit<MemberFacts, 'written'> {
  path: string;
  filename: string;
  size: number;
  sha256: string;
  mediaType: string;
  format: LoaderFormat;
}

export interface Unpacked {
  members: UnpackedMember[];
  /** Members that will not become sources, each with why. */
  refused: { filename: string; error: string }[];
}

export interface UnpackRequest {
  path: string;
  filename: string;
  kind: ContainerKind;
  /** Where members are written: the uploads' directory, so storing one is a rename. */
  dir: string;
  limits: UnpackLimits;
  /** `batching.allowed_content_types`, which every member passes as a file uploaded on its own would. */
  allowed: string[];
}

class Unpacker implements Unpacked {
  readonly members: UnpackedMember[] = [];
  readonly refused: { filename: string; error: string }[] = [];
  private readonly budget: UnpackBudget;

  constructor(private readonly request: UnpackRequest) {
    this.budget = new UnpackBudget(request.limits, request.filename);
  }

  /** Reads the container at `file`, its members named from `prefix`. */
  async container(
    file: string,
    kind: ContainerKind,
    name: string,
    prefix: string,
    depth: number,
    within: readonly Expansion[],
  ): Promise<void> {
    const expansion: Expansion = {
      container: name,
      packedBytes: (await fs.promises.stat(file)).size,
      unpackedBytes: 0,
    };
    const sink: MemberSink = {
      add: (member, content, facts) => this.add(member, content, facts ?? {}, depth, [...within, expansion]),
    };
    const { limits } = this.request;
    if (kind === 'zip') return readZip(file, name, prefix, sink, limits);
    if (kind === 'tar') return readTar(file, name, prefix, sink, this.budget);
    if (expansion.packedBytes > limits.maxTotalBytes)
      throw new UnpackRefusal(`'${name}' is larger than ${limits.maxTotalBytes} bytes, the most unpacked`);
    if (kind === 'eml') return readMessage(await fs.promises.readFile(file), name, sink);
    let index = 0;
    for await (const raw of mailboxMessages(file, name, limits.maxMemberBytes))
      await readMessage(raw, `${prefix}${String(++index).padStart(4, '0')}.eml`, sink);
  }

  private async add(
    name: string,
    content: Buffer | Readable,
    facts: MemberFacts,
    depth: number,
    within: readonly Expansion[],
  ): Promise<void> {
    this.budget.admit(name);
    const file = await spool(this.request.dir, content, (count, total) => this.budget.take(name, count, total, within));
    let kept = false;
    try {
      if (file.size === 0) return this.refuse(name, `the file '${name}' is empty`);
      const nested = facts.written ? null : await containerKind(file.path, name);
      if (nested) {
        if (depth + 1 >= this.request.limits.maxDepth)
          return this.refuse(name, `'${name}' is nested ${depth + 1} containers deep, deeper than is unpacked`);
        return await this.container(file.path, nested, name, `${name}/`, depth + 1, within);
      }
      const type = await allowedType(file.path, name, this.request.allowed);
      if ('refused' in type) return this.refuse(name, type.refused);
      this.members.push({
        ...file,
        title: facts.title,
        metadata: facts.metadata,
        filename: name,
        mediaType: type.mediaType,
        format: type.format,
      });
      kept = true;
    } finally {
      if (!kept) await fs.promises.rm(file.path, { force: true });
    }
  }

  private refuse(filename: string, error: string): void {
    this.refused.push({ filename, error });
  }

  async discard(): Promise<void> {
    await Promise.all(this.members.map((member) => fs.promises.rm(member.path, { force: true })));
  }
}

/**
 * Unpacks the upload; an `UnpackRefusal` (as a 422 through `toInvalid`) when a bound is passed or the
 * container is damaged, with nothing left behind.
 */
export async function unpack(request: UnpackRequest): Promise<Unpacked> {
  const unpacker = new Unpacker(request);
  try {
    await unpacker.container(request.path, request.kind, request.filename, '', 0, []);
  } catch (error) {
    await unpacker.discard();
    throw error;
  }
  return { members: unpacker.members, refused: unpacker.refused };
}
