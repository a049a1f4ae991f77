/** The page at `/` when the web interface has not been built: what is running, and how to get the interface. */
export function landingPage(version: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rhizome</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2937}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:.2rem}</style>
</head><body>
<h1>Rhizome <small>${version}</small></h1>
<p>The web interface has not been built yet. Run <code>pnpm install</code> (or <code>pnpm build:web</code>) in the Rhizome folder, then reload this page.</p>
<p>The HTTP API is running under <code>/api/v1</code>:</p>
<ul>
<li><a href="/api/v1/docs">API documentation</a> (<a href="/api/v1/openapi.json">OpenAPI document</a>)</li>
<li>First run: <code>POST /api/v1/auth/setup</code> with <code>{"username","password"}</code></li>
</ul>
</body></html>
`;
}
