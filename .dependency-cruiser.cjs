/** Dependency rules checked in CI (`pnpm depcheck`): features meet only through their faces. */
const core = '^packages/core/src/';
module.exports = {
  forbidden: [
    {
      name: 'feature-private-files',
      comment:
        'Another feature is reached through its face (packages/core/src/<feature>/index.ts), never its inner files.',
      severity: 'error',
      from: { path: `${core}([^/]+)/` },
      to: { path: `${core}[^/]+/.+`, pathNot: [`${core}$1/`, `${core}[^/]+/index\\.ts$`] },
    },
    {
      name: 'outside-core-uses-faces',
      comment: 'Services, the CLI, tools and tests outside core import core features through their faces only.',
      severity: 'error',
      from: { pathNot: `${core}|^packages/core/test/` },
      to: { path: `${core}[^/]+/.+`, pathNot: `${core}[^/]+/index\\.ts$` },
    },
    {
      name: 'auth-verify-stays-small',
      comment: 'auth-verify answers every proxied request: it loads the auth package, never the domain.',
      severity: 'error',
      from: { path: '^services/auth-verify/src/' },
      to: { path: `${core}(?!runtime/|logging\\.ts$|paths\\.ts$)` },
    },
    {
      name: 'no-runtime-cycles',
      comment: 'A cycle of value imports makes load order matter; type-only imports are erased and may cycle.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules|packages/web/|tests/architecture/fixtures/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
      extensions: ['.ts', '.mjs', '.js'],
    },
  },
};
