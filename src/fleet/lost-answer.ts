/**
 * A write whose answer was lost (the connection closed after the request was sent, a deadline passed,
 * a gateway's 5xx) may or may not have been carried out. It is never sent again; instead the tool reads
 * back what it wrote and reports what the service shows, so that the user learns the outcome instead
 * of "maybe". Companies have their own check (bulk-create.ts), the blacklist its own read-back
 * (blacklist-changes.ts); this module does keys, webhooks and campaign statuses.
 */
import type { CampaignAction } from '../api/resources/campaigns.js';
import { AgencyError, ApiError, connectionRefused, InterruptedError, UsageError } from '../errors.js';
import { command } from '../terms.js';
import { companyKeys } from './keys.js';
import type { BounceShieldPort, CampaignStatusPort, KeyPort, WebhookPort } from './ports.js';
import { listedEvent } from './webhook-input.js';
import { hasWebhook } from './webhook-lookalikes.js';

/**
 * A 4xx answer means the request was refused (nothing done). A network failure, an unreadable body or
 * a 5xx (a gateway may answer after the service did the work) leave the outcome open.
 */
export function answerMayBeLost(error: unknown): error is AgencyError {
  if (!(error instanceof AgencyError)) return false;
  if (error instanceof UsageError || error instanceof InterruptedError) return false;
  if (error instanceof ApiError) return error.status >= 500;
  // A refused connection (the service's, or a proxy's) means the request never left this machine.
  return !connectionRefused(error);
}

/** The lost answer's error, told what the read-back found; same exit code and status. */
export class SettledLostAnswer extends AgencyError {
  readonly exitCode;
  override readonly status: number | null;
  constructor(lost: AgencyError, found: string, hint: string) {
    super(`${lost.message}; ${found}`, { hint, cause: lost, title: lost.title, detail: lost.detail });
    this.exitCode = lost.exitCode;
    this.status = lost.status;
  }
}

/**
 * Creates a key; after a lost answer, reads the company's keys (those of this user) to learn whether
 * it was made. `before` holds the values of the keys with this label that existed before the request,
 * when they were read (--skip-existing, apply): a key with the label outside it is the new one. Without
 * it, a key with the label found afterwards may be an older one, so it is never reported as created.
 * `retry` says what is safe to run next (a sentence), whatever was found.
 */
export async function createKeySettled(
  api: Pick<KeyPort, 'createKey' | 'listKeysPage'>,
  companyId: number,
  label: string,
  options: { before?: ReadonlySet<string> | undefined; retry: string; note(message: string): void },
): Promise<string> {
  try {
    return await api.createKey(companyId, label);
  } catch (error) {
    if (!answerMayBeLost(error)) throw error;
    let now: string[];
    try {
      const wanted = label.trim();
      now = (await companyKeys(api, companyId))
        .filter((key) => key.label?.trim() === wanted)
        .map((key) => key.api_key);
    } catch (readError) {
      if (readError instanceof InterruptedError) throw readError;
      throw new SettledLostAnswer(
        error,
        `the keys could not be read afterwards (${(readError as Error).message}), so whether it was created is unknown`,
        options.retry,
      );
    }
    const { before } = options;
    const fresh = before ? now.filter((key) => !before.has(key)) : [];
    if (fresh.length === 1) {
      options.note(
        `The answer to creating the key ${JSON.stringify(label)} for company ${companyId} was lost, but its keys, read again, show the new key: it was created.`,
      );
      return fresh[0] as string;
    }
    if (now.length === 0 || (before && fresh.length === 0)) {
      throw new SettledLostAnswer(
        error,
        `company ${companyId} has no new key labelled ${JSON.stringify(label)}: it was not created`,
        `Nothing was created. ${options.retry}`,
      );
    }
    throw new SettledLostAnswer(
      error,
      `company ${companyId} has a key labelled ${JSON.stringify(label)} now, but whether this run created it is unknown (its keys were not read before)`,
      options.retry,
    );
  }
}

/**
 * The webhook writes of `api`, settled after a lost answer: the account's webhooks are read again, and
 * the pair's presence says whether the (un)subscription took place. `note` is told what was found.
 */
export function settledWebhookWrites(api: WebhookPort, note: (message: string) => void): WebhookPort {
  const settle = async (
    action: 'subscribe' | 'unsubscribe',
    companyId: number | undefined,
    event: string,
    url: string,
    error: AgencyError,
  ): Promise<void> => {
    const account = companyId === undefined ? 'this account' : `company ${companyId}`;
    const what = `${action === 'subscribe' ? 'subscribing' : 'unsubscribing'} ${account} ${action === 'subscribe' ? 'to' : 'from'} ${listedEvent(event)} → ${url}`;
    let present: boolean;
    try {
      present = hasWebhook(await api.webhooks(companyId), event, url);
    } catch (readError) {
      if (readError instanceof InterruptedError) throw readError;
      throw new SettledLostAnswer(
        error,
        `the webhooks could not be read afterwards (${(readError as Error).message}), so whether it took place is unknown`,
        `Check with \`${command(`webhooks${companyId === undefined ? '' : ` --company ${companyId}`}`)}\`; running the same command again is safe (it reads first).`,
      );
    }
    const done = present === (action === 'subscribe');
    if (done) {
      note(`The answer to ${what} was lost; its webhooks, read again, show it done.`);
      return;
    }
    throw new SettledLostAnswer(
      error,
      `its webhooks, read again, show it was not done`,
      'Nothing was changed; running the same command again is safe (it reads first).',
    );
  };
  return {
    webhooks: (companyId) => api.webhooks(companyId),
    subscribeWebhook: async (companyId, event, url) => {
      try {
        return await api.subscribeWebhook(companyId, event, url);
      } catch (error) {
        if (!answerMayBeLost(error)) throw error;
        await settle('subscribe', companyId, event, url, error);
        return 'subscribed';
      }
    },
    unsubscribeWebhook: async (companyId, event, url) => {
      try {
        await api.unsubscribeWebhook(companyId, event, url);
      } catch (error) {
        if (!answerMayBeLost(error)) throw error;
        await settle('unsubscribe', companyId, event, url, error);
      }
    },
  };
}

/** The status each campaign action leaves (the service's docs). */
const STATUS_AFTER: Record<CampaignAction, string> = { run: 'RUNNING', pause: 'PAUSED', stop: 'STOPPED' };

/**
 * Runs, pauses or stops a campaign; after a lost answer, reads the campaign back (GET /v2/campaigns/{id})
 * and reports what its status shows, never sending the change again blind. `note` is told when the
 * read-back shows it done.
 */
export async function changeCampaignSettled(
  api: CampaignStatusPort,
  companyId: number | undefined,
  campaignId: number,
  action: CampaignAction,
  note: (message: string) => void,
): Promise<void> {
  try {
    await api.changeCampaign(companyId, campaignId, action);
  } catch (error) {
    if (!answerMayBeLost(error)) throw error;
    const where = `campaign ${campaignId}${companyId === undefined ? '' : ` of company ${companyId}`}`;
    const check = `Check with \`${command(`campaigns${companyId === undefined ? '' : ` --company ${companyId}`}`)}\``;
    let status: string;
    try {
      status = (await api.campaign(companyId, campaignId)).status.toUpperCase();
    } catch (readError) {
      if (readError instanceof InterruptedError) throw readError;
      throw new SettledLostAnswer(
        error,
        `${where} could not be read afterwards (${(readError as Error).message}), so whether it changed is unknown`,
        `${check}; running the same command again is safe (it reads first).`,
      );
    }
    if (status === STATUS_AFTER[action]) {
      note(
        `The answer to ${action === 'run' ? 'resuming' : `${action === 'pause' ? 'pausing' : 'stopping'}`} ${where} was lost; read again, it is ${status}: done.`,
      );
      return;
    }
    throw new SettledLostAnswer(
      error,
      `${where}, read again, is ${status}: it was not changed`,
      'Nothing was changed; running the same command again is safe (it reads first).',
    );
  }
}

/**
 * Sets (a number) or clears (null) a campaign's Bounce Shield threshold; after a lost answer, reads
 * the threshold back and reports what it shows.
 */
export async function setBounceShieldSettled(
  api: BounceShieldPort,
  companyId: number | undefined,
  campaignId: number,
  threshold: number | null,
  note: (message: string) => void,
): Promise<void> {
  try {
    if (threshold === null) await api.clearBounceShield(companyId, campaignId);
    else await api.setBounceShield(companyId, campaignId, threshold);
  } catch (error) {
    if (!answerMayBeLost(error)) throw error;
    const where = `campaign ${campaignId}${companyId === undefined ? '' : ` of company ${companyId}`}`;
    const what =
      threshold === null
        ? `clearing the Bounce Shield of ${where}`
        : `setting the Bounce Shield of ${where} to ${threshold}%`;
    let now: number | null;
    try {
      now = await api.bounceShield(companyId, campaignId);
    } catch (readError) {
      if (readError instanceof InterruptedError) throw readError;
      throw new SettledLostAnswer(
        error,
        `the threshold could not be read afterwards (${(readError as Error).message}), so whether it changed is unknown`,
        'Running the same command again is safe (it reads first).',
      );
    }
    if (now === threshold) {
      note(`The answer to ${what} was lost; read again, it is done.`);
      return;
    }
    throw new SettledLostAnswer(
      error,
      `read again, the threshold is ${now === null ? 'the default' : `${now}%`}: it was not changed`,
      'Nothing was changed; running the same command again is safe (it reads first).',
    );
  }
}
