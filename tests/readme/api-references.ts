/** An operation a Markdown text names in prose, like `GET /sources/{id}/chunks` or `GET/POST /sources/tags`. */
export interface ApiReference {
  method: string;
  path: string;
  line: number;
}

const reference = /`((?:GET|POST|PUT|PATCH|DELETE)(?:[|/](?:GET|POST|PUT|PATCH|DELETE))*) (\/[^`\s]*)/g;

/** Every `METHOD /path` in backticks, once per method; `/api/v1` and queries dropped, `[/{id}]` expanded to both forms. */
export function apiReferences(markdown: string): ApiReference[] {
  const found: ApiReference[] = [];
  markdown.split('\n').forEach((text, index) => {
    for (const [, methods, rawPath] of text.matchAll(reference)) {
      const path = rawPath.replace(/^\/api\/v1(?=\/)/, '').replace(/\?.*$/, '');
      const optional = /^(.*)\[(\/[^\]]+)\]$/.exec(path);
      const paths = optional ? [optional[1], optional[1] + optional[2]] : [path];
      for (const method of methods.split(/[|/]/))
        for (const one of paths) found.push({ method, path: one, line: index + 1 });
    }
  });
  return found;
}

/** Whether a named path fits an OpenAPI route: a `{…}`, `$VAR` or `…` segment stands for any one segment. */
export function fitsRoute(path: string, route: string): boolean {
  const named = path.split('/');
  const parts = route.split('/');
  if (named.length !== parts.length) return false;
  return parts.every((part, index) =>
    /^\{.+\}$/.test(part) ? named[index] !== '' : /[{$…]/.test(named[index]) || named[index] === part,
  );
}
