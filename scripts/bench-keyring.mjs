// What a key in the system keyring costs a command: `agency me` with the profile's key in the keyring
// against the same profile with its key in the config file, alternately (compare() in bench-cases.mjs),
// on a real Secret Service (gnome-keyring on a private D-Bus session, scripts/secret-service.mjs). And
// what it costs a command that needs no key: `agency profiles list` with a keyring profile, which never
// loads the keyring library, against the same list of file profiles.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compare } from './bench-cases.mjs';
import { missingSecretServiceTools, startSecretService } from './secret-service.mjs';

/**
 * What the keyring costs inside a process, which the load of a busy machine blurs less than wall times:
 * loading @napi-rs/keyring, and reading one item (connecting to the bus included), as src/secrets does.
 */
function insideTimes(b, env, runs) {
  const addon = JSON.stringify(path.join(path.dirname(b.BIN), '..', 'node_modules', '@napi-rs', 'keyring'));
  const script = `
const started = performance.now();
const { AsyncEntry } = require(${addon});
const loaded = performance.now();
new AsyncEntry('agency-cli', 'bench', { linux: { store: 'secret-service' } }).getPassword().then(() => {
  console.log(JSON.stringify([loaded - started, performance.now() - loaded]));
});`;
  const samples = Array.from({ length: runs }, () => JSON.parse(b.run1(['-e', script], env)));
  return {
    loadMs: b.median(samples.map(([load]) => load)),
    readMs: b.median(samples.map(([, read]) => read)),
    samples,
  };
}

export async function keyringCases(b, sandbox, runs) {
  const missing = missingSecretServiceTools();
  if (missing.length > 0) {
    console.warn(`keyring case skipped: ${missing.join(', ')} not installed`);
    return [];
  }
  const service = await startSecretService();
  try {
    const dirs = { keyring: path.join(b.tmp, 'config-keyring'), file: path.join(b.tmp, 'config-file') };
    const base = { ...b.cliEnv(sandbox), ...service.env };
    delete base.AGENCY_API_KEY; // the key comes from the profile: that is what is measured
    const env = (storage) => ({ ...base, AGENCY_CONFIG_DIR: dirs[storage] });
    for (const storage of ['keyring', 'file']) {
      mkdirSync(dirs[storage], { mode: 0o700 });
      writeFileSync(path.join(dirs[storage], 'config.json'), '{"current":"default","profiles":{}}', {
        mode: 0o600,
      });
      b.runWithInput([b.BIN, 'login', '--storage', storage, '--no-verify'], env(storage), sandbox.hqKey);
    }
    // The same command with the profile's key in the keyring, then in the file, alternately.
    const keyringAgainstFile = (id, title, argv, check, target) =>
      compare(b, {
        ...{ id, title, baselineTitle: 'the same, key in the config file', runs, target },
        subject: { argv: [b.BIN, ...argv], env: env('keyring') },
        baseline: { argv: [b.BIN, ...argv], env: env('file') },
        ...{ check, baselineCheck: check },
      });
    const request = keyringAgainstFile(
      'keyring',
      '`agency me --json` (1 request), key in the keyring (gnome-keyring)',
      ['me', '--json'],
      (out) => JSON.parse(out).account_type === 'HQ',
    );
    // Each keyring run against the file run next to it: what the keyring adds, load changes aside.
    const added = b.median(request.subject.samples.map((ms, i) => ms - request.baseline.samples[i]));
    request.addedMs = added;
    request.note = `the keyring adds ${b.fmtMs(added)} per command (median of neighbouring pairs; medians differ by ${b.fmtMs(request.subject.median - request.baseline.median)})`;
    const list = keyringAgainstFile(
      'keyring-list',
      '`agency profiles list` (needs no key), a keyring profile',
      ['profiles', 'list'],
      (out) => out.includes('default'),
      1.05,
    );
    request.inside = insideTimes(b, env('keyring'), runs);
    request.note += `; inside the process: loading the library ${b.fmtMs(request.inside.loadMs)}, reading the key ${b.fmtMs(request.inside.readMs)} (medians)`;
    return [request, list];
  } finally {
    await service.close();
  }
}
