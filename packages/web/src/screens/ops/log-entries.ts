/** One line of a service log, split into what a person reads; lines in no known shape keep their text as the message. */
export interface LogEntry {
  time: Date | null;
  level: LogLevel | null;
  service: string | null;
  message: string;
  /** The other fields of a structured line (a stack, a request id…), or null. */
  extra: Record<string, unknown> | null;
}

export const logLevels = ['critical', 'error', 'warning', 'info', 'debug'] as const;
export type LogLevel = (typeof logLevels)[number];

export const logLevelColors: Record<LogLevel, string> = {
  critical: 'red',
  error: 'red',
  warning: 'yellow',
  info: 'blue',
  debug: 'gray',
};

const levelAliases: Record<string, LogLevel> = { warn: 'warning', fatal: 'critical', crit: 'critical', err: 'error' };

function levelOf(value: unknown): LogLevel | null {
  if (typeof value !== 'string') return null;
  const name = value.toLowerCase();
  return (logLevels as readonly string[]).includes(name) ? (name as LogLevel) : (levelAliases[name] ?? null);
}

function timeOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time;
}

/** `2026-01-02T03:04:05.678Z cortex info: message`, the console form of the same entries. */
const plainLine = /^(\d{4}-\d\d-\d\dT\S+)\s+(\S+)\s+([a-zA-Z]+):\s?(.*)$/s;

/** The `[service] ` the interleaved log of every service puts before each line. */
const servicePrefix = /^\[([\w.-]+)\] /;

export function parseLogLine(line: string): LogEntry {
  const prefix = servicePrefix.exec(line);
  if (!prefix) return parseServiceLine(line);
  const entry = parseServiceLine(line.slice(prefix[0].length));
  return { ...entry, service: entry.service ?? prefix[1] };
}

function parseServiceLine(line: string): LogEntry {
  if (line.startsWith('{')) {
    try {
      const parsed = JSON.parse(line) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const { timestamp, level, service, message, ...extra } = parsed as Record<string, unknown>;
        return {
          time: timeOf(timestamp),
          level: levelOf(level),
          service: typeof service === 'string' ? service : null,
          message: typeof message === 'string' ? message : JSON.stringify(message ?? ''),
          extra: Object.keys(extra).length ? extra : null,
        };
      }
    } catch {
      // Not JSON after all: shown as it is.
    }
  }
  const plain = plainLine.exec(line);
  if (plain && levelOf(plain[3]))
    return { time: timeOf(plain[1]), level: levelOf(plain[3]), service: plain[2], message: plain[4], extra: null };
  return { time: null, level: null, service: null, message: line, extra: null };
}

/** Whether an entry is at least as severe as `minimum`; entries of no known level show only when nothing is filtered. */
export function isAtLeast(entry: LogEntry, minimum: LogLevel | 'all'): boolean {
  if (minimum === 'all') return true;
  return entry.level !== null && logLevels.indexOf(entry.level) <= logLevels.indexOf(minimum);
}
