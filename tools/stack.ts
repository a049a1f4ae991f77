// `pnpm stack`: the supervised suite (nginx, queue store, cortex-api, neuron-worker, auth-verify) in the foreground.
import { resolveDataDir } from '@rhizome/core/paths';
import { startStack } from './stack/launch.ts';

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    throw new Error(`${name} must be a port number, got ${raw}`);
  return value;
}

const dataDir = resolveDataDir();
const stack = await startStack({
  dataDir,
  configDir: process.env.RHIZOME_CONFIG_DIR || undefined,
  host: process.env.HOST || undefined,
  publicPort: port('PORT', 8888),
  apiPort: port('API_PORT', 8080),
  authPort: port('AUTH_PORT', 8081),
  redisPort: port('REDIS_PORT', 6390),
  supervisorPort: port('SUPERVISOR_PORT', 9011),
});

const redact = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
console.log(`Rhizome stack running (data dir ${dataDir})
  public_url      ${stack.publicUrl}
  api_direct_url  ${stack.apiDirectUrl}
  supervisor      ${redact(stack.supervisorUrl)}
  queue           ${redact(stack.queueUrl)}
  logs            ${dataDir}/logs/
Ctrl-C stops everything.`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the stack…');
    stack.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
