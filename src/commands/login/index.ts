/** `agency login`: checks an API key and saves it in a profile (with logout, the only writers of keys). */
import { type Command, Option } from '@commander-js/extra-typings';
import { type ConfigData, KEYRING_STORAGE } from '../../config.js';
import { configFileIn } from '../../config-path.js';
import { ApiError } from '../../errors.js';
import { validateKey } from '../../input/api-key.js';
import { confirm, readHidden } from '../../input/prompt.js';
import { readStdin } from '../../input/read.js';
import type { Runtime } from '../../runtime.js';
import { forgetKey, keyStorageOf, placeKey } from '../../secrets/storage.js';
import { helpText, type OptionsOf, oneOf, printsNoList, type Run } from '../command.js';

const configure = (command: Command) =>
  printsNoList(command)
    .option('--no-verify', 'save without checking the key with GET /v1/me')
    .addOption(
      oneOf(
        new Option(
          '--storage <where>',
          'keep the key in the system keyring or in the config file (default: the keyring when one is usable)',
        ).choices(['keyring', 'file'] as const),
      ),
    )
    .addHelpText(
      'after',
      helpText({
        prints: `
          In a terminal, asks for the key without showing it; piped, reads the first
          line of stdin. Then checks the key (GET /v1/me) and says whether it is an HQ
          key or a client key, and of which agency; a key the service refuses is not
          saved. Offers to make the profile current if another one is. Prints nothing on
          stdout; every message goes to stderr.

          The key goes to the system keyring (macOS Keychain, Windows Credential
          Manager, the Secret Service on Linux) when one is usable, else to the config
          file (mode 0600), with a note saying why. --storage chooses; logging in again
          with the other one moves the key there and removes it from the first.
        `,
        examples: `
          $ agency login
          $ agency login --profile acme-hq --base-url https://api.woodpecker.co/rest
          $ printf '%s' "$WOODPECKER_KEY" | agency login --profile ci
          $ agency login --storage file
        `,
      }),
    );

type LoginOptions = OptionsOf<typeof configure>;

export async function login(rt: Runtime, opts: LoginOptions): Promise<void> {
  const { ctx, out, terminal } = rt;
  const saved = rt.config.read();
  let key: string;
  if (terminal.stdinIsTTY) {
    const where = ctx.baseUrlSource === 'default' ? '' : ` (${ctx.baseUrl})`;
    // Instructions for the prompt, not confirmations: shown with -q too, wrapped between words.
    out.log(`Paste the API key for profile "${ctx.profileName}"${where}.`);
    out.log('Find it in Woodpecker under Settings → Add-ons → API & integrations → API keys.');
    key = await readHidden(terminal, 'API key (typing is hidden): ');
  } else {
    key = await readKeyFromStdin(rt);
  }
  validateKey(key, terminal.stdinIsTTY);

  if (opts.verify !== false) {
    const api = rt.api({ apiKey: key });
    const me = await api.me().catch((error: unknown) => {
      // The generic 401 hint (log in again, check AGENCY_API_KEY) is wrong here: this is the login.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        throw new ApiError(error.message, {
          status: error.status,
          title: error.title,
          detail: error.detail,
          hint: `The service refused this key; nothing was saved. Check the key and run the same \`agency login\` again.`,
        });
      }
      throw error;
    });
    const identity = describeIdentity(me);
    out.success(`Key verified: ${identity.headline}.`);
    for (const line of identity.details) out.info(`  ${line}`);
  }

  const hadCurrent = (config: ConfigData) => keyStorageOf(config.profiles[config.current]) !== undefined;
  let makeCurrent = !hadCurrent(saved) || saved.current === ctx.profileName;
  if (!makeCurrent && terminal.stdinIsTTY && terminal.stderrIsTTY) {
    makeCurrent = await confirm(
      terminal,
      `Make "${ctx.profileName}" the current profile (now "${saved.current}")?`,
      true,
      ctx.signal,
    );
  }
  const item = { profile: ctx.profileName, configDir: rt.config.dir };
  const file = configFileIn(rt.config.dir);
  // The keyring first: if it refuses (--storage keyring), the config file is not changed either.
  const placed = await placeKey(item, key, opts.storage);
  let wasInKeyring = false;
  await rt.config.update((config) => {
    const profile = config.profiles[ctx.profileName] ?? {};
    wasInKeyring = keyStorageOf(profile) === 'keyring';
    if (placed.storage === 'keyring') {
      delete profile.api_key;
      profile.api_key_storage = KEYRING_STORAGE;
    } else {
      profile.api_key = key;
      delete profile.api_key_storage;
    }
    if (ctx.baseUrlSource === 'flag' || ctx.baseUrlSource === 'env') profile.base_url = ctx.baseUrl;
    config.profiles[ctx.profileName] = profile;
    if (makeCurrent || !hadCurrent(config)) config.current = ctx.profileName;
  });
  // Said once the file is written: a file that cannot be written is the news then, not the keyring.
  if (placed.fellBack !== undefined)
    out.note(
      `No usable system keyring: ${placed.fellBack}. The key is kept in the config file ${file} (mode 0600).`,
    );
  const where = placed.storage === 'keyring' ? 'the system keyring' : 'the config file';
  out.success(
    `Saved the key in profile "${ctx.profileName}"${makeCurrent ? ' (current)' : ` (use it with -p ${ctx.profileName})`}, in ${where}.`,
  );
  // Moved to the file: the keyring keeps no copy.
  if (wasInKeyring && placed.storage === 'file') {
    const why = await forgetKey(item);
    if (why !== undefined) out.warn(`The old copy in the system keyring could not be deleted (${why}).`);
  }
}

async function readKeyFromStdin(rt: Runtime): Promise<string> {
  const text = await readStdin(rt.terminal, rt.ctx.signal);
  const firstLine = text.split(/\r?\n/).find((line) => line.trim() !== '');
  return (firstLine ?? '').trim();
}

/** What /v1/me says about a key: an HQ key of which agency (and user), or a client key of which company. */
function describeIdentity(me: Record<string, unknown>): { headline: string; details: string[] } {
  const agency = me.agency as Record<string, unknown> | undefined;
  const agencyName = agency && typeof agency.name === 'string' ? JSON.stringify(agency.name) : undefined;
  if (me.account_type === 'HQ' || (me.account_type === undefined && me.role)) {
    const user = typeof me.name === 'string' ? me.name : typeof me.email === 'string' ? me.email : undefined;
    const role = typeof me.role === 'string' ? ` (${me.role})` : '';
    return {
      headline: `HQ key${agencyName ? ` of agency ${agencyName}` : ''}`,
      details: user ? [`User: ${user}${role}`] : [],
    };
  }
  if (me.account_type === 'CLIENT' || me.company_name !== undefined || me.company_id !== undefined) {
    const company = me.company_name !== undefined ? `${JSON.stringify(me.company_name)} ` : '';
    const id = me.company_id ?? me.id;
    return {
      headline: `client key of company ${company}${id !== undefined ? `(id ${String(id)})` : ''}`.trim(),
      details: [
        ...(agencyName ? [`Agency: ${agencyName}`] : []),
        'A client key works for me, mailboxes, webhooks and campaigns; companies,',
        'keys, inventory and the other agency commands need an HQ key.',
      ],
    };
  }
  return { headline: 'the service accepted it', details: [] };
}

export function define(command: Command, run: Run): void {
  configure(command).action(run(login, { key: false }));
}
