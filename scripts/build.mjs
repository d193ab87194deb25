// Builds dist/ with esbuild. The layout is chosen for start-up time; docs/performance.md has the numbers.
//
//   dist/cli.cjs       the program: commander, our code and chalk in one CommonJS file. Node's ESM loader
//                      alone costs more than our start-up budget, so there is no ESM at run time; every
//                      import() in src becomes a require() of code in the bundle, run only when needed.
//   dist/undici.cjs    the HTTP client, required on the first request: only Agent, request and errors
//                      (and EnvHttpProxyAgent, loaded when a proxy is set).
//   dist/conf.cjs      conf (and ajv), required only when the config file is written.
//   dist/yaml.cjs      likewise: required only for a plan file.
//   dist/sql.js.cjs    SQLite (sql.js), required only by the commands that read or write the history
//                      store (src/history/); its WebAssembly is dist/sql-wasm.wasm, read by sql.js itself.
//   dist/sandbox.cjs   the API simulator, required only by `agency sandbox`.
//   dist/mcp.cjs       the MCP SDK (and zod, ajv), required only by `agency mcp` (through src/mcp/sdk.ts).
//   dist/config-path.cjs   where the config file is (src/config-path.ts alone), for `agency --help`'s
//                      fast path, which names this system's file.
//   dist/fast.cjs      the version and every piped `--help` text, rendered by the built program itself,
//                      so that bin/agency.js prints them without loading it.
//   dist/boot.cjs      what bin/agency.js needs to start the program: V8 flags, build id.
//   dist/cache/        V8 code caches of the bundles, made by running typical commands against a sandbox.
//   dist/THIRD_PARTY_LICENSES.md   the licences of the bundled packages.
//
// One package is not bundled: @napi-rs/keyring (the system keyring), a native addon that esbuild cannot
// bundle. It is the package's one dependency, installed by npm with the prebuilt binary of the user's
// platform (an optional dependency of its own), and required only when a key is read or written.
//
// bin/agency.js loads the bundles (it is also the loader used here to make the code caches).
//
// Options: --out DIR (build DIR/dist plus a copy of bin/, to compare builds with `scripts/bench.mjs --bin`),
// --without LEVER[,LEVER] (leave levers out, to measure what each one pays; see LEVERS), --analyze.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeMetafile, build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LEVERS = [
  'fast-paths', // dist/fast.cjs
  'code-cache', // dist/cache/
  'liftoff', // V8 flag --liftoff-only
  'slim-undici', // undici's Agent and request only
  'lazy-http2', // undici: node:http2 only if a server speaks h2
  'no-node-http', // undici: without node:http
  'light-assert', // undici: without node:assert
  'wasm-apart', // undici: llhttp's WebAssembly in files of its own
  'lazy-modules', // the program: node:crypto, node:fs/promises and chalk loaded on first use
  'lazy-child-process', // commander: node:child_process loaded on first use
  'minify',
];
const args = parseArgs(process.argv.slice(2));
const without = new Set(args.without ? args.without.split(',') : []);
for (const lever of without)
  if (!LEVERS.includes(lever)) throw new Error(`unknown lever ${lever}; known: ${LEVERS.join(', ')}`);
const use = (lever) => !without.has(lever);

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const out = args.out ? path.resolve(args.out) : root;
const dist = path.join(out, 'dist');
if (args.out) {
  rmSync(path.join(out, 'bin'), { recursive: true, force: true });
  cpSync(path.join(root, 'bin'), path.join(out, 'bin'), { recursive: true });
}
// The bundles are built aside and then replace dist/ at once: a command run meanwhile (tests, another
// terminal) sees the old build or the new one. fast.cjs and the caches follow; until they exist,
// bin/agency.js simply does without them.
const staging = path.join(out, `.dist-${process.pid}`);
rmSync(staging, { recursive: true, force: true });

const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  minify: use('minify'),
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  // import() of our own modules becomes a require() of code already in the bundle, run on first use.
  supported: { 'dynamic-import': false },
};
const SANDBOX_DIR = path.join(root, 'src/sandbox');
// The one module through which `agency mcp` reaches the SDK; bundled apart with everything it imports.
const MCP_SDK = path.join(root, 'src/mcp/sdk.ts');
// Packages the program loads only in some runs: each is a bundle of its own, required on first use, so
// that the others do not parse it (a bundle's whole text is parsed when it is loaded).
const APART = ['undici', 'conf', 'yaml', 'sql.js'];
// Native addons: required from node_modules at run time (package.json's "dependencies").
const NATIVE = Object.keys(pkg.dependencies ?? {});
const apart = new Set();
const undiciDir = path.join(root, 'node_modules/undici');

const program = await build({
  ...common,
  entryPoints: [path.join(root, 'src/cli.ts')],
  outfile: path.join(staging, 'cli.cjs'),
  external: NATIVE,
  define: { __AGENCY_VERSION__: JSON.stringify(pkg.version) },
  plugins: [
    {
      name: 'separate-bundles',
      setup(b) {
        // `import ... from 'conf'` gets a small ESM module that requires ./conf.cjs and hands out what
        // Node's import() would: `default` is module.exports unless the bundle came from ESM.
        b.onResolve({ filter: new RegExp(`^(${APART.join('|')})$`) }, (a) => {
          apart.add(a.path);
          return { path: a.path, namespace: 'apart' };
        });
        b.onResolve({ filter: /^\.\/.*\.cjs$/ }, (a) =>
          a.namespace === 'apart' ? { path: a.path, external: true } : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'apart' }, async (a) => {
          const names = Object.keys(await import(a.path)).filter((name) => name !== 'default');
          return {
            contents: `const bundle = require('./${a.path}.cjs');
export default bundle && bundle.__esModule ? bundle.default : bundle;
${names.length > 0 ? `export const { ${names.join(', ')} } = bundle;` : ''}`,
            resolveDir: root,
            loader: 'js',
          };
        });
        b.onResolve({ filter: /^\.\/sdk\.js$/ }, (a) =>
          path.resolve(a.resolveDir, 'sdk.ts') === MCP_SDK
            ? { path: './mcp.cjs', external: true }
            : undefined,
        );
        // src/sandbox is a bundle of its own (its index exports everything the command imports).
        // Any file under it (it may have folders of its own) imported from outside it.
        const inSandbox = (file) => file === SANDBOX_DIR || file.startsWith(SANDBOX_DIR + path.sep);
        b.onResolve({ filter: /^\.\.?\// }, (a) =>
          inSandbox(path.resolve(a.resolveDir, a.path)) && !inSandbox(a.resolveDir)
            ? { path: './sandbox.cjs', external: true }
            : undefined,
        );
      },
    },
    use('lazy-modules') && lazyModules(['node:crypto', 'node:fs/promises', 'chalk']),
    use('lazy-child-process') &&
      stub(
        'lazy-child-process',
        /^node:child_process$/,
        // commander loads child_process (and with it net, dgram, ...) for executable subcommands, which
        // we do not have.
        "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
        (a) => /[/\\]node_modules[/\\]commander[/\\]/.test(a.importer),
      ),
  ].filter(Boolean),
});

// Only what src/api/http.ts uses. undici's index also loads fetch, WebSocket, caches and mocks, and with
// them node:http2, tls and crypto: tens of milliseconds on every first request.
const UNDICI_SLIM = `'use strict';
const Agent = require('./lib/dispatcher/agent.js');
const errors = require('./lib/core/errors.js');
const util = require('./lib/core/util.js');
const apiRequest = require('./lib/api/api-request.js');

// undici's request(url, options) without its global dispatcher: http.ts always passes its own Agent.
function request(url, opts) {
  if (!opts || !opts.dispatcher) throw new errors.InvalidArgumentError('a dispatcher is required');
  const parsed = util.parseURL(url);
  const path = parsed.search ? parsed.pathname + parsed.search : parsed.pathname;
  return apiRequest.call(opts.dispatcher, { ...opts, origin: parsed.origin, path, method: opts.method || 'GET' });
}

// With HTTPS_PROXY/HTTP_PROXY set, http.ts uses undici's EnvHttpProxyAgent. Its modules (proxy agents,
// their SOCKS client) are in this bundle but run only when one is made: a run without a proxy pays for
// their text, not their loading.
class EnvHttpProxyAgent {
  constructor(opts) {
    // A tunnel is opened with dispatcher.connect(), which undici's index adds to every dispatcher.
    const Dispatcher = require('./lib/dispatcher/dispatcher.js');
    Dispatcher.prototype.connect ??= require('./lib/api/api-connect.js');
    const Real = require('./lib/dispatcher/env-http-proxy-agent.js');
    return new Real(opts);
  }
}

module.exports = { Agent, EnvHttpProxyAgent, errors, request };
`;

const http = await build({
  ...common,
  stdin: use('slim-undici')
    ? {
        contents: UNDICI_SLIM,
        resolveDir: undiciDir,
        sourcefile: 'undici-slim.js',
        loader: 'js',
      }
    : { contents: "module.exports = require('undici');", resolveDir: root, loader: 'js' },
  outfile: path.join(staging, 'undici.cjs'),
  plugins: [
    use('lazy-http2') && {
      // client-h2.js requires node:http2 (and tls, crypto) when loaded; we speak HTTP/1.1, so it is
      // loaded only if a server ever negotiates h2.
      name: 'lazy-http2',
      setup(b) {
        b.onResolve({ filter: /client-h2\.js$/ }, (a) =>
          a.namespace === 'file' && a.importer.endsWith('client.js')
            ? { path: path.resolve(a.resolveDir, a.path), namespace: 'lazy-h2' }
            : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'lazy-h2' }, (a) => ({
          contents: `module.exports = (...args) => require(${JSON.stringify(a.path)})(...args);`,
          resolveDir: path.dirname(a.path),
          loader: 'js',
        }));
      },
    },
    use('no-node-http') &&
      stub(
        'no-node-http',
        /^node:http$/,
        // undici takes two things from node:http, which costs ~6 ms to load and is otherwise unused: the
        // default maxHeaderSize, and IncomingMessage to recognise a node:http response passed as a body
        // (we send strings). Node's default size applies unless the process was given another one.
        `const options = process.execArgv.join(' ') + ' ' + (process.env.NODE_OPTIONS || '');
module.exports = options.includes('max-http-header-size')
  ? require('node:http')
  : { maxHeaderSize: 16 * 1024, IncomingMessage: class IncomingMessageNotLoaded {} };`,
      ),
    use('light-assert') &&
      stub(
        'light-assert',
        /^node:assert$/,
        // undici checks its own invariants with assert(value, message) only; node:assert costs a few ms.
        `function assert(value, message) {
  if (value) return;
  if (message instanceof Error) throw message;
  const error = new Error(message || 'undici: internal assertion failed');
  error.code = 'ERR_ASSERTION';
  throw error;
}
assert.ok = assert;
module.exports = assert;`,
      ),
    use('wasm-apart') && {
      // The two llhttp builds are 70 kB of base64 each; apart, only the one in use is read.
      name: 'wasm-apart',
      setup(b) {
        b.onResolve({ filter: /llhttp\/llhttp(_simd)?-wasm\.js$/ }, (a) => ({
          path: `./${path.basename(a.path, '.js')}.cjs`,
          external: true,
        }));
      },
    },
  ].filter(Boolean),
});
const apartBundles = [];
for (const name of [...apart].filter((name) => name !== 'undici')) {
  apartBundles.push(
    await build({ ...common, entryPoints: [name], outfile: path.join(staging, `${name}.cjs`) }),
  );
}
if (apart.has('sql.js')) {
  // sql.js reads its WebAssembly from the directory of its own script (here dist/) when it is loaded.
  const require = createRequire(import.meta.url);
  writeFileSync(
    path.join(staging, 'sql-wasm.wasm'),
    readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm')),
  );
}
if (use('wasm-apart')) {
  // As .wasm files: reading 50 kB is cheaper than compiling 70 kB of base64 in JavaScript and decoding it.
  const require = createRequire(import.meta.url);
  for (const name of ['llhttp', 'llhttp_simd']) {
    writeFileSync(
      path.join(staging, `${name}.wasm`),
      require(path.join(undiciDir, `lib/llhttp/${name}-wasm.js`)),
    );
    const read = `require('node:fs').readFileSync(require('node:path').join(__dirname, '${name}.wasm'))`;
    writeFileSync(path.join(staging, `${name}-wasm.cjs`), `'use strict';\nmodule.exports = ${read};\n`);
  }
}

const sandbox = await build({
  ...common,
  entryPoints: [path.join(SANDBOX_DIR, 'index.ts')],
  outfile: path.join(staging, 'sandbox.cjs'),
});
// A module shared with the program would exist twice (and two copies of an error class break instanceof),
// except a leaf of functions alone (no class, no state, nothing of ours imported): a copy is then harmless.
const SHARED_LEAVES = ['src/whole-file.ts'];
const shared = Object.keys(sandbox.metafile.inputs).filter(
  (file) => !file.startsWith('src/sandbox/') && !SHARED_LEAVES.includes(file),
);
if (shared.length > 0)
  throw new Error(
    `src/sandbox must not import from outside it (it is a bundle of its own): ${shared.join(', ')}`,
  );

// For bin/agency.js: `agency --help` names the config file of this system, found without the program.
await build({
  ...common,
  entryPoints: [path.join(root, 'src/config-path.ts')],
  outfile: path.join(staging, 'config-path.cjs'),
  // node:os only where HOME is not set.
  plugins: [lazyModules(['node:os'])],
});

const mcp = await build({ ...common, entryPoints: [MCP_SDK], outfile: path.join(staging, 'mcp.cjs') });
const mcpOwn = Object.keys(mcp.metafile.inputs).filter((file) => file.startsWith('src/'));
if (mcpOwn.some((file) => file !== 'src/mcp/sdk.ts'))
  throw new Error(
    `src/mcp/sdk.ts must import only the SDK (it is a bundle of its own): ${mcpOwn.join(', ')}`,
  );
const sdkInProgram = Object.keys(program.metafile.inputs).filter((file) =>
  /node_modules\/(@modelcontextprotocol|zod|ajv)\//.test(file),
);
if (sdkInProgram.length > 0)
  throw new Error(`the program must not bundle the MCP SDK (only dist/mcp.cjs): ${sdkInProgram[0]}`);

const buildId = randomBytes(6).toString('hex');
// llhttp (undici's parser) is WebAssembly. After a few kB of parsing, V8 tiers its main loop up to TurboFan
// in the background, and the process waits for that compile at exit: ~100 ms and ~35 MB for nothing in a
// short-lived CLI. Liftoff, V8's baseline compiler, parses our responses fast enough. It exists on x64 and
// arm64 (elsewhere --liftoff-only could leave llhttp without a compiler), so the check runs where it runs.
const v8Flags = use('liftoff')
  ? `process.arch === 'x64' || process.arch === 'arm64' ? ['--liftoff-only'] : []`
  : '[]';
writeFileSync(
  path.join(staging, 'boot.cjs'),
  `'use strict';
// Generated by scripts/build.mjs: what bin/agency.js needs to load the program.
module.exports = {
  buildId: ${JSON.stringify(buildId)},
  // Set before any bundle is compiled: they are part of the code caches' checksum.
  v8Flags: ${v8Flags},
  cache: ${use('code-cache')},
};
`,
);
writeFileSync(
  path.join(staging, 'THIRD_PARTY_LICENSES.md'),
  thirdPartyLicenses([program, http, sandbox, mcp, ...apartBundles]),
);
rmSync(dist, { recursive: true, force: true });
renameSync(staging, dist);

if (use('fast-paths')) renderFastPaths();
if (use('code-cache')) makeCodeCaches();

if (args.analyze) {
  for (const result of [program, http, sandbox, mcp]) console.log(await analyzeMetafile(result.metafile));
}

/**
 * Runs a script in a child process (so that nothing of this process leaks into it) and returns its stdout,
 * or undefined if it failed: these steps only make the program faster, so the build goes on without them.
 */
function child(what, script) {
  const env = { ...process.env };
  // Plain, uncoloured output, as into a pipe; and no settings of the person building.
  for (const name of Object.keys(env)) {
    if (name.startsWith('AGENCY_') || ['FORCE_COLOR', 'CLICOLOR_FORCE', 'NO_COLOR'].includes(name))
      delete env[name];
  }
  const result = spawnSync(process.execPath, ['-e', script], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 26,
  });
  if (result.status === 0) return String(result.stdout);
  console.warn(`warning: ${what} failed; the build works without it, only slower to start`);
  return undefined;
}

/**
 * dist/fast.cjs: the version, and the help of every command as the program prints it into a pipe (whose
 * help width is 80), rendered by the built program in a child process whose stdout is a pipe. The
 * program's own help names the config file of the system it runs on: it is rendered with a stand-in
 * directory, and `configFileLine` is the line bin/agency.js replaces with the real one.
 */
function renderFastPaths() {
  const json = child(
    'rendering the help texts for dist/fast.cjs',
    `
const { loadProgram, walkCommands, render } = require(${JSON.stringify(path.join(root, 'scripts/command-tree.cjs'))});
const { configFileIn } = require(${JSON.stringify(path.join(dist, 'config-path.cjs'))});
(async () => {
  const { main, program } = await loadProgram(${JSON.stringify(path.join(out, 'bin/agency.js'))});
  const help = {};
  for (const { words } of walkCommands(program)) help[words.join(' ')] = await render(main, [...words, '--help']);
  const standIn = 'AGENCY_CONFIG_DIR_AT_RUN_TIME';
  const configFileLine = 'Config file: ' + configFileIn(standIn);
  const top = await render(main, ['--help'], { AGENCY_CONFIG_DIR: standIn });
  if (top.split('\\n').includes(configFileLine)) help[''] = top;
  process.stdout.write(JSON.stringify({ version: await render(main, ['--version']), help, configFileLine }));
})();
`,
  );
  if (json === undefined) return;
  writeFileSync(
    path.join(dist, 'fast.cjs'),
    // JSON.parse of one string compiles faster than the same data as an object literal.
    `'use strict';\n// Generated by scripts/build.mjs with the program itself; see bin/agency.js.\nmodule.exports = JSON.parse(${JSON.stringify(json)});\n`,
  );
}

/**
 * dist/cache/<bundle>.<build id>: V8 code caches made after running typical commands against a sandbox,
 * so that they hold the functions those commands compile. V8 refuses a cache made by another Node version
 * or with other flags, and bin/agency.js then compiles from source as usual.
 */
function makeCodeCaches() {
  mkdirSync(path.join(dist, 'cache'));
  child(
    'making the code caches',
    `
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const agency = require(${JSON.stringify(path.join(out, 'bin/agency.js'))});
const { main } = agency.bootProgram();
const sink = (write) => ({ isTTY: false, write: (text, cb) => { write(String(text)); if (typeof cb === 'function') cb(); return true; } });
(async () => {
  const { startSandbox } = agency.loadBundle('sandbox.cjs');
  const sandbox = await startSandbox({ port: 0, seed: { companies: 60 } });
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agency-build-'));
  const env = { AGENCY_API_KEY: sandbox.hqKey, AGENCY_BASE_URL: sandbox.baseUrl, AGENCY_CONFIG_DIR: configDir, AGENCY_NO_HISTORY: '1' };
  // A command that fails here only means fewer of its functions in the cache.
  const run = async (argv) => {
    let text = '';
    let errors = '';
    const io = { stdin: process.stdin, stdout: sink((s) => (text += s)), stderr: sink((s) => (errors += s)), env };
    const code = await main(argv, io);
    if (code !== 0) console.warn('warning: while making the code caches, agency ' + argv.join(' ') + ' exited with ' + code + ': ' + errors);
    return text;
  };
  const ids = sandbox.store.companies(1, { active: true }).map((c) => String(c.id));
  await run(['companies', 'list', '--json']);
  await run(['companies', 'list']);
  await run(['keys', 'create', ids[0], '--label', 'build']);
  await run(['keys', 'create', ...ids.slice(1, 4), '--label', 'build']);
  await run(['keys', 'list', ids[0]]);
  await run(['me']);
  // A config write (conf.cjs) and a plan file (yaml.cjs): login, logout and profiles; plan and apply.
  const profile = { api_key: sandbox.hqKey, base_url: sandbox.baseUrl };
  fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ current: 'a', profiles: { a: profile, b: profile } }), { mode: 0o600 });
  await run(['profiles', 'use', 'b']);
  const plan = path.join(configDir, 'agency.yaml');
  const company = sandbox.store.companies(1, { active: true })[0];
  fs.writeFileSync(plan, 'companies:\\n  - name: ' + JSON.stringify(company.name) + '\\n    keys: [build]\\n');
  await run(['plan', '-f', plan]);
  await sandbox.close();
  fs.rmSync(configDir, { recursive: true, force: true });
  // The WebAssembly bundles are one string each: nothing to gain.
  for (const { name, script } of agency.loadedBundles().filter((b) => !b.name.startsWith('llhttp'))) {
    fs.writeFileSync(path.join(${JSON.stringify(dist)}, 'cache', name + '.' + ${JSON.stringify(buildId)}), script.createCachedData());
  }
})();
`,
  );
}

/**
 * The bundles carry their dependencies (all but the native addons, which npm installs with their own
 * licences), so the licences of the code bundled from node_modules travel with the package: one
 * section per package, with its licence text.
 */
function thirdPartyLicenses(results) {
  const packages = new Map();
  for (const result of results) {
    for (const input of Object.keys(result.metafile.inputs)) {
      // A plugin's module is named '<namespace>:<path>'.
      const file = path.resolve(root, input.replace(/^[a-z][a-z0-9-]*:(?=\/)/, ''));
      const match = /\/node_modules\/(?:@[^/]+\/)?[^/]+\//.exec(file);
      if (!match) continue;
      const dir = file.slice(0, match.index + match[0].length);
      if (!packages.has(dir))
        packages.set(dir, JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')));
    }
  }
  const sections = [...packages]
    .sort(([, a], [, b]) => a.name.localeCompare(b.name))
    .map(([dir, pkg]) => {
      const file = readdirSync(dir).find((name) => /^(licen[cs]e|copying)/i.test(name));
      if (!file) throw new Error(`no licence file in ${dir}: it cannot be bundled without one`);
      const text = readFileSync(path.join(dir, file), 'utf8').trim();
      return `## ${pkg.name} ${pkg.version} (${pkg.license ?? 'see below'})\n\n${text}\n`;
    });
  return `# Third-party code bundled in dist/\n\nGenerated by scripts/build.mjs.\n\n${sections.join('\n')}`;
}

/** Replaces the module `filter` matches (for the importers `when` accepts) with `contents`. */
function stub(name, filter, contents, when = () => true) {
  return {
    name,
    setup(b) {
      b.onResolve({ filter }, (a) =>
        when(a) && a.namespace === 'file' ? { path: a.path, namespace: name } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: name }, () => ({
        contents: `'use strict';\n${contents}`,
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

/**
 * Imports of these modules become objects whose properties load the module on first access: node:crypto
 * (config writes), node:fs/promises (--file) and chalk (a terminal) are not needed by most runs.
 */
function lazyModules(specifiers) {
  return {
    name: 'lazy-modules',
    async setup(b) {
      const names = {};
      for (const specifier of specifiers) names[specifier] = Object.keys(await import(specifier));
      const filter = new RegExp(`^(${specifiers.map((s) => s.replace(/[/.]/g, '\\$&')).join('|')})$`);
      b.onResolve({ filter }, (a) =>
        a.namespace === 'lazy' ? undefined : { path: a.path, namespace: 'lazy' },
      );
      b.onLoad({ filter: /.*/, namespace: 'lazy' }, (a) => ({
        contents: `'use strict';
let loaded;
const load = () => (loaded ??= require(${JSON.stringify(a.path)}));
for (const name of ${JSON.stringify(names[a.path])}) {
  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
}`,
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

function parseArgs(argv) {
  const parsed = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'analyze') parsed.analyze = true;
    else if (name === 'out' || name === 'without') parsed[name] = argv[++i];
    else throw new Error(`unknown option ${argv[i]}; see the comment at the top of scripts/build.mjs`);
  }
  return parsed;
}
