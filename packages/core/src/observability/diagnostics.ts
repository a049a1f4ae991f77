import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { logServices, readServiceLog } from './logs.ts';

/** What `GET /diagnostics/export` bundles; `queue` and `services` are left out when absent. */
export interface DiagnosticsInput {
  system: Record<string, unknown>;
  settings: Record<string, unknown>;
  /** Actual secret values (session secret, edge token, passwords) to scrub from every entry. */
  secrets: string[];
  databases: Record<string, unknown>;
  logsDir: string;
  logLines?: number;
  queue?: unknown;
  services?: unknown;
}

const defaultLogLines = 2000;
const redacted = '[REDACTED]';
// Names of secret-bearing fields: a superset of api_key|token|password|secret|credentials.
const secretNames = '(?:api_?key|token|passw(?:or)?d|secret|credentials)';
// Settings keys to drop: `token` only as a name's last word, so counters like ai_max_tokens stay.
const secretKeyPattern = /api_?key|(?:^|_)token$|passw(?:or)?d|secret|credentials/i;

// Secret-looking text in any entry, applied after the known secret values are replaced.
const textPatterns: [RegExp, string][] = [
  [/cc_live_[A-Za-z0-9_-]+/g, redacted],
  [/\bBearer\s+[A-Za-z0-9._~+/-]+=*/gi, `Bearer ${redacted}`],
  // Credentials in URLs, e.g. a supervisor URL `http://user:pass@host/RPC2`.
  [/(\/\/[^\s/:@"]+:)[^\s/@"]+@/g, `$1${redacted}@`],
  // JSON string fields, plain (`"password": "x"`) and JSON-escaped inside a string (`\"password\":\"x\"`).
  [new RegExp(String.raw`("[^"\\]*${secretNames}[^"\\]*"\s*:\s*)"(?:[^"\\]|\\.)*"`, 'gi'), `$1"${redacted}"`],
  [
    new RegExp(String.raw`(\\"[^"\\]*${secretNames}[^"\\]*\\"\s*:\s*)\\"(?:[^"\\]|\\[^"])*\\"`, 'gi'),
    String.raw`$1\"${redacted}\"`,
  ],
  // `password=x`, `access_token: x`, `secret='x'` in plain text, query strings and config dumps.
  [new RegExp(String.raw`\b([\w-]*${secretNames}[\w-]*\s*[=:]\s*['"]?)[^\s&"',;]+`, 'gi'), `$1${redacted}`],
];

/** Host and process facts for `system.json`. */
export function systemInfo(version: string): Record<string, unknown> {
  return {
    rhizome_version: version,
    node_version: process.version,
    platform: process.platform,
    arch: process.arch,
    os_release: os.release(),
    cpu_count: os.cpus().length,
    total_memory_bytes: os.totalmem(),
    free_memory_bytes: os.freemem(),
    process_uptime_seconds: Math.round(process.uptime()),
    pid: process.pid,
  };
}

/** The diagnostics ZIP: every entry sanitized, secret settings fields removed outright. */
export async function buildDiagnosticsZip(input: DiagnosticsInput): Promise<Buffer> {
  const entries = new Map<string, string>([
    ['system.json', json(input.system)],
    ['settings.json', json(withoutSecretFields(input.settings))],
    ['databases.json', json(input.databases)],
  ]);
  if (input.queue !== undefined) entries.set('queue.json', json(input.queue));
  if (input.services !== undefined) entries.set('services.json', json(input.services));
  for (const service of logServices) {
    if (!(await exists(path.join(input.logsDir, `${service}.log`)))) continue;
    const log = await readServiceLog(input.logsDir, service, input.logLines ?? defaultLogLines);
    entries.set(`logs/${service}.log`, log.lines.map((line) => `${line}\n`).join(''));
  }

  const redact = redactor(input.secrets);
  const zip = new JSZip();
  for (const [name, text] of entries) zip.file(name, redact(text));
  zip.file('README.txt', readme([...entries.keys()]));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function withoutSecretFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecretFields);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !secretKeyPattern.test(key))
      .map(([key, child]) => [key, withoutSecretFields(child)]),
  );
}

function redactor(secrets: string[]): (text: string) => string {
  // Secrets appear raw in plain text and JSON-escaped inside JSON entries and log lines.
  const forms = secrets
    .filter((secret) => secret !== '')
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]);
  // Longest first, so a secret containing another is replaced whole.
  const literals = [...new Set(forms)].sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text;
    for (const literal of literals) result = result.split(literal).join(redacted);
    for (const [pattern, replacement] of textPatterns) result = result.replace(pattern, replacement);
    return result;
  };
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

function readme(entryNames: string[]): string {
  return [
    'Rhizome diagnostics bundle',
    `Generated: ${new Date().toISOString()}`,
    '',
    'Contents:',
    ...entryNames.map((name) => `  ${name}`),
    '',
    'Secrets are removed: secret settings fields (API keys, tokens, passwords, secrets, credentials) are',
    'left out entirely, and known secret values, API keys, bearer tokens and passwords found in any file',
    `are replaced with ${redacted}. Components that were unavailable are omitted.`,
    '',
  ].join('\n');
}
