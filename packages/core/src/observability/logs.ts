import fs from 'node:fs/promises';
import path from 'node:path';
import { NotFound } from '@rhizome/contracts/errors';

/** Services whose `<logs_dir>/<service>.log` the /logs endpoints read (docs/api-conventions.md#logs-and-diagnostics). */
export const logServices = ['cortex', 'neuron', 'auth-verify', 'nginx', 'valkey'] as const;
export type LogService = (typeof logServices)[number];

export interface ServiceLog {
  service: string;
  lines: string[];
  total_lines: number;
}

export interface AllLogs {
  service: null;
  lines: string[];
  total_lines: number;
}

const maxLines = 10_000;
const blockSize = 64 * 1024;
// A tail never holds more than this much of one file, whatever its line lengths.
const maxTailBytes = 16 * 1024 * 1024;

/** The last `lines` lines of one service's log, oldest first; a missing file reads as empty. */
export async function readServiceLog(logsDir: string, service: string, lines: number): Promise<ServiceLog> {
  if (!isLogService(service)) throw NotFound.resource('log_service', service);
  const tail = await tailLines(path.join(logsDir, `${service}.log`), clampLines(lines));
  return { service, lines: tail, total_lines: tail.length };
}

/**
 * The newest `lines` lines across every service, oldest first, each prefixed `[service] `.
 * Lines without a timestamp of their own (stack-trace continuations) sort with the line before them.
 */
export async function readAllLogs(logsDir: string, lines: number): Promise<AllLogs> {
  const count = clampLines(lines);
  const perService = await Promise.all(
    logServices.map(async (service) => ({
      service,
      lines: await tailLines(path.join(logsDir, `${service}.log`), count),
    })),
  );
  const entries = perService.flatMap(({ service, lines: tail }) =>
    timestampLines(tail).map(({ line, time }) => ({ time, text: `[${service}] ${line}` })),
  );
  // Array#sort is stable: equal timestamps keep service order, and each file's lines stay in file order.
  entries.sort((a, b) => a.time - b.time);
  const newest = entries.slice(-count).map((entry) => entry.text);
  return { service: null, lines: newest, total_lines: newest.length };
}

function isLogService(service: string): service is LogService {
  return (logServices as readonly string[]).includes(service);
}

function clampLines(lines: number): number {
  const whole = Math.trunc(lines);
  return Number.isNaN(whole) ? 1 : Math.min(maxLines, Math.max(1, whole));
}

/** Reads `file` backwards in blocks until `count` complete lines (or the start of the file) are reached. */
async function tailLines(file: string, count: number): Promise<string[]> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return [];
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    const endsWithNewline = last[0] === 0x0a;
    // `count` lines are complete once `count` newlines precede the end (plus the one that ends the file).
    const neededNewlines = count + (endsWithNewline ? 1 : 0);

    const chunks: Buffer[] = [];
    let position = size;
    let newlines = 0;
    while (position > 0 && newlines < neededNewlines && size - position < maxTailBytes) {
      const length = Math.min(blockSize, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      const data = chunk.subarray(0, bytesRead);
      for (const byte of data) if (byte === 0x0a) newlines += 1;
      chunks.push(data);
    }

    // Splitting on 0x0a is safe for UTF-8: that byte never occurs inside a multi-byte character.
    let text = Buffer.concat(chunks.reverse()).toString('utf8');
    if (endsWithNewline) text = text.slice(0, -1);
    const result = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
    if (position > 0) result.shift(); // began mid-line
    return result.slice(-count);
  } finally {
    await handle.close();
  }
}

/**
 * Gives every line a sort time: its own timestamp, else the previous line's. Lines before the first
 * timestamped one belong to an entry that started above the tail, so they take the next timestamp.
 */
function timestampLines(lines: string[]): { line: string; time: number }[] {
  const own = lines.map(parseTimestamp);
  const firstKnown = own.find((time) => time !== null) ?? Number.NEGATIVE_INFINITY;
  let previous = firstKnown;
  return lines.map((line, index) => {
    previous = own[index] ?? previous;
    return { line, time: previous };
  });
}

const nginxPattern = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2}) \[/;
const valkeyPattern = /^\d+:[A-Z] (\d{1,2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))? /;
const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Epoch milliseconds of a winston JSON line (ISO, zoned), or an nginx / valkey line (local time). */
function parseTimestamp(line: string): number | null {
  if (line.startsWith('{')) return winstonTimestamp(line);
  const nginx = nginxPattern.exec(line);
  if (nginx) {
    const [, year, month, day, hour, minute, second] = nginx.map(Number);
    return new Date(year, month - 1, day, hour, minute, second).getTime();
  }
  const valkey = valkeyPattern.exec(line);
  const month = valkey ? monthNames.indexOf(valkey[2]) : -1;
  if (valkey && month >= 0) {
    const [, day, , year, hour, minute, second, millis] = valkey;
    return new Date(
      Number(year),
      month,
      Number(day),
      Number(hour),
      Number(minute),
      Number(second),
      Number((millis ?? '0').padEnd(3, '0')),
    ).getTime();
  }
  return null;
}

function winstonTimestamp(line: string): number | null {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof entry !== 'object' || entry === null) return null;
  const { timestamp } = entry as { timestamp?: unknown };
  if (typeof timestamp !== 'string') return null;
  const time = Date.parse(timestamp);
  return Number.isNaN(time) ? null : time;
}
