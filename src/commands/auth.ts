/** `login` and `logout`: the only commands that put a key into, or take it out of, a profile. */
import { type ConfigData, updateConfig } from '../config.js';
import { unknownProfile } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';
import type { Runtime } from '../cli.js';
import { confirm, readHidden } from './prompt.js';

export async function login(rt: Runtime, opts: { verify?: boolean | undefined }): Promise<void> {
  const { ctx } = rt;
  const { out } = ctx;
  const key = ctx.stdinIsTTY ? await readHidden(ctx, `API key for profile "${ctx.profileName}": `) : await readKeyFromStdin(rt);
  validateKey(key);

  if (opts.verify !== false) {
    const api = rt.api({ apiKey: key });
    const me = await api.me();
    out.success(`Key verified: ${describeIdentity(me)}.`);
  }

  const hadCurrent = (config: ConfigData) => config.profiles[config.current]?.api_key !== undefined;
  let makeCurrent = !hadCurrent(ctx.config) || ctx.config.current === ctx.profileName;
  if (!makeCurrent && ctx.stdinIsTTY && out.streams.stderrIsTTY) {
    makeCurrent = await confirm(ctx, `Make "${ctx.profileName}" the current profile (now "${ctx.config.current}")?`, true);
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
  const chunks: Buffer[] = [];
  for await (const chunk of rt.ctx.io.stdin) {
    if (rt.ctx.signal.aborted) throw new InterruptedError();
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const firstLine = text.split(/\r?\n/).find((line) => line.trim() !== '');
  return (firstLine ?? '').trim();
}

/** Checked without ever echoing the key: a message that quoted it would leak it into logs. */
export function validateKey(key: string): void {
  if (key === '') throw new UsageError('No API key was given.', { hint: 'Pipe the key on stdin, or run `agency login` in a terminal.' });
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new UsageError('The API key contains spaces or characters that are not printable ASCII.', {
      hint: 'Copy the key again from Settings → API & integrations → API keys.',
    });
  }
  if (key.length < 8 || key.length > 512) throw new UsageError('That does not look like an API key (wrong length).');
}

function describeIdentity(me: Record<string, unknown>): string {
  const agency = me.agency as Record<string, unknown> | undefined;
  const parts: string[] = [];
  if (me.account_type === 'HQ' || me.role) parts.push('HQ key');
  else if (me.company_name || me.company_id) parts.push(`client key of company ${String(me.company_name ?? me.company_id)}`);
  if (typeof me.name === 'string') parts.push(`user ${me.name}`);
  else if (typeof me.email === 'string') parts.push(`user ${me.email}`);
  if (agency && typeof agency.name === 'string') parts.push(`agency ${agency.name}`);
  return parts.length ? parts.join(', ') : 'the service accepted it';
}
