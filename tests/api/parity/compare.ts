/**
 * How the parity run compares two servers' answers: a JSON body reduced to its shape (keys and value
 * types), or to its content with what legitimately differs between two servers (ids, timestamps,
 * durations, sizes, file names) replaced by placeholders.
 */

/** Keys whose values differ between any two runs: generated, timed or measured. */
const volatileKey =
  /(^|_)(id|ids|at|time|timestamp|date|created|updated|started|finished|completed|duration|elapsed|ms|seconds|size|bytes|uptime|pid|port|url|path|filename|file|token|key|hash|checksum|version|sequence|seq|etag|cookie|latency|rate|throughput|expires|last_seen|last_used|since|until|eta)$/i;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isoDate = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** A key that is itself an id (`chk_20daf5a8f6a8935cbfcdc5b0:S2`, a map keyed by chunk): named by its kind only. */
const idKey = /[0-9a-f]{12,}|^[0-9a-f-]{36}$/i;
const keyOf = (key: string) => (idKey.test(key) ? '<id-key>' : key);

export type Shape = string | Shape[] | { [key: string]: Shape };

/** The shape of a value: objects by their keys, arrays by the merged shape of their items, the rest by type. */
export function shapeOf(value: unknown): Shape {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) {
    if (!value.length) return [];
    return [value.map(shapeOf).reduce(mergeShapes)];
  }
  if (typeof value === 'object') {
    const shape: Record<string, Shape> = {};
    for (const key of Object.keys(value).sort()) {
      const item = shapeOf((value as Record<string, unknown>)[key]);
      const name = keyOf(key);
      shape[name] = name in shape ? mergeShapes(shape[name], item) : item;
    }
    return shape;
  }
  return typeof value;
}

/** Two items of one array: the keys of both, a null standing for any type. */
function mergeShapes(a: Shape, b: Shape): Shape {
  if (a === 'null') return b;
  if (b === 'null') return a;
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return Object.fromEntries(
      keys.map((key) => [key, key in a && key in b ? mergeShapes(a[key], b[key]) : (a[key] ?? b[key])]),
    );
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length && b.length ? [mergeShapes(a[0], b[0])] : a.length ? a : b;
  return a;
}

function isRecord(shape: Shape): shape is { [key: string]: Shape } {
  return typeof shape === 'object' && !Array.isArray(shape);
}

/**
 * Where two shapes differ, as `path: left ≠ right` lines. A null matches any type, and an empty array
 * any array: whether a field is set or a list has items yet is content, not shape. Keys present on one
 * side only are differences.
 */
export function shapeDifferences(left: Shape, right: Shape, at = '$'): string[] {
  if (left === 'null' || right === 'null') return [];
  if (Array.isArray(left) && Array.isArray(right))
    return left.length && right.length ? shapeDifferences(left[0], right[0], `${at}[]`) : [];
  if (isRecord(left) && isRecord(right)) {
    const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
    return keys.flatMap((key) =>
      !(key in left)
        ? [`${at}.${key}: only on postgres`]
        : !(key in right)
          ? [`${at}.${key}: only on sqlite`]
          : shapeDifferences(left[key], right[key], `${at}.${key}`),
    );
  }
  const l = JSON.stringify(left);
  const r = JSON.stringify(right);
  return l === r ? [] : [`${at}: ${l.slice(0, 80)} ≠ ${r.slice(0, 80)}`];
}

/**
 * The content of a body with what differs between two servers by nature replaced: every id the
 * scenario saved by its name (`<node:ada>`), the values of volatile keys and uuids, timestamps.
 */
export function normalised(value: unknown, names: Map<string, string>, key = ''): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => normalised(item, names, key));
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((name) => [
          names.get(name) ? `<${names.get(name)}>` : keyOf(name),
          normalised((value as Record<string, unknown>)[name], names, name),
        ]),
    );
  if (typeof value === 'string') {
    const named = names.get(value);
    if (named) return `<${named}>`;
    if (uuid.test(value) || isoDate.test(value)) return '<volatile>';
  }
  if (volatileKey.test(key)) return `<${typeof value}>`;
  return value;
}

/** Where two normalised bodies differ, as `path: left ≠ right` lines (at most a few). */
export function contentDifferences(left: unknown, right: unknown, at = '$'): string[] {
  if (JSON.stringify(left) === JSON.stringify(right)) return [];
  if (Array.isArray(left) && Array.isArray(right) && left.length !== right.length) {
    const text = (items: unknown[]) => items.map((item) => JSON.stringify(item));
    const [l, r] = [text(left), text(right)];
    return [
      `${at}: ${left.length} items ≠ ${right.length}; only on sqlite ${l
        .filter((item) => !r.includes(item))
        .join(', ')
        .slice(0, 300)}; only on postgres ${r
        .filter((item) => !l.includes(item))
        .join(', ')
        .slice(0, 300)}`,
    ];
  }
  if (Array.isArray(left) && Array.isArray(right) && left.length === right.length)
    return left.flatMap((item, index) => contentDifferences(item, right[index], `${at}[${index}]`)).slice(0, 5);
  if (left && right && typeof left === 'object' && typeof right === 'object' && !Array.isArray(left)) {
    const keys = [...new Set([...Object.keys(left), ...Object.keys(right as object)])];
    return keys
      .flatMap((key) =>
        contentDifferences(
          (left as Record<string, unknown>)[key],
          (right as Record<string, unknown>)[key],
          `${at}.${key}`,
        ),
      )
      .slice(0, 5);
  }
  return [`${at}: ${JSON.stringify(left)?.slice(0, 120)} ≠ ${JSON.stringify(right)?.slice(0, 120)}`];
}
