import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { mapUpstreamStatus } from '../../src/registry/client.ts';
import { RegistryService } from '../../src/registry/service.ts';
import { CredentialsFile } from '../../src/registry/credentials.ts';
import { deviceCodeOf, issuedTokenOf, packageInfoOf } from '../../src/registry/wire.ts';

describe('registry credentials file', () => {
  const dirs: string[] = [];
  const configDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-config-'));
    dirs.push(dir);
    return path.join(dir, 'nested', 'rhizome');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates auth.json with mode 0600 (directory created too), reads it back and removes it', () => {
    const file = new CredentialsFile(configDir());
    expect(file.read()).toBeNull();
    file.write({
      registry_url: 'https://registry.example',
      token: 't0k3n',
      username: 'ada',
      refresh_token: null,
      expires_at: null,
    });
    expect(path.basename(file.path)).toBe('auth.json');
    expect(fs.statSync(file.path).mode & 0o777).toBe(0o600);
    expect(file.read()).toMatchObject({ registry_url: 'https://registry.example', token: 't0k3n', username: 'ada' });
    expect(fs.readdirSync(path.dirname(file.path))).toEqual(['auth.json']);
    file.remove();
    expect(fs.existsSync(file.path)).toBe(false);
    expect(() => file.remove()).not.toThrow();
  });

  it('tightens an existing file to 0600 when it is rewritten', () => {
    const file = new CredentialsFile(configDir());
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    fs.writeFileSync(file.path, '{}', { mode: 0o644 });
    file.write({
      registry_url: 'https://registry.example',
      token: 'x',
      username: null,
      refresh_token: null,
      expires_at: null,
    });
    expect(fs.statSync(file.path).mode & 0o777).toBe(0o600);
  });

  it.each(['not json', '{"registry_url":"https://r"}', '{"token":"","registry_url":"https://r"}', 'null'])(
    'takes %j for no credentials',
    (content) => {
      const file = new CredentialsFile(configDir());
      fs.mkdirSync(path.dirname(file.path), { recursive: true });
      fs.writeFileSync(file.path, content);
      expect(file.read()).toBeNull();
    },
  );
});

describe('registry login status', () => {
  it('is not authenticated once the stored token has expired, though the token is still present', () => {
    const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-config-'));
    try {
      const service = new RegistryService({
        settings: defaultSettings,
        configDir,
        clearSettingsCredentials: async () => {},
      });
      service.credentials.write({
        registry_url: 'https://registry.example',
        token: 't',
        username: 'ada',
        refresh_token: null,
        expires_at: '2026-01-01T00:00:00.000Z',
      });
      expect(service.status(Date.parse('2025-12-31T23:59:59Z'))).toEqual({
        authenticated: true,
        username: 'ada',
        registry_url: 'https://registry.example',
        token_present: true,
      });
      expect(service.status(Date.parse('2026-01-01T00:00:00Z'))).toEqual({
        authenticated: false,
        username: 'ada',
        registry_url: 'https://registry.example',
        token_present: true,
      });
    } finally {
      fs.rmSync(configDir, { recursive: true, force: true });
    }
  });
});

describe('registry wire formats', () => {
  it('maps the upstream statuses it knows to their failures, everything else to unavailable REGISTRY_UPSTREAM_ERROR', () => {
    const mapped = (status: number) => {
      const error = mapUpstreamStatus(status);
      return [error.kind, error.code];
    };
    expect(mapped(401)).toEqual(['unauthenticated', 'HTTP_401']);
    expect(mapped(403)).toEqual(['forbidden', 'HTTP_403']);
    expect(mapped(404)).toEqual(['not_found', 'NOT_FOUND']);
    expect(mapped(408)).toEqual(['expired', 'HTTP_408']);
    expect(mapped(410)).toEqual(['expired', 'HTTP_408']);
    for (const status of [400, 409, 413, 429, 500, 502, 503, 301]) {
      expect(mapUpstreamStatus(status)).toMatchObject({
        kind: 'unavailable',
        code: 'REGISTRY_UPSTREAM_ERROR',
        message: 'Upstream registry request failed',
        details: null,
      });
    }
  });

  it('reads login and device-flow token answers, with or without a data envelope', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(issuedTokenOf({ token: 'a', refresh_token: 'r', expires_at: '2026-01-02T00:00:00Z' }, now)).toEqual({
      token: 'a',
      refresh_token: 'r',
      expires_at: '2026-01-02T00:00:00.000Z',
      username: null,
    });
    expect(issuedTokenOf({ data: { access_token: 'b', expires_in: 60, user: { username: 'ada' } } }, now)).toEqual({
      token: 'b',
      refresh_token: null,
      expires_at: '2026-01-01T00:01:00.000Z',
      username: 'ada',
    });
    expect(() => issuedTokenOf({ refresh_token: 'r' })).toThrow('Upstream registry request failed');
  });

  it('fills the RFC 8628 defaults of a device code answer and refuses one without codes', () => {
    expect(deviceCodeOf({ device_code: 'd', user_code: 'u', verification_uri: 'https://v' })).toEqual({
      device_code: 'd',
      user_code: 'u',
      verification_uri: 'https://v',
      verification_uri_complete: null,
      expires_in: 900,
      interval: 5,
    });
    expect(() => deviceCodeOf({ user_code: 'u' })).toThrow('Upstream registry request failed');
  });

  it('turns a camelCase search hit into PackageInfo and an unknown package type into MIXED', () => {
    expect(
      packageInfoOf({ id: 'r1', name: 'n', ownerUsername: 'o', packageType: 'strange', createdAt: 5, isPublic: false }),
    ).toMatchObject({
      id: 'r1',
      name: 'n',
      owner_username: 'o',
      package_type: 'MIXED',
      created_at: 5,
      is_public: false,
      star_count: 0,
    });
    expect(() => packageInfoOf({ name: 'n' })).toThrow('Upstream registry request failed');
  });
});
