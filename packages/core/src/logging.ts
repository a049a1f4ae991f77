import fs from 'node:fs';
import path from 'node:path';
import winston from 'winston';

/** The level names of GET /settings/logging/level (docs/api-conventions.md#logs-and-diagnostics), most severe first. */
export const logLevels = ['CRITICAL', 'ERROR', 'WARNING', 'INFO', 'DEBUG'] as const;
export type LogLevel = (typeof logLevels)[number];

const numericLevels: Record<LogLevel, number> = { CRITICAL: 50, ERROR: 40, WARNING: 30, INFO: 20, DEBUG: 10 };
const winstonLevels = { critical: 0, error: 1, warning: 2, info: 3, debug: 4 };

export type Logger = winston.Logger;

export function numericLevel(level: LogLevel): number {
  return numericLevels[level];
}

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (logLevels as readonly string[]).includes(value);
}

export function setLogLevel(logger: Logger, level: LogLevel): void {
  logger.level = level.toLowerCase();
}

export function currentLogLevel(logger: Logger): LogLevel {
  return logger.level.toUpperCase() as LogLevel;
}

/**
 * A service logger: JSON lines into `<logs_dir>/<service>.log` (read back by the /logs endpoints)
 * and one short human line per entry on stdout.
 */
export function createLogger(service: string, logsDir: string, level: LogLevel = 'INFO'): Logger {
  fs.mkdirSync(logsDir, { recursive: true });
  return winston.createLogger({
    levels: winstonLevels,
    level: level.toLowerCase(),
    defaultMeta: { service },
    format: winston.format.combine(winston.format.timestamp(), winston.format.errors({ stack: true })),
    transports: [
      new winston.transports.File({ filename: path.join(logsDir, `${service}.log`), format: winston.format.json() }),
      new winston.transports.Console({
        format: winston.format.printf(
          ({ timestamp, level: lvl, message }) => `${timestamp} ${service} ${lvl}: ${message}`,
        ),
      }),
    ],
  });
}
