import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import { landingPage } from './landing.ts';

/** Where `pnpm install` (or `pnpm build:web`) puts the built interface. */
export const webDistDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../packages/web/dist');
const yearSeconds = 31_536_000;

/**
 * Serves the web interface at `/`: content-hashed assets are cached for good, everything else is
 * revalidated, and any non-API path the interface routes itself (/sources/…, /chat/…) gets index.html.
 * `/api` is never touched. Without a build a notice page says how to make one.
 */
export function mountWebInterface(app: Express, version: string, distDir = webDistDir): void {
  const index = path.join(distDir, 'index.html');
  app.use(
    '/assets',
    express.static(path.join(distDir, 'assets'), { index: false, immutable: true, maxAge: yearSeconds * 1000 }),
  );
  app.use('/assets', (_req, res) => {
    res.status(404).end();
  });
  const files = express.static(distDir, {
    index: false,
    setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
  });
  app.use((req, res, next) => (isApiPath(req.path) ? next() : files(req, res, next)));
  app.get(/.*/, (req, res, next) => {
    if (isApiPath(req.path) || !req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    if (!fs.existsSync(index)) {
      res.status(503).type('html').send(landingPage(version));
      return;
    }
    res.sendFile(index);
  });
}

function isApiPath(urlPath: string): boolean {
  return urlPath === '/api' || urlPath.startsWith('/api/');
}
