// `npm run demo`: starts a sandbox, walks through a short operator session with the real CLI, prints
// every command and what it showed, and stops the sandbox. Nothing touches your own config.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'agency.js');
const configDir = mkdtempSync(join(tmpdir(), 'agency-demo-'));
// The demo's files (agency.yaml, new-keys.tsv) live here; every step runs in it.
const workDir = mkdtempSync(join(tmpdir(), 'agency-demo-files-'));
// The health report outlives the demo, so that it can be opened afterwards (rewritten on each run).
const reportPath = join(tmpdir(), 'agency-demo-health.html');
const env = { ...process.env, AGENCY_CONFIG_DIR: configDir, AGENCY_PROFILE: 'sandbox', COLUMNS: '100' };
for (const name of ['AGENCY_API_KEY', 'AGENCY_BASE_URL', 'NO_COLOR', 'FORCE_COLOR']) delete env[name];
// The tables are shown as a terminal shows them; colour only if the demo itself is on a terminal.
if (!process.stdout.isTTY) env.NO_COLOR = '1';

const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', '--companies', '60'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const first = await new Promise((resolve, reject) => {
  sandbox.once('exit', (code) => reject(new Error(`the sandbox exited early (${code})`)));
  createInterface({ input: sandbox.stdout }).once('line', resolve);
});
const { base_url: baseUrl } = JSON.parse(first);

const hasScript = spawnSync('script', ['--version']).status === 0;
const hasJq = spawnSync('jq', ['--version']).status === 0;
const shimDir = mkdtempSync(join(tmpdir(), 'agency-demo-bin-'));
execFileSync('sh', [
  '-c',
  `printf '#!/bin/sh\\nexec "%s" "%s" "$@"\\n' "${process.execPath}" "${bin}" > "${shimDir}/agency" && chmod +x "${shimDir}/agency"`,
]);
env.PATH = `${shimDir}:${env.PATH}`;

/**
 * Shows the command, runs it in bash (through `script` when it should look like a terminal) and prints
 * what it wrote in the order it wrote it: stderr is merged into stdout, so that apply's plan (stderr)
 * comes before its results (stdout), as on a terminal. `parse`: stdout is kept apart, to be read.
 */
function step(title, command, { tty = false, parse = false } = {}) {
  console.log(`\n# ${title}\n$ ${command}`);
  const args =
    tty && hasScript
      ? ['-qec', `bash -c ${JSON.stringify(command)}`, '/dev/null']
      : ['-c', parse ? command : `{ ${command}\n} 2>&1`];
  const result = spawnSync(tty && hasScript ? 'script' : 'bash', args, {
    env,
    encoding: 'utf8',
    cwd: workDir,
  });
  process.stdout.write(result.stdout.replace(/\r\n/g, '\n'));
  process.stdout.write(result.stderr);
  console.log(`[exit ${result.status}]`);
  return result;
}

try {
  console.log(
    `Sandbox running at ${baseUrl}; a "sandbox" profile was saved in a temporary config directory.`,
  );
  step('Who am I? (the sandbox HQ key of Olivia, the agency owner)', 'agency me');
  const created = step(
    'Create two client companies',
    'agency companies create --name "Acme Rockets Ltd" --name "Globex Outreach" --json',
    { parse: true },
  );
  const id = JSON.parse(created.stdout)[0].id;
  step(
    'Mint an API key for the first one, straight into a variable',
    `KEY=$(agency keys create ${id} --label zapier) && echo "got a key of \${#KEY} characters"`,
  );
  step('Its keys, masked in a table (the first one was created automatically)', `agency keys list ${id}`, {
    tty: true,
  });
  step('Companies in a table, as a terminal shows them', 'agency companies list --limit 8', { tty: true });
  step(
    'The ids and names of active companies, through a filter',
    hasJq
      ? `agency companies list --active --json | jq -r '.[] | "\\(.id) \\(.name)"' | tail -3`
      : 'agency companies list --active | cut -f1,2 | tail -3',
  );
  const inactive = JSON.parse(
    execFileSync(process.execPath, [bin, 'companies', 'list', '--inactive', '--limit', '1', '--json'], {
      env,
      encoding: 'utf8',
    }),
  )[0];
  step(
    'A clean error: mailboxes of an inactive company (exit code 5)',
    `agency mailboxes --company ${inactive.id}`,
  );
  step(
    'Nothing is created twice: the same name again (exit code 1, nothing created)',
    'agency companies create --name "Acme Rockets Ltd"',
  );
  step('Bad input never reaches the service (exit code 2)', 'agency keys list 0');
  step(
    'A name is never guessed: a case variant exits 4 and says what it looks like',
    'agency keys list "acme rockets ltd"',
  );

  writeFileSync(
    join(workDir, 'agency.yaml'),
    [
      'defaults:',
      '  keys: [zapier]',
      '  webhooks:',
      '    - { event: prospect_replied, url: https://crm.example.com/hooks/woodpecker }',
      'companies:',
      '  - name: Acme Rockets Ltd',
      '    keys: [reporting]',
      '  - Harbor Light Studio',
      '',
    ].join('\n'),
  );
  step('Manage the agency as code: the desired state in a file', 'cat agency.yaml');
  step(
    'plan: what it takes, read only (exit 6 with --exit-code: changes pending)',
    'agency plan -f agency.yaml --exit-code',
  );
  step(
    'apply: companies, then keys, then webhooks; each new key also appended to new-keys.tsv (0600)',
    'agency apply -f agency.yaml --yes --keys-out new-keys.tsv && cut -f1-3 new-keys.tsv',
  );
  step('apply again: everything is in place, no POST is sent', 'agency apply -f agency.yaml --yes');
  step(
    "Re-point every active client's bounces at the CRM: a dry run first",
    'agency webhooks subscribe --event prospect_bounced --url https://crm.example.com/hooks/woodpecker --all --dry-run | head -4',
  );
  step(
    'How three clients did over the last 30 days, against the 30 days before',
    'agency deliverability --company 1004 --company 1005 --company 1011',
    { tty: true },
  );
  step(
    'Which clients need me today? Every active client checked; exit 7 because critical problems were found',
    `agency health --html "${reportPath}" > problems.tsv`,
  );
  step(
    'The critical ones (one row per problem, client by client)',
    "awk -F'\\t' '$3 == \"critical\"' problems.tsv | head -5",
  );
  console.log(
    `\nThe health report as a web page: ${reportPath} (open it in a browser; it loads nothing from elsewhere).`,
  );
} finally {
  sandbox.kill('SIGTERM');
  await new Promise((resolve) => sandbox.once('exit', resolve));
  rmSync(configDir, { recursive: true, force: true });
  rmSync(shimDir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
  // The sandbox itself says "Sandbox stopped." on its way out (its stderr is the demo's).
}
