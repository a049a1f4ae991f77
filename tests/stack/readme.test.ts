// The README's shell examples, in order, through nginx in front of a fresh supervised stack: the stack
// must answer them exactly as the embedded default does (tests/readme/readme.test.ts).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe } from 'vitest';
import { startStack } from '../../tools/stack/launch.ts';
import { readmeExamples } from '../readme/readme-examples.ts';
import { freePorts } from './helpers.ts';

describe('the README examples through nginx in front of the stack', () => {
  readmeExamples(async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rhizome-stack-readme-'));
    const [publicPort, apiPort, authPort, redisPort, supervisorPort] = await freePorts(5);
    const stack = await startStack({
      dataDir,
      configDir: path.join(dataDir, 'config'),
      publicPort,
      apiPort,
      authPort,
      redisPort,
      supervisorPort,
    });
    return {
      url: stack.publicUrl,
      dataDir,
      async stop() {
        await stack.stop();
        await fs.rm(dataDir, { recursive: true, force: true });
      },
    };
  });
});
