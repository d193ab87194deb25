/**
 * A real Secret Service for one test file: a private D-Bus session bus (dbus-daemon with a config of
 * its own: no service files, so nothing is started on demand and a killed keyring stays gone) and
 * gnome-keyring-daemon on it, its "login" keyring unlocked with a test password, its files in a
 * temporary home. Spawned binaries reach it through `env.DBUS_SESSION_BUS_ADDRESS`. Used by the tests
 * of the keyring (test/e2e/keyring.test.ts) and by `npm run bench` (its keyring case).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOOLS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'];
const PASSWORD = 'agency-test-password';

/** The tools a Secret Service needs that this machine lacks (the tests then skip, saying which). */
export function missingSecretServiceTools() {
  return TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
}

/** Starts the bus and the daemon; `close()` stops both and removes their files. See secret-service.d.mts. */
export async function startSecretService() {
  const dir = mkdtempSync(join(tmpdir(), 'agency-keyring-'));
  const home = join(dir, 'home');
  mkdirSync(home);
  const config = join(dir, 'bus.conf');
  writeFileSync(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=${dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`,
  );
  const bus = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const address = await firstLine(bus);
  const env = { DBUS_SESSION_BUS_ADDRESS: address };
  const toolEnv = { ...process.env, ...env, HOME: home, XDG_DATA_HOME: join(home, 'data') };
  const keyring = spawn(
    'gnome-keyring-daemon',
    ['--unlock', '--components=secrets', '--foreground', `--control-directory=${join(dir, 'control')}`],
    { env: toolEnv, stdio: ['pipe', 'ignore', 'ignore'] },
  );
  keyring.stdin?.end(PASSWORD);
  await waitForName(toolEnv, 'org.freedesktop.secrets');
  const secretTool = (args) =>
    spawnSync('secret-tool', args, { env: toolEnv, encoding: 'utf8', timeout: 10_000 });
  const pairs = (attributes) => Object.entries(attributes).flat();
  const stop = async (child) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return {
    env,
    lookup: (attributes) => {
      const r = secretTool(['lookup', ...pairs(attributes)]);
      return r.status === 0 ? r.stdout : undefined;
    },
    search: (attributes) => {
      const r = secretTool(['search', '--all', ...pairs(attributes)]);
      return `${r.stdout}${r.stderr}`;
    },
    lock: () => {
      execFileSync(
        'dbus-send',
        [
          '--session',
          '--dest=org.freedesktop.secrets',
          '--type=method_call',
          '--print-reply',
          '/org/freedesktop/secrets',
          'org.freedesktop.Secret.Service.Lock',
          'array:objpath:/org/freedesktop/secrets/collection/login',
        ],
        { env: toolEnv, stdio: 'ignore', timeout: 10_000 },
      );
    },
    kill: () => stop(keyring),
    close: async () => {
      await stop(keyring);
      await stop(bus);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function firstLine(child) {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end).trim());
    });
    child.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code}) before giving its address`)));
  });
}

/** Until a name is owned on the bus (the daemon has started); a few seconds at most. */
async function waitForName(env, name) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const r = spawnSync(
      'dbus-send',
      [
        '--session',
        '--dest=org.freedesktop.DBus',
        '--print-reply',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        `string:${name}`,
      ],
      { env, encoding: 'utf8' },
    );
    if (r.stdout.includes('boolean true')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} did not appear on the private D-Bus session`);
}
