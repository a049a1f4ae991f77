import type { Readable } from 'node:stream';

/** What a member brings besides its bytes: a message's subject as its title and its headers. */
export interface MemberFacts {
  title?: string | null;
  metadata?: Record<string, unknown>;
  /** Text a reader wrote (a message with its headers): kept as it is, never read as a container again. */
  written?: boolean;
}

/** Where a container reader hands each of its members, in order, named by its full path in the upload. */
export interface MemberSink {
  add(name: string, content: Buffer | Readable, facts?: MemberFacts): Promise<void>;
}
