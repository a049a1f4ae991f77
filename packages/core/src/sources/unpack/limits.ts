/**
 * The bounds an archive or mailbox upload is unpacked within, and the running count that enforces them
 * across one upload (nested containers included): a hostile archive may declare small sizes and expand
 * to gigabytes, or hold millions of empty entries.
 */
import type { Settings } from '@rhizome/contracts/settings';
import { loaderLimits } from '../loaders/limits.ts';
import { UnpackRefusal } from './refusal.ts';

export interface UnpackLimits {
  /** Most files one upload unpacks to, the members of nested containers included. */
  maxMembers: number;
  /** Most bytes all members together take. */
  maxTotalBytes: number;
  /** Most bytes one member takes: no more than a file uploaded on its own. */
  maxMemberBytes: number;
  /** How many times its own size a container may expand to once past `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
  /** How deep containers nest: an archive in an archive, a mailbox attached to a message. */
  maxDepth: number;
}

/** The loaders' archive bounds (entry count, bytes unpacked), and a member no larger than an upload. */
export function unpackLimits(settings: Settings): UnpackLimits {
  const loader = loaderLimits(settings);
  return {
    maxMembers: loader.maxEntries,
    maxTotalBytes: loader.maxUnpackedBytes,
    maxMemberBytes: settings.batching.max_upload_bytes,
    maxRatio: 100,
    ratioFloorBytes: 8 * 1024 * 1024,
    maxDepth: 3,
  };
}

/** What one container has expanded to so far, against its own size. */
export interface Expansion {
  /** The container's name as the refusal names it. */
  container: string;
  packedBytes: number;
  unpackedBytes: number;
}

/** Counts members and bytes of one upload and refuses, naming the member, the first time a bound is passed. */
export class UnpackBudget {
  private members = 0;
  private bytes = 0;

  constructor(
    readonly limits: UnpackLimits,
    /** The upload's name, which every refusal starts with. */
    private readonly upload: string,
  ) {}

  /** One more member named `name`. */
  admit(name: string): void {
    this.members += 1;
    if (this.members > this.limits.maxMembers)
      throw new UnpackRefusal(`'${this.upload}' has more than ${this.limits.maxMembers} members (at '${name}')`);
  }

  /** A member's declared size, checked before any of it is read. */
  declare(name: string, size: number): void {
    if (size > this.limits.maxMemberBytes) throw this.memberTooLarge(name);
  }

  /** `count` more bytes of member `name`, which has `memberBytes` so far, from the containers `within`. */
  take(name: string, count: number, memberBytes: number, within: readonly Expansion[]): void {
    this.bytes += count;
    if (memberBytes > this.limits.maxMemberBytes) throw this.memberTooLarge(name);
    if (this.bytes > this.limits.maxTotalBytes)
      throw new UnpackRefusal(
        `'${this.upload}' unpacks to more than ${this.limits.maxTotalBytes} bytes (at '${name}'; batching.max_upload_bytes, at most 500 MiB)`,
      );
    for (const expansion of within) {
      expansion.unpackedBytes += count;
      if (
        expansion.unpackedBytes > this.limits.ratioFloorBytes &&
        expansion.unpackedBytes > this.limits.maxRatio * Math.max(expansion.packedBytes, 1)
      )
        throw new UnpackRefusal(
          `'${expansion.container}' expands to more than ${this.limits.maxRatio} times its size, as a zip bomb does (at '${name}')`,
        );
    }
  }

  private memberTooLarge(name: string): UnpackRefusal {
    return new UnpackRefusal(
      `'${this.upload}' has a member larger than ${this.limits.maxMemberBytes} bytes (batching.max_upload_bytes): '${name}'`,
    );
  }
}
