#!/usr/bin/env node
// The `rhizome` command: the prebuilt CLI when dist/ is up to date with the sources (scripts/build.mjs),
// else the TypeScript sources through tsx.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prebuiltEntry } from './prebuilt.mjs';

// A reader that stopped reading (`rhizome search … | head`) took all it wanted: end quietly, as other commands do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
}

async function loadCli() {
  const prebuilt = prebuiltEntry(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist'));
  if (prebuilt) return import(pathToFileURL(prebuilt).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import('../src/main.ts');
}

// No top-level await: a command the prebuilt CLI hands over to the sources leaves its own run unsettled.
loadCli()
  .then(({ runCli }) => runCli(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
