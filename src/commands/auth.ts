/** `login` and `logout`: the only commands that put a key into, or take it out of, a profile. */

import type { Runtime } from '../cli.js';
import { type ConfigData, updateConfig } from '../config.js';
import { unknownProfile } from '../context.js';
import { ApiError, UsageError } from '../errors.js';
import { readStdin } from './input.js';
import { confirm, readHidden } from './prompt.js';

export async function login(rt: Runtime, opts: { verify?: boolean | undefined }): Promise<void> {
  const { ctx } = rt;
  const { out } = ctx;
  let key: string;
  if (ctx.stdinIsTTY) {
    const where = ctx.baseUrlSource === 'default' ? '' : ` (${ctx.baseUrl})`;
    out.info(`Paste the API key for profile "${ctx.profileName}"${where}.`);
    out.info('Find it in Woodpecker under Settings → Add-ons → API & integrations → API keys.');
    key = await readHidden(ctx, 'API key (typing is hidden): ');
  } else {
    key = await readKeyFromStdin(rt);
  }
  validateKey(key);

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

  const hadCurrent = (config: ConfigData) => config.profiles[config.current]?.api_key !== undefined;
  let makeCurrent = !hadCurrent(ctx.config) || ctx.config.current === ctx.profileName;
  if (!makeCurrent && ctx.stdinIsTTY && out.streams.stderrIsTTY) {
    makeCurrent = await confirm(
      ctx,
      `Make "${ctx.profileName}" the current profile (now "${ctx.config.current}")?`,
      true,
    );
  }
  await updateConfig(ctx.configDir, (config) => {
    const profile = config.profiles[ctx.profileName] ?? {};
    profile.api_key = key;
    if (ctx.baseUrlSource === 'flag' || ctx.baseUrlSource === 'env') profile.base_url = ctx.baseUrl;
    config.profiles[ctx.profileName] = profile;
    if (makeCurrent || !hadCurrent(config)) config.current = ctx.profileName;
  });
  out.success(
    `Saved the key in profile "${ctx.profileName}"${makeCurrent ? ' (current)' : ` (use it with -p ${ctx.profileName})`}.`,
  );
}

export async function logout(rt: Runtime): Promise<void> {
  const { ctx } = rt;
  if (!ctx.profile) throw unknownProfile(ctx.profileName, ctx.config);
  if (ctx.profile.api_key === undefined) {
    ctx.out.info(`Profile "${ctx.profileName}" has no key; nothing to do.`);
    return;
  }
  await updateConfig(ctx.configDir, (config) => {
    const profile = config.profiles[ctx.profileName];
    if (profile) delete profile.api_key;
  });
  ctx.out.success(`Removed the key of profile "${ctx.profileName}".`);
}

async function readKeyFromStdin(rt: Runtime): Promise<string> {
  const text = await readStdin(rt.ctx);
  const firstLine = text.split(/\r?\n/).find((line) => line.trim() !== '');
  return (firstLine ?? '').trim();
}

/** Checked without ever echoing the key: a message that quoted it would leak it into logs. */
export function validateKey(key: string): void {
  if (key === '')
    throw new UsageError('No API key was given.', {
      hint: 'Pipe the key on stdin, or run `agency login` in a terminal.',
    });
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new UsageError('The API key contains spaces or characters that are not printable ASCII.', {
      hint: 'Copy the key again from Settings → Add-ons → API & integrations → API keys.',
    });
  }
  // No lower bound: the service, not a guess of ours, decides whether a short key is valid.
  if (key.length > 4096)
    throw new UsageError('That does not look like an API key (longer than 4096 characters).');
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
        'A client key works for me, mailboxes and webhooks; companies, keys and',
        'inventory need an HQ key.',
      ],
    };
  }
  return { headline: 'the service accepted it', details: [] };
}
