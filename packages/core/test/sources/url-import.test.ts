import http from 'node:http';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress, isPublicAddress, parseIpLiteral } from '../../src/net/index.ts';
import { decodeText, parseContentType } from '../../src/sources/url-import/decode.ts';
import { fetchUrl, UrlFetchError, UrlRefusedError } from '../../src/sources/url-import/fetch-url.ts';
import type { FetchOptions, ResolveHost, UrlRefusalCode } from '../../src/sources/url-import/fetch-url.ts';

interface SeenRequest {
  path: string;
  host: string | undefined;
}

/** A real server on a loopback address that records what reached it. */
async function startServer(
  address: string,
  port: number,
  routes: http.RequestListener,
): Promise<{ server: http.Server; port: number; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', host: req.headers.host });
    routes(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, address, resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

async function stop(server: http.Server | tls.Server): Promise<void> {
  if (server instanceof http.Server) server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

// "Caf\xe9 \x93quoted\x94" in windows-1252: é and curly quotes live in bytes that are not UTF-8.
const cp1252Body = Buffer.concat([
  Buffer.from('<html><body><p>Caf'),
  Buffer.from([0xe9, 0x20, 0x93]),
  Buffer.from('quoted'),
  Buffer.from([0x94]),
  Buffer.from('</p></body></html>'),
]);
// "Привет" in windows-1251, declared only by a meta tag.
const cp1251Body = Buffer.concat([
  Buffer.from('<html><head><meta charset="windows-1251"><title>t</title></head><body>'),
  Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]),
  Buffer.from('</body></html>'),
]);
const MAX_BYTES = 100_000;

const routes: http.RequestListener = (req, res) => {
  const path = req.url ?? '/';
  const redirect = (status: number, location: string): void => {
    res.writeHead(status, { location });
    res.end();
  };
  switch (path) {
    case '/cp1252':
      res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
      res.end(cp1252Body);
      return;
    case '/meta':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(cp1251Body);
      return;
    case '/r1':
      return redirect(302, '/r2');
    case '/r2':
      return redirect(301, `http://${req.headers.host}/final`);
    case '/final':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The final page of the redirect chain, long enough to import.');
      return;
    case '/loop':
      return redirect(302, '/loop');
    case '/self':
      return redirect(302, `http://${req.headers.host}/final`);
    case '/to-private':
      return redirect(302, 'http://10.0.0.1/');
    case '/to-metadata':
      return redirect(302, 'http://169.254.169.254/latest/meta-data/');
    case '/to-file':
      return redirect(302, 'file:///etc/passwd');
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
      return;
    case '/empty':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end();
      return;
    case '/stream-forever': {
      // Chunked, no Content-Length: only counting the bytes can stop this.
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16_384, 'a');
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    case '/declared-large':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(MAX_BYTES * 100) });
      res.write('a small start, the rest never comes');
      return;
    case '/gzip-bomb': {
      // Content-Length is true for the compressed bytes and says nothing about the 5 MB inside.
      const compressed = gzipSync(Buffer.alloc(5_000_000, 'z'));
      res.writeHead(200, {
        'content-type': 'text/plain',
        'content-encoding': 'gzip',
        'content-length': String(compressed.length),
      });
      res.end(compressed);
      return;
    }
    case '/hang':
      return; // never answers
    default:
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<p>default page</p>');
  }
};

let main: Awaited<ReturnType<typeof startServer>>;
let base: string;

beforeAll(async () => {
  main = await startServer('127.0.0.1', 0, routes);
  base = `http://127.0.0.1:${main.port}`;
});

afterAll(async () => {
  await stop(main.server);
});

const options = (overrides: Partial<FetchOptions> = {}): FetchOptions => ({
  timeoutMs: 5_000,
  maxBytes: MAX_BYTES,
  maxRedirects: 5,
  allowPrivate: false,
  ...overrides,
});
const onlyLoopback = (ip: string): boolean => ip === '127.0.0.1';

async function refusal(promise: Promise<unknown>): Promise<UrlRefusalCode> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UrlRefusedError);
  return (error as UrlRefusedError).code;
}

async function failure(promise: Promise<unknown>): Promise<UrlFetchError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UrlFetchError);
  return error as UrlFetchError;
}

describe('fetchUrl: fetching', () => {
  it('fetches a windows-1252 page and decodes it with the header charset', async () => {
    const doc = await fetchUrl(`${base}/cp1252`, options({ allowPrivate: true }));
    expect(doc).toMatchObject({
      finalUrl: `${base}/cp1252`,
      status: 200,
      mediaType: 'text/html',
      charset: 'windows-1252',
      redirects: [],
    });
    expect(decodeText(doc.body, doc.charset, doc.mediaType!)).toContain('Café “quoted”');
  });

  it('decodes a page by its meta charset when the header has none', async () => {
    const doc = await fetchUrl(`${base}/meta`, options({ allowPrivate: true }));
    expect(doc.charset).toBeNull();
    expect(decodeText(doc.body, doc.charset, doc.mediaType!)).toContain('Привет');
  });

  it('follows a two-hop redirect chain', async () => {
    const doc = await fetchUrl(`${base}/r1`, options({ allowPrivate: true }));
    expect(doc.redirects).toEqual([`${base}/r2`, `${base}/final`]);
    expect(doc.finalUrl).toBe(`${base}/final`);
    expect(doc.body.toString()).toContain('final page');
  });

  it('fails on HTTP errors and empty bodies', async () => {
    const missing = await failure(fetchUrl(`${base}/missing`, options({ allowPrivate: true })));
    expect(missing).toMatchObject({ code: 'http_status', status: 404 });
    expect((await failure(fetchUrl(`${base}/empty`, options({ allowPrivate: true })))).code).toBe('empty');
  });

  it('refuses a redirect chain longer than maxRedirects', async () => {
    expect(await refusal(fetchUrl(`${base}/loop`, options({ allowPrivate: true, maxRedirects: 3 })))).toBe(
      'too_many_redirects',
    );
  });
});

describe('fetchUrl: limits', () => {
  const sizeCases: [string, string][] = [
    ['a chunked body with no Content-Length', '/stream-forever'],
    ['a declared Content-Length above the cap', '/declared-large'],
    ['a small Content-Length hiding a large gzip body', '/gzip-bomb'],
  ];
  it.each(sizeCases)('aborts %s', async (_name, path) => {
    const error = await failure(fetchUrl(`${base}${path}`, options({ allowPrivate: true })));
    expect(error.code).toBe('too_large');
  });

  it('times out a server that never answers', async () => {
    const started = Date.now();
    const error = await failure(fetchUrl(`${base}/hang`, options({ allowPrivate: true, timeoutMs: 300 })));
    expect(error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('reports a caller cancellation as aborted', async () => {
    const controller = new AbortController();
    const pending = fetchUrl(`${base}/hang`, options({ allowPrivate: true, signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).code).toBe('aborted');
  });
});

describe('fetchUrl: policy', () => {
  it.each([
    ['loopback', () => `${base}/`],
    ['private', () => 'http://10.0.0.1/'],
    ['IPv6 loopback', () => `http://[::1]:${main.port}/`],
    ['decimal IPv4', () => 'http://2130706433/'],
    ['hex short IPv4', () => 'http://0x7f.1/'],
    ['octal IPv4', () => `http://0177.0.0.1:${main.port}/`],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${main.port}/`],
    ['localhost', () => `http://localhost:${main.port}/`],
  ])('refuses a %s URL', async (_name, url) => {
    const before = main.seen.length;
    expect(await refusal(fetchUrl(url(), options()))).toBe('private_address');
    expect(main.seen.length).toBe(before);
  });

  it('refuses metadata endpoints even when private addresses are allowed', async () => {
    for (const allowPrivate of [false, true]) {
      expect(await refusal(fetchUrl('http://169.254.169.254/latest/meta-data/', options({ allowPrivate })))).toBe(
        'metadata_host',
      );
      expect(
        await refusal(fetchUrl('http://metadata.google.internal/computeMetadata/v1/', options({ allowPrivate }))),
      ).toBe('metadata_host');
      expect(await refusal(fetchUrl('http://[::ffff:a9fe:a9fe]/', options({ allowPrivate })))).toBe('metadata_host');
    }
  });

  it.each([
    ['file:///etc/passwd', 'scheme'],
    ['ftp://example.com/file.txt', 'scheme'],
    ['gopher://example.com/', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['http://user:pw@example.com/', 'credentials_in_url'],
    ['http://user@example.com/', 'credentials_in_url'],
    ['not a url', 'invalid_url'],
  ])('refuses %s', async (url, code) => {
    expect(await refusal(fetchUrl(url, options({ allowPrivate: true })))).toBe(code);
  });

  it('re-checks every redirect hop', async () => {
    const allowLoopback = options({ isAllowed: onlyLoopback });
    expect(await refusal(fetchUrl(`${base}/to-private`, allowLoopback))).toBe('private_address');
    expect(await refusal(fetchUrl(`${base}/to-metadata`, allowLoopback))).toBe('metadata_host');
    expect(await refusal(fetchUrl(`${base}/to-file`, allowLoopback))).toBe('scheme');
  });

  it('refuses a host when any one of its addresses is not public', async () => {
    const lookup: ResolveHost = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
    expect(await refusal(fetchUrl('http://mixed.test/', options({ lookup })))).toBe('private_address');
  });

  it('reports a name that does not resolve', async () => {
    const lookup: ResolveHost = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
    };
    expect((await failure(fetchUrl('http://nowhere.test/', options({ lookup })))).code).toBe('dns');
  });
});

describe('fetchUrl: DNS rebinding', () => {
  let attacker: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    // Same port on another loopback address: where a second, unvetted DNS answer would lead.
    attacker = await startServer('127.0.0.2', main.port, (_req, res) => res.end('internal secrets'));
  });

  afterAll(async () => {
    await stop(attacker.server);
  });

  const rebindingLookup = (): { lookup: ResolveHost; calls: () => number } => {
    let calls = 0;
    return {
      lookup: async () => {
        calls += 1;
        return [{ address: calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
      },
      calls: () => calls,
    };
  };

  it('connects to the vetted address and keeps the original Host header', async () => {
    const { lookup, calls } = rebindingLookup();
    const before = main.seen.length;
    const doc = await fetchUrl(`http://rebind.test:${main.port}/final`, options({ lookup, isAllowed: onlyLoopback }));
    expect(doc.body.toString()).toContain('final page');
    expect(calls()).toBe(1);
    expect(main.seen.slice(before)).toEqual([{ path: '/final', host: `rebind.test:${main.port}` }]);
    expect(attacker.seen).toEqual([]);
  });

  it('resolves and vets again on a redirect back to the same name', async () => {
    const { lookup, calls } = rebindingLookup();
    expect(
      await refusal(fetchUrl(`http://rebind.test:${main.port}/self`, options({ lookup, isAllowed: onlyLoopback }))),
    ).toBe('private_address');
    expect(calls()).toBe(2);
    expect(attacker.seen).toEqual([]);
  });

  it('sends the original name as TLS SNI while connecting to the pinned address', async () => {
    const names: string[] = [];
    // No certificate: the handshake fails right after the server has read the ClientHello's SNI.
    const server = tls.createServer({
      SNICallback: (servername, callback) => {
        names.push(servername);
        callback(new Error('no certificate in this test'));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const lookup: ResolveHost = async () => [{ address: '127.0.0.1', family: 4 }];
      const error = await failure(fetchUrl(`https://sni.test:${port}/`, options({ lookup, isAllowed: onlyLoopback })));
      expect(error.code).toBe('network');
      expect(names).toEqual(['sni.test']);
    } finally {
      await stop(server);
    }
  });
});

describe('isPublicAddress', () => {
  const notPublic = [
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.1.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '198.19.255.255',
    '192.0.0.192',
    '100.100.100.200',
    '161.26.0.1',
    '::',
    '::1',
    'fe80::1',
    'febf::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    'fec0::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '::8.8.8.8',
    '64:ff9b::10.0.0.1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '2002:a00:1::1',
    '2001:db8::1',
    '2001::1',
    '3fff::1',
    'fd00:ec2::254',
    '[::1]',
    'fe80::1%eth0',
    '100::1',
    '2130706433',
    '0177.0.0.1',
    '0x7f.1',
    '127.1',
    '0x7f000001',
    '017700000001',
    '10.1',
    '0',
    '127.0.0.1.',
    'example.com',
    '',
    '1.2.3.4.5',
    '256.1.1.1',
    '08.1.1.1',
    '1::2::3',
    'localhost',
  ];
  const isPublic = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '192.169.0.1',
    '198.17.255.255',
    '198.20.0.1',
    '223.255.255.255',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '[2a00:1450:4001::200e]',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '0x8.0x8.0x8.0x8',
    '134744072',
  ];

  it.each(notPublic)('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(isPublic)('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('classifies metadata addresses in any spelling', () => {
    for (const ip of [
      '169.254.169.254',
      '2852039166',
      '0xa9.0xfe.0xa9.0xfe',
      '::ffff:169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      'fd00:ec2::254',
    ]) {
      expect(classifyAddress(ip)).toBe('metadata');
    }
  });

  it('normalises IP literals', () => {
    expect(parseIpLiteral('0x7f.1')).toEqual({ address: '127.0.0.1', family: 4 });
    expect(parseIpLiteral('[::FFFF:127.0.0.1]')).toEqual({ address: '::ffff:7f00:1', family: 6 });
    expect(parseIpLiteral('2001:0db8:0000:0000:0000:0000:0000:0001')).toEqual({ address: '2001:db8::1', family: 6 });
    expect(parseIpLiteral('example.com')).toBeNull();
  });
});

describe('decodeText', () => {
  it('prefers a BOM over the header charset', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('naïve')]);
    expect(decodeText(body, 'windows-1252', 'text/plain')).toBe('naïve');
  });

  it('reads UTF-16 with a BOM', () => {
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé', 'utf16le')]);
    expect(decodeText(body, null, 'text/plain')).toBe('hé');
  });

  it('reads a meta http-equiv declaration', () => {
    const body = Buffer.concat([
      Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15">'),
      Buffer.from([0xa4]), // € in ISO-8859-15
    ]);
    expect(decodeText(body, null, 'text/html')).toContain('€');
  });

  it('reads an XML encoding declaration', () => {
    const body = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>'),
      Buffer.from([0xe9]),
      Buffer.from('</a>'),
    ]);
    expect(decodeText(body, null, 'application/xml')).toContain('<a>é</a>');
  });

  it('ignores meta tags outside HTML and unknown charsets', () => {
    const body = Buffer.from('<meta charset="windows-1251">é');
    expect(decodeText(body, null, 'text/plain')).toBe('<meta charset="windows-1251">é');
    expect(decodeText(Buffer.from('é'), 'no-such-charset', 'text/plain')).toBe('é');
  });

  it('treats a UTF-16 meta declaration in ASCII-readable bytes as UTF-8', () => {
    expect(decodeText(Buffer.from('<meta charset="utf-16">é'), null, 'text/html')).toContain('é');
  });

  it('parses Content-Type headers', () => {
    expect(parseContentType('Text/HTML; Charset="ISO-8859-1"')).toEqual({
      mediaType: 'text/html',
      charset: 'iso-8859-1',
    });
    expect(parseContentType(undefined)).toEqual({ mediaType: null, charset: null });
    expect(parseContentType('garbage')).toEqual({ mediaType: null, charset: null });
  });
});
