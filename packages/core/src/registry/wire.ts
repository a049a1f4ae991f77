import { upstreamError } from './client.ts';

/** Registry objects; times are Unix milliseconds (docs/api-conventions.md#timestamps). */
export interface PackageInfo {
  id: string;
  name: string;
  description: string;
  owner_username: string;
  owner_name: string;
  owner_id: string;
  is_public: boolean;
  package_type: PackageType;
  star_count: number;
  version_count: number;
  download_count: number;
  created_at: number;
  updated_at: number;
}

export const packageTypes = ['FULL', 'TEMPLATES', 'KNOWLEDGE', 'WORKFLOWS', 'MIXED'] as const;
export type PackageType = (typeof packageTypes)[number];

export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string | null;
  expires_in: number;
  interval: number;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0);

/** A registry search hit (camelCase, docs/api-conventions.md#package-registry) as a PackageInfo; anything that is not one is an upstream failure. */
export function packageInfoOf(hit: unknown): PackageInfo {
  if (
    !isObject(hit) ||
    typeof hit.id !== 'string' ||
    typeof hit.name !== 'string' ||
    typeof hit.ownerUsername !== 'string'
  )
    throw upstreamError();
  const type = text(hit.packageType).toUpperCase();
  return {
    id: hit.id,
    name: hit.name,
    description: text(hit.description),
    owner_username: hit.ownerUsername,
    owner_name: text(hit.ownerName),
    owner_id: text(hit.ownerId),
    is_public: hit.isPublic !== false,
    package_type: (packageTypes as readonly string[]).includes(type) ? (type as PackageType) : 'MIXED',
    star_count: count(hit.starCount),
    version_count: count(hit.versionCount),
    download_count: count(hit.downloadCount),
    created_at: count(hit.createdAt),
    updated_at: count(hit.updatedAt),
  };
}

/** `{data: {hits, total}}` of the registry's search. */
export function searchHitsOf(body: unknown): { hits: PackageInfo[]; total: number } {
  const data = isObject(body) && isObject(body.data) ? body.data : null;
  if (!data || !Array.isArray(data.hits)) throw upstreamError();
  return { hits: data.hits.map(packageInfoOf), total: count(data.total) };
}

/** The uploaded package: `{data: <hit>}` or the hit itself. */
export function uploadedPackageOf(body: unknown): PackageInfo {
  return packageInfoOf(isObject(body) && isObject(body.data) ? body.data : body);
}

/** RFC 8628 section 3.2, with the defaults of docs/api-conventions.md#package-registry (900 s, 5 s). */
export function deviceCodeOf(body: unknown): DeviceCode {
  if (
    !isObject(body) ||
    typeof body.device_code !== 'string' ||
    typeof body.user_code !== 'string' ||
    typeof body.verification_uri !== 'string'
  )
    throw upstreamError();
  return {
    device_code: body.device_code,
    user_code: body.user_code,
    verification_uri: body.verification_uri,
    verification_uri_complete:
      typeof body.verification_uri_complete === 'string' ? body.verification_uri_complete : null,
    expires_in: count(body.expires_in) || 900,
    interval: count(body.interval) || 5,
  };
}

export interface IssuedToken {
  token: string;
  refresh_token: string | null;
  expires_at: string | null;
  username: string | null;
}

/** A login answer (`{token, refresh_token, expires_at}`) or a device-flow token answer (`{access_token, expires_in}`), optionally under `data`. */
export function issuedTokenOf(body: unknown, now = Date.now()): IssuedToken {
  const source = isObject(body) && isObject(body.data) ? body.data : body;
  if (!isObject(source)) throw upstreamError();
  const token = text(source.access_token) || text(source.token);
  if (!token) throw upstreamError();
  const user = isObject(source.user) ? source.user : {};
  const expiresAt =
    typeof source.expires_at === 'string' || typeof source.expires_at === 'number' ? new Date(source.expires_at) : null;
  const expiresIn = count(source.expires_in);
  const expiry =
    expiresAt && !Number.isNaN(expiresAt.getTime())
      ? expiresAt
      : expiresIn > 0
        ? new Date(now + expiresIn * 1000)
        : null;
  return {
    token,
    refresh_token: text(source.refresh_token) || null,
    expires_at: expiry ? expiry.toISOString() : null,
    username: text(source.username) || text(user.username) || null,
  };
}

/** The OAuth error code of a device-flow token answer (`authorization_pending`, `slow_down`, …), or null. */
export function oauthErrorOf(body: unknown): string | null {
  return isObject(body) && typeof body.error === 'string' ? body.error : null;
}
