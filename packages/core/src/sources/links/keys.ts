/**
 * The keys links are matched on. A link's target and a source's names (file name, title, aliases, the
 * address it was fetched from) are each reduced to a key here, and a link resolves to the sources
 * holding a name under its key.
 */

/** A name as a key: without a file extension, `_` read as a space, spaces collapsed, lower case. */
export function nameKey(name: string): string {
  return name
    .trim()
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/[_\s]+/g, ' ')
    .trim()
    .toLowerCase();
}

/** A web address as a key: host and path (and query), without the fragment or a trailing slash; null when it is not http(s). */
export function urlKey(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return `url:${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}${url.search}`;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The keys a link's target may resolve under. A page name (`[[Other page]]`) is a name. A relative path
 * (`other.md`, `../notes/Other%20Page.html#part`) is its file's name, and, from a page fetched from
 * `base`, also the address it points to. An absolute web address only ever resolves to the page fetched
 * from it; other schemes (mailto:, javascript:) and links within the page resolve to nothing.
 */
export function linkTargetKeys(target: string, syntax: 'markdown' | 'wiki' | 'html', base: string | null): string[] {
  const trimmed = target.trim().replace(/^<(.*)>$/, '$1');
  if (syntax === 'wiki') {
    const key = nameKey(trimmed.split('#')[0]);
    return key ? [key] : [];
  }
  if (!trimmed || trimmed.startsWith('#')) return [];
  const absolute = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(trimmed);
  if (absolute) {
    const key = urlKey(trimmed.startsWith('//') ? `https:${trimmed}` : trimmed);
    return key ? [key] : [];
  }
  const path = decoded(trimmed.replace(/[?#].*$/, ''));
  const file = path.split(/[\\/]/).pop() ?? '';
  const keys = file ? [nameKey(file)] : [];
  if (base) {
    try {
      const key = urlKey(new URL(trimmed, base).href);
      if (key) keys.push(key);
    } catch {
      // A base that is no address: the file name is all there is.
    }
  }
  return keys.filter(Boolean);
}
