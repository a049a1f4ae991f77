#!/usr/bin/env node
// Prebuilds the `rhizome` command into dist/ when it is missing or older than one of its sources: run by
// `pnpm install` (postinstall) and before the tests. Loading the TypeScript sources through tsx costs each
// command well over a second; the prebuilt file starts in a fraction of that. The bin falls back to the
// sources whenever dist/ is stale, so an edited source is never run from an old build.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prebuiltEntry } from '../bin/prebuilt.mjs';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(cli, 'dist');
const localModules = path.join(cli, 'src', 'local-modules.ts');

if (prebuiltEntry(dist) && process.argv[2] !== '--force') process.exit(0);
const esbuild = await import('esbuild').catch(() => null);
if (!esbuild) {
  console.warn('rhizome command line: esbuild is not installed, so it runs from its sources (slower to start)');
  process.exit(0);
}

/**
 * Bare imports (the npm packages) stay outside the build, pointed at the file they resolve to from their
 * importer: pnpm's strict layout lets only a package's own dependencies resolve, which the build's one
 * directory would not. The workspace packages are bundled; file URLs (the sources handed over to) are left as they are.
 */
const packagesResolvedInPlace = {
  name: 'packages-resolved-in-place',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('file:')) return { path: args.path, external: true };
      if (args.path.startsWith('@rhizome/') || args.pluginData === 'resolving') return undefined;
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (resolved.external) return { path: args.path, external: true }; // node's own modules
      return { path: pathToFileURL(resolved.path).href, external: true };
    });
  },
};

/**
 * local-modules.ts names the modules that run the server on this machine. In the build each of them
 * hands the whole command line over to the sources (through tsx) and never settles, so the prebuilt
 * command ends once the source run has.
 */
const localModulesFromSource = {
  name: 'local-modules-from-source',
  setup(builder) {
    builder.onLoad({ filter: /local-modules\.ts$/ }, async (args) => {
      if (args.path !== localModules) return undefined;
      const names = [...fs.readFileSync(localModules, 'utf8').matchAll(/^export const (\w+) =/gm)].map(
        (match) => match[1],
      );
      // Resolved by the plugin above, to a file URL.
      const tsx = await builder.resolve('tsx/esm/api', { kind: 'dynamic-import', resolveDir: cli });
      const main = pathToFileURL(path.join(cli, 'src', 'main.ts')).href;
      const contents = `
const fromSource = () =>
  new Promise(() => {
    import(${JSON.stringify(tsx.path)})
      .then(({ register }) => {
        register();
        return import(${JSON.stringify(main)});
      })
      .then(({ runCli }) => runCli(process.argv.slice(2)))
      .then((code) => {
        process.exitCode = code;
      })
      .catch((error) => {
        console.error(error);
        process.exitCode = 1;
      });
  });
${names.map((name) => `export const ${name} = fromSource;`).join('\n')}
`;
      return { contents, loader: 'js' };
    });
  },
};

fs.rmSync(dist, { recursive: true, force: true }); // no chunk of an earlier build stays beside this one
const result = await esbuild.build({
  entryPoints: [path.join(cli, 'src', 'main.ts')],
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins: [packagesResolvedInPlace, localModulesFromSource],
});
const inputs = Object.keys(result.metafile.inputs)
  .filter((input) => !input.includes(':'))
  .map((input) => path.resolve(process.cwd(), input));
fs.writeFileSync(path.join(dist, 'inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
