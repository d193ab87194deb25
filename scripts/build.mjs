// Bundles src/cli.ts into dist/ with esbuild. Code splitting keeps every command, undici, conf and
// cli-table3 in chunks of their own that are loaded only when a command needs them.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

const result = await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  minify: true,
  legalComments: 'none',
  metafile: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __AGENCY_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies (commander, cli-table3) call require() for Node built-ins.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  logLevel: 'warning',
});

if (process.argv.includes('--analyze')) {
  const { analyzeMetafile } = await import('esbuild');
  console.log(await analyzeMetafile(result.metafile));
}
