import http from 'node:http';

/** One managed process as `GET /logs/status` reports it. */
export interface ServiceStatus {
  name: string;
  state: string;
  pid: number | null;
  uptime_seconds: number;
  start_time: string | null;
  description: string;
}

export interface SupervisorStatus {
  available: boolean;
  services: ServiceStatus[];
}

type XmlRpcValue = string | number | boolean | null | XmlRpcValue[] | { [member: string]: XmlRpcValue };

interface XmlElement {
  name: string;
  children: XmlNode[];
}
type XmlNode = XmlElement | string;

const maxResponseBytes = 4 * 1024 * 1024;

/**
 * Asks supervisord (XML-RPC at `url`, e.g. `http://user:pass@127.0.0.1:9011/RPC2`) for every process it
 * manages. Any failure — no URL, unreachable, timeout, HTTP error, XML-RPC fault — reads as unavailable.
 */
export async function getServiceStatus(url: string | undefined, timeoutMs = 2000): Promise<SupervisorStatus> {
  if (!url) return { available: false, services: [] };
  try {
    const result = await callXmlRpc(url, 'supervisor.getAllProcessInfo', timeoutMs);
    if (!Array.isArray(result)) throw new Error('getAllProcessInfo did not return an array');
    return { available: true, services: result.map(toServiceStatus) };
  } catch {
    return { available: false, services: [] };
  }
}

function toServiceStatus(info: XmlRpcValue): ServiceStatus {
  if (info === null || typeof info !== 'object' || Array.isArray(info)) throw new Error('process info is not a struct');
  const state = String(info.statename ?? 'UNKNOWN');
  const pid = Number(info.pid ?? 0);
  const start = Number(info.start ?? 0);
  const now = Number(info.now ?? 0);
  return {
    name: String(info.name ?? ''),
    state,
    pid: pid > 0 ? pid : null,
    uptime_seconds: state === 'RUNNING' && start > 0 ? Math.max(0, now - start) : 0,
    start_time: start > 0 ? new Date(start * 1000).toISOString() : null,
    description: String(info.description ?? ''),
  };
}

async function callXmlRpc(url: string, method: string, timeoutMs: number): Promise<XmlRpcValue> {
  const target = new URL(url);
  if (target.protocol !== 'http:') throw new Error(`unsupported protocol ${target.protocol}`);
  const body = `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params/></methodCall>`;
  const headers: http.OutgoingHttpHeaders = { 'Content-Type': 'text/xml', 'Content-Length': Buffer.byteLength(body) };
  if (target.username || target.password) {
    const credentials = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
    headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const xml = await new Promise<string>((resolve, reject) => {
    const req = http.request(
      {
        hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`supervisord answered HTTP ${res.statusCode}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxResponseBytes) req.destroy(new Error('XML-RPC response too large'));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  return parseMethodResponse(xml);
}

function parseMethodResponse(xml: string): XmlRpcValue {
  const root = parseXml(xml);
  if (root.name !== 'methodResponse') throw new Error(`unexpected XML-RPC root <${root.name}>`);
  const fault = child(root, 'fault');
  if (fault) {
    const detail = decodeValue(required(fault, 'value'));
    throw new Error(`XML-RPC fault: ${JSON.stringify(detail)}`);
  }
  return decodeValue(required(required(required(root, 'params'), 'param'), 'value'));
}

function decodeValue(value: XmlElement): XmlRpcValue {
  const typed = elements(value)[0];
  if (!typed) return textOf(value); // a bare <value>text</value> is a string
  const text = textOf(typed);
  switch (typed.name) {
    case 'int':
    case 'i4':
    case 'i8':
      return Number.parseInt(text.trim(), 10);
    case 'double':
      return Number.parseFloat(text.trim());
    case 'boolean':
      return text.trim() === '1';
    case 'string':
    case 'dateTime.iso8601':
    case 'base64':
      return text;
    case 'nil':
      return null;
    case 'array':
      return elements(required(typed, 'data'))
        .filter((e) => e.name === 'value')
        .map(decodeValue);
    case 'struct': {
      const members: { [member: string]: XmlRpcValue } = {};
      for (const member of elements(typed).filter((e) => e.name === 'member')) {
        members[textOf(required(member, 'name'))] = decodeValue(required(member, 'value'));
      }
      return members;
    }
    default:
      throw new Error(`unknown XML-RPC type <${typed.name}>`);
  }
}

function elements(node: XmlElement): XmlElement[] {
  return node.children.filter((c): c is XmlElement => typeof c !== 'string');
}

function child(node: XmlElement, name: string): XmlElement | undefined {
  return elements(node).find((e) => e.name === name);
}

function required(node: XmlElement, name: string): XmlElement {
  const found = child(node, name);
  if (!found) throw new Error(`<${node.name}> has no <${name}>`);
  return found;
}

function textOf(node: XmlElement): string {
  return node.children.filter((c): c is string => typeof c === 'string').join('');
}

const tokenPattern =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w.:-]*)[^>]*?(\/?)>|([^<]+)/g;

/** A small XML reader for XML-RPC responses: elements and text only (attributes are not used by XML-RPC). */
function parseXml(xml: string): XmlElement {
  const document: XmlElement = { name: '#document', children: [] };
  const stack: XmlElement[] = [document];
  let consumed = 0;
  for (const match of xml.matchAll(tokenPattern)) {
    if (match.index !== consumed) throw new Error('malformed XML');
    consumed = match.index + match[0].length;
    const [, cdata, closing, name, selfClosing, text] = match;
    const current = stack[stack.length - 1];
    if (cdata !== undefined) current.children.push(cdata);
    else if (text !== undefined) current.children.push(decodeEntities(text));
    else if (name !== undefined) {
      if (closing) {
        if (stack.length < 2 || current.name !== name) throw new Error(`unexpected </${name}>`);
        stack.pop();
      } else {
        const element: XmlElement = { name, children: [] };
        current.children.push(element);
        if (!selfClosing) stack.push(element);
      }
    }
  }
  if (consumed !== xml.length || stack.length !== 1) throw new Error('truncated XML');
  const roots = elements(document);
  if (roots.length !== 1) throw new Error('XML must have exactly one root element');
  return roots[0];
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[entity] ?? '';
  });
}
