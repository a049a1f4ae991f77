/**
 * Which network addresses the service may connect to (URL import, model servers). `metadata` addresses (cloud instance-metadata
 * services) are refused whatever the settings say; `non_public` ones only when private addresses are
 * allowed. Everything is decided on parsed numbers, never on string prefixes, so odd spellings such as
 * `2130706433`, `0x7f.1` or `::ffff:7f00:1` land in the same class as `127.0.0.1`.
 */
import net from 'node:net';

export type AddressClass = 'public' | 'non_public' | 'metadata' | 'invalid';

export interface IpLiteral {
  /** Canonical text: dotted quad for IPv4, lower-case without brackets or zone for IPv6. */
  address: string;
  family: 4 | 6;
}

type Ipv4Range = readonly [base: number, prefix: number];
type Ipv6Range = readonly [hextets: readonly number[], prefix: number];

const v4 = (cidr: string): Ipv4Range => {
  const [base, prefix] = cidr.split('/');
  return [parseIpv4(base)!, Number(prefix)];
};
const v6 = (cidr: string): Ipv6Range => {
  const [base, prefix] = cidr.split('/');
  return [parseIpv6(base)!, Number(prefix)];
};

/** Refused even when private addresses are allowed: instance-metadata endpoints hand out cloud credentials. */
const METADATA_V4: Ipv4Range[] = [
  v4('169.254.0.0/16'), // link-local; AWS, GCP, Azure, Oracle, DigitalOcean metadata at .169.254
  v4('161.26.0.0/16'), // IBM Cloud service endpoints
  v4('100.100.100.200/32'), // Alibaba Cloud metadata
  v4('192.0.0.192/32'), // Oracle Cloud metadata
  v4('168.63.129.16/32'), // Azure platform endpoint (wireserver); public-looking but host-internal
];
const METADATA_V6: Ipv6Range[] = [
  v6('fd00:ec2::254/128'), // AWS metadata over IPv6
  v6('fe80::/10'), // link-local, as 169.254.0.0/16 is for IPv4
];

const NON_PUBLIC_V4: Ipv4Range[] = [
  v4('0.0.0.0/8'), // "this network", unspecified
  v4('10.0.0.0/8'),
  v4('100.64.0.0/10'), // carrier-grade NAT
  v4('127.0.0.0/8'),
  v4('172.16.0.0/12'),
  v4('192.0.0.0/24'), // IETF protocol assignments
  v4('192.0.2.0/24'), // TEST-NET-1
  v4('192.88.99.0/24'), // deprecated 6to4 relay anycast
  v4('192.168.0.0/16'),
  v4('198.18.0.0/15'), // benchmarking
  v4('198.51.100.0/24'), // TEST-NET-2
  v4('203.0.113.0/24'), // TEST-NET-3
  v4('224.0.0.0/4'), // multicast
  v4('240.0.0.0/4'), // reserved, includes 255.255.255.255 broadcast
];

/** Only global unicast (2000::/3) can be public; these are the special blocks inside it. */
const GLOBAL_UNICAST_V6 = v6('2000::/3');
const NON_PUBLIC_V6: Ipv6Range[] = [
  v6('2001::/23'), // IETF protocol assignments: Teredo, benchmarking, ORCHID …
  v6('2001:db8::/32'), // documentation
  v6('3fff::/20'), // documentation
];
const MAPPED_V6 = v6('::ffff:0:0/96');
const COMPATIBLE_V6 = v6('::/96');
const NAT64_V6 = v6('64:ff9b::/96');
const SIX_TO_FOUR_V6 = v6('2002::/16');

const METADATA_HOSTNAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** True only for addresses on the public internet; unparseable input is not public. */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === 'public';
}

export function classifyAddress(ip: string): AddressClass {
  const literal = parseIpLiteral(ip);
  if (literal === null) return 'invalid';
  return literal.family === 4 ? classifyIpv4(parseIpv4(literal.address)!) : classifyIpv6(parseIpv6(literal.address)!);
}

/** Names of metadata services, compared without case or a trailing dot. */
export function isMetadataHostname(hostname: string): boolean {
  return METADATA_HOSTNAMES.has(normalizeHostname(hostname));
}

/** `localhost` and `*.localhost` always mean loopback (RFC 6761), whatever a resolver says. */
export function isLocalhostName(hostname: string): boolean {
  const name = normalizeHostname(hostname);
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Reads `host` as an IP address the way the system resolver would (inet_aton rules for IPv4: one to four
 * parts, each decimal, 0-octal or 0x-hex), so a hostname like `0177.1` is caught before it reaches DNS.
 * Brackets and an IPv6 zone are accepted. Returns null for anything that is not an address.
 */
export function parseIpLiteral(host: string): IpLiteral | null {
  let text = host.trim().toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const v4value = parseIpv4(text);
  if (v4value !== null) return { address: formatIpv4(v4value), family: 4 };
  const hextets = parseIpv6(text);
  if (hextets !== null) return { address: formatIpv6(hextets), family: 6 };
  return null;
}

function normalizeHostname(hostname: string): string {
  return hostname.trim().toLowerCase().replace(/\.$/, '');
}

function classifyIpv4(value: number): AddressClass {
  if (METADATA_V4.some((range) => inIpv4Range(value, range))) return 'metadata';
  if (NON_PUBLIC_V4.some((range) => inIpv4Range(value, range))) return 'non_public';
  return 'public';
}

function classifyIpv6(hextets: number[]): AddressClass {
  if (METADATA_V6.some((range) => inIpv6Range(hextets, range))) return 'metadata';
  const embedded = (high: number, low: number): number => hextets[high] * 0x10000 + hextets[low];
  // Mapped and NAT64 addresses reach the embedded IPv4 host, so they share its class.
  if (inIpv6Range(hextets, MAPPED_V6) || inIpv6Range(hextets, NAT64_V6)) return classifyIpv4(embedded(6, 7));
  if (inIpv6Range(hextets, COMPATIBLE_V6)) {
    // Deprecated IPv4-compatible form (and :: / ::1): never a legitimate public target.
    return classifyIpv4(embedded(6, 7)) === 'metadata' ? 'metadata' : 'non_public';
  }
  if (inIpv6Range(hextets, SIX_TO_FOUR_V6)) {
    const inner = classifyIpv4(embedded(1, 2));
    if (inner !== 'public') return inner;
  }
  if (!inIpv6Range(hextets, GLOBAL_UNICAST_V6)) return 'non_public';
  if (NON_PUBLIC_V6.some((range) => inIpv6Range(hextets, range))) return 'non_public';
  return 'public';
}

function inIpv4Range(value: number, [base, prefix]: Ipv4Range): boolean {
  if (prefix === 0) return true;
  const size = 2 ** (32 - prefix);
  return Math.floor(value / size) === Math.floor(base / size);
}

function inIpv6Range(hextets: number[], [base, prefix]: Ipv6Range): boolean {
  for (let i = 0, bits = prefix; bits > 0; i += 1, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((hextets[i] & mask) !== (base[i] & mask)) return false;
  }
  return true;
}

function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop(); // "127.0.0.1." is still an address
  if (parts.length === 0 || parts.length > 4) return null;
  const values = parts.map(parseIpv4Part);
  if (values.some((value) => value === null)) return null;
  const numbers = values as number[];
  const last = numbers.pop()!;
  if (numbers.some((value) => value > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((sum, value, index) => sum + value * 256 ** (3 - index), 0) + last;
}

function parseIpv4Part(part: string): number | null {
  if (/^0x[0-9a-f]*$/.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return null;
}

function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

function parseIpv6(text: string): number[] | null {
  const withoutZone = text.replace(/%[^%]*$/, '');
  if (!net.isIPv6(withoutZone)) return null;
  let body = withoutZone;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    if (!net.isIPv4(dotted[1])) return null;
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    tail.push(a * 256 + b, c * 256 + d);
    body = body.slice(0, -dotted[1].length);
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const toHextets = (segment: string): number[] =>
    segment === '' ? [] : segment.split(':').map((h) => parseInt(h, 16));
  const gap = body.indexOf('::');
  const head = toHextets(gap === -1 ? body : body.slice(0, gap));
  const rest = gap === -1 ? [] : toHextets(body.slice(gap + 2));
  const missing = 8 - head.length - rest.length - tail.length;
  if (missing < 0 || (gap === -1 && missing !== 0)) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...rest, ...tail];
}

function formatIpv6(hextets: number[]): string {
  // Canonical enough for comparison and for connecting; the compression follows RFC 5952's longest run.
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start += 1) {
    let length = 0;
    while (start + length < 8 && hextets[start + length] === 0) length += 1;
    if (length > bestLength) [bestStart, bestLength] = [start, length];
  }
  const hex = hextets.map((h) => h.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
