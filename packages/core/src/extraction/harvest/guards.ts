import type { ParsedLine } from '../../providers/index.ts';
import { snakeCase } from './text-match.ts';

/**
 * Streaming loop guards: a model that starts repeating itself can write until its
 * token limit, so each parsed line is judged as it arrives and the pass is cut when a limit is hit.
 * The guard also rejects lines whose indices point nowhere (P lines to an entity not yet written, R
 * lines outside the entity list) and lines of the other pass.
 *
 * | Guard                               | Trips at                                  |
 * |-------------------------------------|-------------------------------------------|
 * | entities                            | the (cap + 1)th E line (cap: preset)      |
 * | consecutive out-of-bounds indices   | the 3rd in a row                          |
 * | same (source, type)                 | the 10th R line                           |
 * | same (entity, property key)         | the 5th P line                            |
 * | same (source, target) pair          | the 6th R line                            |
 * | relationships                       | the (4 × cap + 1)th R line                |
 * | invalid-index rate                  | above 0.5 once 10 lines were seen         |
 *
 * Invalid indices are out-of-bounds ones and indices that are not numbers. The line that trips a guard
 * is discarded; the lines before it stand.
 */

export interface GuardLimits {
  maxEntities: number;
  maxConsecutiveOutOfBounds: number;
  maxSameSourceType: number;
  maxSameEntityProperty: number;
  maxSamePair: number;
  maxRelationships: number;
  maxInvalidIndexRate: number;
  invalidRateMinLines: number;
}

export const DEFAULT_LOOP_ENTITY_CAP = 50;

export function guardLimits(loopEntityCap: number = DEFAULT_LOOP_ENTITY_CAP): GuardLimits {
  const cap = Math.max(1, Math.floor(loopEntityCap));
  return {
    maxEntities: cap,
    maxConsecutiveOutOfBounds: 3,
    maxSameSourceType: 10,
    maxSameEntityProperty: 5,
    maxSamePair: 6,
    maxRelationships: 4 * cap,
    maxInvalidIndexRate: 0.5,
    invalidRateMinLines: 10,
  };
}

/** Why the harvest (not the parser) turned a parsed line down. */
export type GuardRejection = 'out_of_range' | 'wrong_pass';

export type LineVerdict =
  | { kind: 'accept' }
  | { kind: 'reject'; reason: GuardRejection }
  /** Stop the stream: `guard` says which limit, e.g. `entities: same (entity, property) 5 times`. */
  | { kind: 'trip'; guard: string };

const accept: LineVerdict = { kind: 'accept' };

export type PassName = 'entities' | 'relationships';

export class StreamGuard {
  private lines = 0;
  private invalid = 0;
  private consecutiveOutOfBounds = 0;
  private entities = 0;
  private relationships = 0;
  private readonly counts = new Map<string, number>();

  /**
   * @param entityCount for the relationship pass, the size of the entity list; the entity pass counts
   *   its own E lines.
   */
  constructor(
    private readonly pass: PassName,
    private readonly limits: GuardLimits,
    private readonly entityCount = 0,
  ) {}

  /** Judges the next line of the answer (blank lines are not passed in). */
  observe(line: ParsedLine): LineVerdict {
    this.lines++;
    const verdict = this.judge(line);
    if (verdict.kind === 'trip') return verdict;
    if (this.lines >= this.limits.invalidRateMinLines && this.invalid / this.lines > this.limits.maxInvalidIndexRate) {
      return this.trip(`invalid-index rate above ${this.limits.maxInvalidIndexRate} after ${this.lines} lines`);
    }
    return verdict;
  }

  private judge(line: ParsedLine): LineVerdict {
    if (!line.ok) {
      if (line.reason === 'bad_index') this.invalid++;
      // An E line the parser could not read still takes its place in the model's entity numbering.
      if (this.pass === 'entities' && isEntityLine(line.line)) return this.countEntity();
      return accept; // the caller counts the parser's rejection
    }
    const record = line.record;
    if (this.pass === 'entities') {
      if (record.kind === 'entity') return this.countEntity();
      if (record.kind === 'property') {
        if (record.entityIndex >= this.entities) return this.outOfBounds();
        this.consecutiveOutOfBounds = 0;
        if (this.bump(`p ${record.entityIndex} ${snakeCase(record.key)}`) >= this.limits.maxSameEntityProperty) {
          return this.trip(`same (entity, property) ${this.limits.maxSameEntityProperty} times`);
        }
        return accept;
      }
      return { kind: 'reject', reason: 'wrong_pass' };
    }
    if (record.kind !== 'relationship') return { kind: 'reject', reason: 'wrong_pass' };
    if (record.sourceIndex >= this.entityCount || record.targetIndex >= this.entityCount) return this.outOfBounds();
    this.consecutiveOutOfBounds = 0;
    if (this.relationships >= this.limits.maxRelationships)
      return this.trip(`more than ${this.limits.maxRelationships} relationships`);
    this.relationships++;
    if (this.bump(`s ${record.sourceIndex} ${snakeCase(record.type)}`) >= this.limits.maxSameSourceType) {
      return this.trip(`same (source, type) ${this.limits.maxSameSourceType} times`);
    }
    if (this.bump(`st ${record.sourceIndex} ${record.targetIndex}`) >= this.limits.maxSamePair) {
      return this.trip(`same (source, target) pair ${this.limits.maxSamePair} times`);
    }
    return accept;
  }

  private countEntity(): LineVerdict {
    if (this.entities >= this.limits.maxEntities) return this.trip(`more than ${this.limits.maxEntities} entities`);
    this.entities++;
    return accept;
  }

  private outOfBounds(): LineVerdict {
    this.invalid++;
    this.consecutiveOutOfBounds++;
    if (this.consecutiveOutOfBounds >= this.limits.maxConsecutiveOutOfBounds) {
      return this.trip(`${this.limits.maxConsecutiveOutOfBounds} consecutive out-of-bounds indices`);
    }
    return { kind: 'reject', reason: 'out_of_range' };
  }

  private bump(key: string): number {
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }

  private trip(what: string): LineVerdict {
    return { kind: 'trip', guard: `${this.pass}: ${what}` };
  }
}

/** Whether a raw answer line is meant as an E record (bullets, numbering and backticks allowed before it). */
export function isEntityLine(raw: string): boolean {
  return /^\s*(?:(?:[-*•+]|\d+[.)])\s+)?`*\s*E\s*\|/i.test(raw);
}
