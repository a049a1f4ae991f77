/**
 * The pipe-delimited line grammar extraction passes answer in:
 *
 *   E|name|type|aliases|confidence|sent_ref|description      aliases separated by `;`
 *   P|entity_index|key|value                                 right after its E line
 *   R|source_index|target_index|type|confidence|sent_ref|justification
 *
 * The formatter writes canonical lines (the builtin provider uses it); the parser reads what real
 * models write, which drifts from the prompt: bullets, backticks, code fences, padding around pipes,
 * trailing pipes, confidence as 0.8 / 80 / "high", omitted aliases or confidence, and `|` inside the
 * free text of the last field.
 */

export interface EntityRecord {
  kind: 'entity';
  name: string;
  type: string;
  aliases: string[];
  /** 0..1 */
  confidence: number;
  /** Sorted unique 1-based sentence numbers; empty when the line gave none or an unreadable one. */
  sentenceRefs: number[];
  description: string;
}

export interface PropertyRecord {
  kind: 'property';
  /** 0-based position of the entity among the E lines of the same answer. */
  entityIndex: number;
  key: string;
  value: string;
}

export interface RelationshipRecord {
  kind: 'relationship';
  sourceIndex: number;
  targetIndex: number;
  type: string;
  confidence: number;
  sentenceRefs: number[];
  justification: string;
}

export type ExtractionRecord = EntityRecord | PropertyRecord | RelationshipRecord;

export type RejectionReason = 'not_a_record' | 'missing_field' | 'bad_index' | 'self_link' | 'template_echo';

export type ParsedLine =
  | { ok: true; record: ExtractionRecord; line: string }
  | { ok: false; reason: RejectionReason; detail: string; line: string };

/** Used when a line leaves the confidence out. */
export const DEFAULT_CONFIDENCE = 0.5;

/** A range wider than this is a model glitch (`S1-S99999`), not evidence. */
const MAX_REF_RANGE = 1000;

// ---------------------------------------------------------------- formatting

/** A field safe to put between pipes: no `|`, no line breaks, single spaces. */
export function cleanField(value: string): string {
  return value.replace(/\|/g, '/').replace(/\s+/g, ' ').trim();
}

function formatConfidence(value: number): string {
  return String(Math.round(Math.min(1, Math.max(0, value)) * 100) / 100);
}

/** `[1, 2, 3, 5]` → `S1-S3, S5`. */
export function formatSentenceRefs(refs: readonly number[]): string {
  const sorted = [...new Set(refs)].filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j > i ? `S${sorted[i]}-S${sorted[j]}` : `S${sorted[i]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

export function formatEntityLine(entity: Omit<EntityRecord, 'kind'>): string {
  const aliases = entity.aliases.map((alias) => cleanField(alias).replace(/;/g, ',')).filter(Boolean);
  return [
    'E',
    cleanField(entity.name),
    cleanField(entity.type),
    aliases.join(';'),
    formatConfidence(entity.confidence),
    formatSentenceRefs(entity.sentenceRefs),
    cleanField(entity.description),
  ].join('|');
}

export function formatPropertyLine(property: Omit<PropertyRecord, 'kind'>): string {
  return ['P', String(property.entityIndex), cleanField(property.key), cleanField(property.value)].join('|');
}

export function formatRelationshipLine(relationship: Omit<RelationshipRecord, 'kind'>): string {
  return [
    'R',
    String(relationship.sourceIndex),
    String(relationship.targetIndex),
    cleanField(relationship.type),
    formatConfidence(relationship.confidence),
    formatSentenceRefs(relationship.sentenceRefs),
    cleanField(relationship.justification),
  ].join('|');
}

export function formatRecord(record: ExtractionRecord): string {
  if (record.kind === 'entity') return formatEntityLine(record);
  if (record.kind === 'property') return formatPropertyLine(record);
  return formatRelationshipLine(record);
}

// ---------------------------------------------------------------- parsing pieces

/**
 * `S3`, `S2-S5`, `S2-5`, `S1, S5`, `S1; S3-S4 and S7`, lowercase, en dashes, brackets → sorted unique
 * 1-based numbers. Anything that is not wholly made of such references (or a range wider than 1000)
 * gives an empty list.
 */
export function parseSentenceRefs(text: string): number[] {
  const body = text
    .trim()
    .replace(/^[[(]|[\])]$/g, '')
    .replace(/\s*[-–—]\s*/g, '-')
    .trim();
  if (body === '') return [];
  const refs = new Set<number>();
  for (const part of body.split(/(?:[\s,;]|\band\b)+/i).filter(Boolean)) {
    const match = /^s(\d+)(?:-s?(\d+))?$/i.exec(part);
    if (!match) return [];
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    const [low, high] = from <= to ? [from, to] : [to, from];
    if (low < 1 || high - low > MAX_REF_RANGE) return [];
    for (let n = low; n <= high; n++) refs.add(n);
  }
  return [...refs].sort((a, b) => a - b);
}

const verbalConfidence: Record<string, number> = {
  'very high': 0.95,
  high: 0.9,
  medium: 0.6,
  moderate: 0.6,
  low: 0.3,
  'very low': 0.1,
};

/** `0.8`, `.8`, `80`, `80%`, `high` → 0..1; null when the text is not a confidence. */
export function parseConfidence(text: string): number | null {
  const value = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (value in verbalConfidence) return verbalConfidence[value];
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*(%?)$/.exec(value);
  if (!match) return null;
  const number = Number(match[1]);
  if (match[2] === '%' || number > 1) return number <= 100 ? number / 100 : null;
  return number;
}

function parseIndex(text: string): number | null {
  const match = /^[#[(]?\s*(\d+)\s*[\])]?$/.exec(text.trim());
  return match ? Number(match[1]) : null;
}

/** Strips what models wrap lines in: bullets, numbering, backticks, quotes, trailing pipes. */
function unwrap(raw: string): string {
  let line = raw.trim().replace(/^(?:[-*•+]\s+|\d+[.)]\s+)/, '');
  line = line.replace(/^`+|`+$/g, '').trim();
  if (/^"[^"]*"$/.test(line)) line = line.slice(1, -1).trim();
  return line.replace(/\s*\|[\s|]*$/, '');
}

function field(value: string | undefined): string {
  return (value ?? '')
    .trim()
    .replace(/^`+|`+$/g, '')
    .trim();
}

function isPlaceholder(value: string): boolean {
  return /^(?:|-+|—|none|n\/a|null)$/i.test(field(value));
}

function parseAliases(text: string): string[] {
  if (isPlaceholder(text)) return [];
  return [
    ...new Set(
      text
        .split(';')
        .map(field)
        .filter((alias) => !isPlaceholder(alias)),
    ),
  ];
}

/**
 * The tail `confidence|sent_ref|free text` of E and R lines. A model may leave a slot empty, or leave
 * out the confidence, the sentence reference or both; whatever follows is the free text, pipes kept.
 */
function parseTail(fields: string[]): { confidence: number; sentenceRefs: number[]; text: string } {
  let rest = fields;
  const confidence = rest.length > 0 ? parseConfidence(field(rest[0])) : null;
  if (confidence !== null || (rest.length > 0 && isPlaceholder(rest[0]))) rest = rest.slice(1);
  const sentenceRefs = rest.length > 0 ? parseSentenceRefs(field(rest[0])) : [];
  if (sentenceRefs.length > 0 || (rest.length > 0 && isPlaceholder(rest[0]))) rest = rest.slice(1);
  return { confidence: confidence ?? DEFAULT_CONFIDENCE, sentenceRefs, text: field(rest.join('|')) };
}

function reject(line: string, reason: RejectionReason, detail: string): ParsedLine {
  return { ok: false, reason, detail, line };
}

function parseEntity(line: string, fields: string[]): ParsedLine {
  const name = field(fields[1]);
  const type = field(fields[2]);
  if (!name || !type) return reject(line, 'missing_field', 'an E line needs a name and a type');
  if (name.toLowerCase() === 'name' && type.toLowerCase() === 'type')
    return reject(line, 'template_echo', 'the line repeats the format description');
  // The aliases field may be missing altogether: then the confidence (or sent_ref) sits in its place.
  const third = fields[3] ?? '';
  const aliasesOmitted = parseConfidence(field(third)) !== null || parseSentenceRefs(field(third)).length > 0;
  const aliases = aliasesOmitted ? [] : parseAliases(third);
  const tail = parseTail(fields.slice(aliasesOmitted ? 3 : 4));
  return {
    ok: true,
    line,
    record: {
      kind: 'entity',
      name,
      type,
      aliases,
      confidence: tail.confidence,
      sentenceRefs: tail.sentenceRefs,
      description: tail.text,
    },
  };
}

function parseProperty(line: string, fields: string[]): ParsedLine {
  const entityIndex = parseIndex(fields[1] ?? '');
  if (entityIndex === null) return reject(line, 'bad_index', `entity index "${field(fields[1])}" is not a number`);
  const key = field(fields[2]);
  const value = field(fields.slice(3).join('|'));
  if (!key || !value) return reject(line, 'missing_field', 'a P line needs a key and a value');
  return { ok: true, line, record: { kind: 'property', entityIndex, key, value } };
}

function parseRelationship(line: string, fields: string[]): ParsedLine {
  const sourceIndex = parseIndex(fields[1] ?? '');
  const targetIndex = parseIndex(fields[2] ?? '');
  if (sourceIndex === null || targetIndex === null)
    return reject(line, 'bad_index', `indices "${field(fields[1])}", "${field(fields[2])}" are not numbers`);
  if (sourceIndex === targetIndex) return reject(line, 'self_link', `entity ${sourceIndex} is linked to itself`);
  const type = field(fields[3]);
  if (!type) return reject(line, 'missing_field', 'an R line needs a type');
  const tail = parseTail(fields.slice(4));
  return {
    ok: true,
    line,
    record: {
      kind: 'relationship',
      sourceIndex,
      targetIndex,
      type,
      confidence: tail.confidence,
      sentenceRefs: tail.sentenceRefs,
      justification: tail.text,
    },
  };
}

/**
 * One line of model output. `null` for lines that carry nothing (blank, code fences); otherwise the
 * record or why the line was rejected.
 */
export function parseLine(raw: string): ParsedLine | null {
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed.startsWith('```')) return null;
  const line = unwrap(trimmed);
  const fields = line.split('|');
  const tag = fields[0].trim().toUpperCase();
  if (fields.length < 2 || !['E', 'P', 'R'].includes(tag))
    return reject(trimmed, 'not_a_record', 'the line does not start with E|, P| or R|');
  if (tag === 'E') return parseEntity(trimmed, fields);
  if (tag === 'P') return parseProperty(trimmed, fields);
  return parseRelationship(trimmed, fields);
}

/** Every non-empty line of a whole answer, in order. */
export function parseLines(text: string): ParsedLine[] {
  return text.split(/\r?\n/).flatMap((line) => {
    const parsed = parseLine(line);
    return parsed ? [parsed] : [];
  });
}

// ---------------------------------------------------------------- streaming

/**
 * Turns streamed text deltas into complete lines, so a caller can parse (and apply its guards)
 * while the answer is still arriving. Lines come without their `\n` / `\r\n`.
 */
export class LineSplitter {
  private buffer = '';

  /** The lines this delta completed. */
  push(delta: string): string[] {
    this.buffer += delta;
    const lines: string[] = [];
    let newline = this.buffer.indexOf('\n');
    while (newline !== -1) {
      lines.push(this.buffer.slice(0, newline).replace(/\r$/, ''));
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf('\n');
    }
    return lines;
  }

  /** The unterminated last line, if any; the splitter is empty afterwards. */
  flush(): string[] {
    const rest = this.buffer.replace(/\r$/, '');
    this.buffer = '';
    return rest === '' ? [] : [rest];
  }
}
