import fs from 'node:fs';
import { NotFound, Unauthenticated, Forbidden, Expired } from '@rhizome/contracts/errors';
import type { Settings } from '@rhizome/contracts/settings';
import {
  mapUpstreamStatus,
  registryRequest,
  type RegistryResponse,
  type RegistryTarget,
  type StatusMeanings,
} from './client.ts';
import { CredentialsFile } from './credentials.ts';
import {
  deviceCodeOf,
  issuedTokenOf,
  oauthErrorOf,
  searchHitsOf,
  uploadedPackageOf,
  type DeviceCode,
  type PackageInfo,
  type PackageType,
} from './wire.ts';

export const defaultClientId = 'rhizome-cli';
export const defaultScope = 'read write';
const deviceGrant = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628 section 3.5: `slow_down` adds 5 s to the interval, up to 30 s (docs/api-conventions.md#package-registry). */
const slowDownStepS = 5;
const maxIntervalS = 30;
/** How many pages of search hits the package-info lookup reads before it gives up (the registry has no info call). */
const infoSearchPages = 5;

export interface RegistryAuthResponse {
  success: boolean;
  username: string | null;
  registry_url: string;
  message: string;
}

export interface RegistryAuthStatus {
  authenticated: boolean;
  username: string | null;
  registry_url: string | null;
  token_present: boolean;
}

export type SortBy = 'relevance' | 'stars' | 'downloads' | 'newest' | 'updated' | 'name';

export interface SearchQuery {
  query: string;
  page: number;
  limit: number;
  sort_by: SortBy;
  is_public: boolean | null;
  owner_id: string | null;
  package_type: PackageType | null;
}

export interface SearchResponse {
  packages: PackageInfo[];
  total: number;
  page: number;
  limit: number;
}

export interface RegistryServiceDeps {
  settings(): Settings;
  /** Where `auth.json` lives (`platform.configDir`). */
  configDir: string;
  /** Clears `registry.token` and `registry.credentials` in the settings (and tells every process). */
  clearSettingsCredentials(): Promise<void>;
}

/**
 * The remote package registry as the service's `/registry` endpoints use it (docs/api-conventions.md#package-registry;
 * the wire calls are in `wire.ts` and `client.ts`): device authorization (RFC 8628), password and token login, logout, status, search,
 * package info, download and upload. Credentials live in `auth.json`; a stored token is sent only to
 * the registry it was issued by.
 */
export class RegistryService {
  readonly credentials: CredentialsFile;
  /** Polling intervals of device codes this process handed out, raised by `slow_down`. */
  readonly #intervals = new Map<string, number>();

  constructor(private readonly deps: RegistryServiceDeps) {
    this.credentials = new CredentialsFile(deps.configDir);
  }

  /** The registry a call without `registry_url` talks to: settings `registry.url` (REGISTRY_URL overrides it). */
  get defaultUrl(): string {
    return normalizeUrl(this.deps.settings().registry.url);
  }

  async startDeviceLogin(options: {
    registry_url?: string | null;
    client_id?: string | null;
    scope?: string | null;
  }): Promise<DeviceCode> {
    const target = this.#target(options.registry_url, null);
    const response = await registryRequest(target, {
      method: 'POST',
      path: '/auth/device/code',
      json: { client_id: options.client_id || defaultClientId, scope: options.scope || defaultScope },
    });
    const code = deviceCodeOf(expectSuccess(response));
    this.#rememberInterval(code.device_code, code.interval);
    return code;
  }

  /** One non-blocking poll: pending and slow_down answer success false; denied 403, expired 408. */
  async pollDeviceLogin(options: {
    device_code: string;
    registry_url?: string | null;
    client_id?: string | null;
  }): Promise<RegistryAuthResponse> {
    const target = this.#target(options.registry_url, null);
    const response = await registryRequest(target, {
      method: 'POST',
      path: '/auth/device/token',
      json: {
        grant_type: deviceGrant,
        device_code: options.device_code,
        client_id: options.client_id || defaultClientId,
      },
    });
    if (response.status >= 200 && response.status < 300) {
      this.#intervals.delete(options.device_code);
      return this.#store(target.url, issuedTokenOf(response.body), 'Logged in to the registry through the device flow');
    }
    const pending = (message: string): RegistryAuthResponse => ({
      success: false,
      username: null,
      registry_url: target.url,
      message,
    });
    switch (oauthErrorOf(response.body)) {
      case 'authorization_pending':
        return pending(
          `Waiting for the login to be approved at the registry; poll again in ${this.#intervals.get(options.device_code) ?? 5} s`,
        );
      case 'slow_down': {
        const interval = Math.min((this.#intervals.get(options.device_code) ?? 5) + slowDownStepS, maxIntervalS);
        this.#rememberInterval(options.device_code, interval);
        return pending(`The registry asks to poll more slowly: wait at least ${interval} s between polls`);
      }
      case 'access_denied':
        this.#intervals.delete(options.device_code);
        throw new Forbidden('The login was denied at the registry');
      case 'expired_token':
        this.#intervals.delete(options.device_code);
        throw new Expired('The device code expired; start again with POST /registry/auth/device');
      default:
        throw mapUpstreamStatus(response.status);
    }
  }

  async login(options: {
    username: string;
    password: string;
    registry_url?: string | null;
  }): Promise<RegistryAuthResponse> {
    const target = this.#target(options.registry_url, null);
    const response = await registryRequest(target, {
      method: 'POST',
      path: '/auth/login',
      json: { username: options.username, password: options.password },
    });
    const issued = issuedTokenOf(expectSuccess(response, { unauthorized: 'Invalid registry username or password' }));
    return this.#store(
      target.url,
      { ...issued, username: issued.username ?? options.username },
      `Logged in to the registry as ${issued.username ?? options.username}`,
    );
  }

  /** Stores a token obtained elsewhere, without asking the registry. */
  saveToken(options: { token: string; username?: string | null; registry_url?: string | null }): RegistryAuthResponse {
    const url = this.#url(options.registry_url);
    return this.#store(
      url,
      { token: options.token, username: options.username ?? null, refresh_token: null, expires_at: null },
      'Registry token stored',
    );
  }

  /** Removes all stored registry credentials: `auth.json`, and a token or credentials put into the settings. */
  async logout(): Promise<RegistryAuthResponse> {
    const stored = this.credentials.read();
    this.credentials.remove();
    const { token, credentials } = this.deps.settings().registry;
    if (token !== null || credentials !== null) await this.deps.clearSettingsCredentials();
    return {
      success: true,
      username: null,
      registry_url: stored?.registry_url ?? this.defaultUrl,
      message: 'Logged out of the registry; stored registry credentials removed',
    };
  }

  /** From `auth.json` alone, no network. */
  status(now = Date.now()): RegistryAuthStatus {
    const stored = this.credentials.read();
    if (!stored) return { authenticated: false, username: null, registry_url: null, token_present: false };
    const expired = stored.expires_at !== null && Date.parse(stored.expires_at) <= now;
    return {
      authenticated: !expired,
      username: stored.username,
      registry_url: stored.registry_url,
      token_present: true,
    };
  }

  async search(query: SearchQuery): Promise<SearchResponse> {
    const response = await registryRequest(this.#target(null, this.#storedToken()), {
      method: 'GET',
      path: '/search',
      searchParams: {
        q: query.query,
        type: 'repositories',
        page: query.page,
        limit: query.limit,
        sort: query.sort_by,
        ...(query.is_public === null ? {} : { isPublic: query.is_public }),
        ...(query.owner_id === null ? {} : { ownerId: query.owner_id }),
        ...(query.package_type === null ? {} : { packageType: query.package_type }),
      },
    });
    const { hits, total } = searchHitsOf(expectSuccess(response));
    return { packages: hits, total, page: query.page, limit: query.limit };
  }

  /** The registry has no info call: the package is found by searching its name and matching owner and name. */
  async info(owner: string, name: string): Promise<PackageInfo> {
    const limit = 100;
    for (let page = 1; page <= infoSearchPages; page++) {
      const found = await this.search({
        query: name,
        page,
        limit,
        sort_by: 'relevance',
        is_public: null,
        owner_id: null,
        package_type: null,
      });
      const match = found.packages.find((item) => item.owner_username === owner && item.name === name);
      if (match) return match;
      if (found.packages.length < limit || page * limit >= found.total) break;
    }
    throw NotFound.resource('package', `${owner}/${name}`);
  }

  /** The package's `.ccx` bytes (`version` or `latest`), at most `batching.max_upload_bytes`. */
  async download(owner: string, name: string, version: string): Promise<Buffer> {
    const settings = this.deps.settings();
    const response = await registryRequest(this.#target(null, this.#storedToken()), {
      method: 'GET',
      path: `/packages/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/${encodeURIComponent(version)}`,
      maxBytes: settings.batching.max_upload_bytes,
      timeoutMs: settings.registry.upload_timeout * 1000,
    });
    const bytes = expectSuccess(response, {
      notFound: { resource_type: 'package', identifier: `${owner}/${name}@${version}` },
    });
    if (!Buffer.isBuffer(bytes)) throw mapUpstreamStatus(response.status);
    return bytes;
  }

  /** Publishes the `.ccx` at `file`; `token` (from the request) wins over the stored one. */
  async upload(
    file: string,
    options: { public: boolean; message: string | null; token: string | null },
  ): Promise<PackageInfo> {
    const token = options.token ?? this.#storedToken();
    if (!token)
      throw new Unauthenticated(
        'Registry authentication required: log in with /registry/auth/device or /registry/auth/login, or send a registry token',
      );
    const form = new FormData();
    form.append('package', await fs.openAsBlob(file, { type: 'application/zip' }), 'package.ccx');
    form.append('public', String(options.public));
    if (options.message) form.append('message', options.message);
    const response = await registryRequest(this.#target(null, token), {
      method: 'POST',
      path: '/packages',
      form,
      timeoutMs: this.deps.settings().registry.upload_timeout * 1000,
    });
    return uploadedPackageOf(
      expectSuccess(response, { forbidden: 'Insufficient permissions to publish this package' }),
    );
  }

  #store(url: string, issued: ReturnType<typeof issuedTokenOf>, message: string): RegistryAuthResponse {
    this.credentials.write({
      registry_url: url,
      token: issued.token,
      username: issued.username,
      refresh_token: issued.refresh_token,
      expires_at: issued.expires_at,
    });
    return { success: true, username: issued.username, registry_url: url, message };
  }

  /** The stored token when it was issued by the default registry. */
  #storedToken(): string | null {
    const stored = this.credentials.read();
    return stored && normalizeUrl(stored.registry_url) === this.defaultUrl ? stored.token : null;
  }

  #url(registryUrl: string | null | undefined): string {
    return registryUrl ? normalizeUrl(registryUrl) : this.defaultUrl;
  }

  #target(registryUrl: string | null | undefined, token: string | null): RegistryTarget {
    const settings = this.deps.settings();
    return {
      url: this.#url(registryUrl),
      apiPath: settings.registry.api_path,
      timeoutMs: settings.registry.timeout * 1000,
      token,
      allowPrivate: settings.web.allow_private_addresses,
    };
  }

  #rememberInterval(deviceCode: string, interval: number): void {
    // Device codes of abandoned logins would otherwise pile up.
    if (this.#intervals.size >= 100) this.#intervals.delete(this.#intervals.keys().next().value!);
    this.#intervals.set(deviceCode, interval);
  }
}

function normalizeUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** The body of a 2xx answer; any other status through `mapUpstreamStatus`. */
function expectSuccess(response: RegistryResponse, meanings: StatusMeanings = {}): unknown {
  if (response.status >= 200 && response.status < 300) return response.body;
  throw mapUpstreamStatus(response.status, meanings);
}
