#!/usr/bin/env node
// Builds the web interface when dist/ is missing or older than a source file: run by `pnpm install`
// (postinstall) and `pnpm start`, so a fresh clone serves the interface without a separate step.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(web, '../..');
const built = path.join(web, 'dist', 'index.html');
const inputs = [
  path.join(web, 'src'),
  path.join(web, 'index.html'),
  path.join(web, 'vite.config.ts'),
  path.join(web, 'package.json'),
  path.join(root, 'packages/client/src'),
  path.join(root, 'packages/contracts/src'),
];

function newest(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
if (builtAt && Math.max(...inputs.map(newest)) <= builtAt && process.argv[2] !== '--force') process.exit(0);
if (!fs.existsSync(path.join(web, 'node_modules', '.bin', 'vite'))) {
  console.warn('web interface: dependencies not installed yet (run pnpm install); the API serves a notice page at /');
  process.exit(0);
}
console.log('building the web interface (packages/web) …');
const result = spawnSync(path.join(web, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
  cwd: web,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
process.exit(result.status ?? 1);
