// deploy/compose.yaml: `docker compose config` validates it where Docker Compose exists; elsewhere the file
// is checked here for what compose would reject or what would break the stack at run time.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deployDir, repoDir } from '../../tools/stack/template.ts';

const run = promisify(execFile);
const composeFile = path.join(deployDir, 'compose.yaml');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

async function dockerComposeAvailable(): Promise<boolean> {
  try {
    await run('docker', ['compose', 'version']);
    return true;
  } catch {
    return false;
  }
}

describe('deploy/compose.yaml', () => {
  it('is a valid compose file describing the suite', async () => {
    if (await dockerComposeAvailable()) {
      await run('docker', ['compose', '-f', composeFile, 'config', '--quiet'], { cwd: repoDir });
      return;
    }

    const compose = parse(await fs.readFile(composeFile, 'utf8'), { merge: true }) as ComposeFile;
    const services = compose.services;
    for (const name of ['nginx', 'valkey', 'cortex-api', 'neuron-worker', 'auth-verify'])
      expect(services, name).toHaveProperty(name);
    expect(services.valkey.image).toBe('valkey/valkey:8');

    for (const name of ['cortex-api', 'neuron-worker', 'auth-verify']) {
      const service = services[name];
      expect(service.command, name).toEqual(['node', '--import', 'tsx', `services/${name}/src/main.ts`]);
      expect(service.environment, name).toMatchObject({ RHIZOME_DATA_DIR: '/data', HOST: '0.0.0.0' });
      expect(service.environment?.RHIZOME_QUEUE_URL, name).toMatch(/@valkey:6379\//);
    }
    expect(services['cortex-api'].environment?.PORT).toBe('8080');
    expect(services['auth-verify'].environment?.PORT).toBe('8081');
    expect(services['cortex-api'].ports).toContain('127.0.0.1:8080:8080');
    expect(services.nginx.ports).toContain('127.0.0.1:8888:8888');

    // The setup step renders nginx.conf with the upstreams the services really listen on.
    expect(services.setup.command).toEqual(['node', '--import', 'tsx', 'tools/stack/compose-setup.ts']);
    expect(existsSync(path.join(repoDir, 'tools/stack/compose-setup.ts'))).toBe(true);
    expect(services.setup.environment).toMatchObject({
      API_UPSTREAM: 'cortex-api:8080',
      AUTH_UPSTREAM: 'auth-verify:8081',
      PORT: '8888',
    });

    for (const [name, service] of Object.entries(services)) {
      expect(service.image ?? service.build, `${name} needs an image or a build`).toBeDefined();
      if (service.build)
        expect(
          existsSync(path.resolve(deployDir, service.build.context, service.build.dockerfile)),
          `${name} Dockerfile`,
        ).toBe(true);
      for (const port of service.ports ?? [])
        expect(port, `${name} publishes on loopback only`).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
      for (const dependency of Object.keys(service.depends_on ?? {}))
        expect(services, `${name} depends on ${dependency}`).toHaveProperty(dependency);
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0];
        if (!source.startsWith('.') && !source.startsWith('/'))
          expect(compose.volumes, `${name} uses volume ${source}`).toHaveProperty(source);
      }
    }
  });
});
