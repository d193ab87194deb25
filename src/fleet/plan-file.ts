/**
 * The desired-state file of `plan` and `apply` (contract, "Fleet changes"): YAML, or JSON (which is
 * YAML too). Every problem names its line, and all are reported at once; nothing is sent for a bad
 * file. This module and plan-file-nodes.ts are the only ones that import `yaml`, so other commands
 * never pay for loading it.
 */
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type YAMLMap } from 'yaml';
import { textOf, UsageError } from '../errors.js';
import { readInput, type StdinSource } from '../input/read.js';
import { hasControlCharacters, quoted } from '../output/text.js';
import { inputLine } from '../terms.js';
import { checkGuestEmail, type GuestPermission, permissionsOfWord, type WantedGuest } from './guests.js';
import { duplicateMessage, duplicateNames } from './names.js';
import { describe, firstLine, isNull, listed, nullAt, unique } from './plan-file-nodes.js';
import { ALLOW_UNKNOWN_EVENT, checkEvent, checkWebhookUrl, EventTypoError } from './webhook-input.js';

export interface DesiredWebhook {
  /** Lower case, the form sent on subscribe. */
  event: string;
  url: string;
}

export interface DesiredCompany {
  name: string;
  /** Line of the company's entry in the file. */
  line: number;
  /** Labels that must exist among the keys the user created: the defaults, then the company's own. */
  keys: string[];
  webhooks: DesiredWebhook[];
  /**
   * The company's entry or the defaults list `webhooks` (even an empty list): its subscriptions that
   * the file does not list are unmanaged ("?" lines; removed by apply --prune).
   */
  managesWebhooks: boolean;
  /** Guests the company must have (invited, with these permissions); others are left alone. */
  guests: WantedGuest[];
  /** `bounce_shield: N`: the threshold its RUNNING and PAUSED campaigns must have (the company's, else the defaults'). */
  bounceShield?: number | undefined;
}

export interface DesiredState {
  companies: DesiredCompany[];
  /** Unknown but well-formed event names, once each. */
  warnings: string[];
  /** A value sent in another form than written (an internationalised address in ASCII), naming its line. */
  notes: string[];
}

const MAX_NAME_LENGTH = 255;
const MAX_LABEL_LENGTH = 255;

/**
 * The file at `path` ('-' = stdin), read and checked; its warnings (unknown events) go to `warn`, its
 * notes (a value sent in its ASCII form) to `note`.
 */
export async function readDesiredState(
  path: string,
  input: {
    terminal: StdinSource;
    signal: AbortSignal;
    warn: (message: string) => void;
    note: (message: string) => void;
    /** --allow-unknown-event: an event within two edits of a known one is a warning, not a problem. */
    allowUnknownEvents?: boolean | undefined;
  },
): Promise<DesiredState> {
  const { text, source } = await readInput(path, input.terminal, input.signal);
  const desired = parsePlanFile(text, source, { allowUnknownEvents: input.allowUnknownEvents === true });
  for (const warning of desired.warnings) input.warn(warning);
  for (const note of desired.notes) input.note(note);
  return desired;
}

export function parsePlanFile(
  text: string,
  source: string,
  options: { allowUnknownEvents?: boolean } = {},
): DesiredState {
  return new PlanFileReader(text, source, options.allowUnknownEvents === true).read();
}

class PlanFileReader {
  readonly #lines = new LineCounter();
  readonly #problems: string[] = [];
  readonly #warnings = new Map<string, string>();
  readonly #notes: string[] = [];
  /** An event was refused as a typo of a known one: the hint names the escape. */
  #typo = false;

  constructor(
    private readonly text: string,
    private readonly source: string,
    private readonly allowUnknownEvents: boolean,
  ) {}

  read(): DesiredState {
    const doc = parseDocument(this.text, { lineCounter: this.#lines, uniqueKeys: true, prettyErrors: false });
    for (const error of doc.errors) {
      const line = this.#lines.linePos(error.pos[0]).line;
      this.#problems.push(`${inputLine(this.source, line)}: ${firstLine(error.message)}`);
    }
    let companies: DesiredCompany[] = [];
    if (doc.errors.length === 0) companies = this.#root(doc.contents);
    if (this.#problems.length > 0) {
      const [only] = this.#problems;
      throw new UsageError(
        this.#problems.length === 1 && only !== undefined
          ? `Invalid plan file: ${only}`
          : `Invalid plan file, ${this.#problems.length} problems:\n  ${this.#problems.join('\n  ')}`,
        {
          hint: this.#typo
            ? `Nothing was sent. If the service has such an event, add ${ALLOW_UNKNOWN_EVENT.file}.`
            : 'Nothing was sent.',
        },
      );
    }
    return { companies, warnings: [...this.#warnings.values()], notes: this.#notes };
  }

  #root(node: unknown): DesiredCompany[] {
    if (node === null || (isScalar(node) && node.value === null)) {
      this.#problem(node, 'the file is empty; expected a "companies:" list');
      return [];
    }
    const root = this.#map(node, 'the file');
    if (!root) return [];
    const fields = this.#fields(root, ['defaults', 'companies'], 'at the top level');
    let keys: string[] = [];
    let webhooks: DesiredWebhook[] = [];
    let defaultsListWebhooks = false;
    let shield: number | undefined;
    const defaults = fields.get('defaults');
    if (defaults && !isNull(defaults)) {
      const map = this.#map(defaults, '"defaults"');
      if (map) {
        const inner = this.#fields(map, ['keys', 'webhooks', 'bounce_shield'], 'in "defaults"');
        keys = this.#labels(inner.get('keys'));
        webhooks = this.#webhooks(inner.get('webhooks'));
        defaultsListWebhooks = listed(inner.get('webhooks'));
        shield = this.#threshold(inner.get('bounce_shield'));
      }
    }
    const list = fields.get('companies');
    if (list === undefined) {
      this.#problem(root, 'missing "companies:" (a list of company names or {name, keys, webhooks})');
      return [];
    }
    if (isNull(list)) return [];
    if (!isSeq(list)) {
      this.#problem(list, `"companies" must be a list, not ${describe(list)}`);
      return [];
    }
    const companies: DesiredCompany[] = [];
    for (const item of list.items) {
      const company = this.#company(item, keys, { list: webhooks, listed: defaultsListWebhooks }, shield);
      if (company) companies.push(company);
    }
    const named = companies.map((c) => ({ name: c.name, where: inputLine(this.source, c.line) }));
    for (const group of duplicateNames(named)) this.#problems.push(duplicateMessage(group));
    return companies;
  }

  #company(
    item: unknown,
    defaultKeys: string[],
    defaultWebhooks: { list: DesiredWebhook[]; listed: boolean },
    defaultShield: number | undefined,
  ): DesiredCompany | undefined {
    const line = this.#line(item);
    if (isScalar(item)) {
      const name = this.#name(item);
      return name === undefined
        ? undefined
        : {
            name,
            line,
            keys: [...defaultKeys],
            webhooks: [...defaultWebhooks.list],
            managesWebhooks: defaultWebhooks.listed,
            guests: [],
            bounceShield: defaultShield,
          };
    }
    const map = this.#map(item, 'a company (a name, or {name, keys, webhooks, guests})');
    if (!map) return undefined;
    const fields = this.#fields(map, ['name', 'keys', 'webhooks', 'guests', 'bounce_shield'], 'in a company');
    const nameNode = fields.get('name');
    if (nameNode === undefined) {
      this.#problem(map, 'a company needs a "name"');
      return undefined;
    }
    const name = this.#name(nameNode);
    const keys = unique([...defaultKeys, ...this.#labels(fields.get('keys'))], (k) => k);
    const webhooks = unique(
      [...defaultWebhooks.list, ...this.#webhooks(fields.get('webhooks'))],
      (w) => `${w.event} ${w.url}`,
    );
    const managesWebhooks = defaultWebhooks.listed || listed(fields.get('webhooks'));
    const guests = this.#guests(fields.get('guests'));
    const bounceShield = this.#threshold(fields.get('bounce_shield')) ?? defaultShield;
    return name === undefined
      ? undefined
      : { name, line, keys, webhooks, managesWebhooks, guests, bounceShield };
  }

  /** `guests: [{email, name?, permissions?: [mailboxes] | []}]`, each address once per company. */
  #guests(node: unknown): WantedGuest[] {
    const guests: WantedGuest[] = [];
    const names = ['email', 'name', 'permissions'];
    for (const { map, fields } of this.#records(
      node,
      'guests',
      'a guest',
      '{email, name, permissions}',
      names,
    )) {
      const emailNode = fields.get('email');
      if (emailNode === undefined) {
        this.#problem(map, 'a guest needs an "email"');
        continue;
      }
      const where = inputLine(this.source, this.#line(emailNode));
      const text = this.#string(emailNode, 'an e-mail address');
      let email: string | undefined;
      try {
        if (text !== undefined) email = checkGuestEmail(text, where, this.#notes);
      } catch (error) {
        this.#problems.push(textOf(error));
      }
      const nameNode = fields.get('name');
      const name =
        nameNode === undefined || isNull(nameNode) ? undefined : this.#string(nameNode, 'a name')?.trim();
      const permissions = this.#permissions(fields.get('permissions'));
      if (email === undefined || permissions === undefined) continue;
      const first = guests.find((g) => g.email === email);
      if (first) this.#problem(emailNode, `${email} is given twice in this company (also ${first.where})`);
      else guests.push({ email, ...(name ? { name } : {}), permissions, where });
    }
    return guests;
  }

  /** `[mailboxes]` or `[]`, or one word as the CSV takes it (`mailboxes`: a one-item list; `none`). */
  #permissions(node: unknown): GuestPermission[] | undefined {
    if (node === undefined || isNull(node)) return [];
    const word = (item: unknown) =>
      isScalar(item) && typeof item.value === 'string' ? permissionsOfWord(item.value) : undefined;
    if (isSeq(node) && node.items.every((i) => word(i)?.length === 1)) {
      return node.items.length > 0 ? ['mailboxes'] : [];
    }
    const one = word(node);
    if (one) return one;
    const what = isSeq(node) ? 'a list holding something else' : describe(node);
    this.#problem(
      node,
      `"permissions" must be [mailboxes] or [] (or one word: mailboxes, none), not ${what}`,
    );
    return undefined;
  }

  #name(node: unknown): string | undefined {
    return this.#text(node, 'company name', MAX_NAME_LENGTH);
  }

  #labels(node: unknown): string[] {
    const labels: string[] = [];
    for (const item of this.#items(node, 'keys', 'key labels')) {
      const label = this.#text(item, 'key label', MAX_LABEL_LENGTH);
      if (label !== undefined) labels.push(label);
    }
    return unique(labels, (l) => l);
  }

  /** A company name or a key label: trimmed, not empty, no control characters, at most `max` long. */
  #text(node: unknown, what: 'company name' | 'key label', max: number): string | undefined {
    const text = this.#string(node, `a ${what}`)?.trim();
    if (text === undefined) return undefined;
    if (text === '') this.#problem(node, `empty ${what}`);
    else if (hasControlCharacters(text))
      this.#problem(node, `the ${what} ${quoted(text)} contains control characters`);
    else if (text.length > max) this.#problem(node, `the ${what} is longer than ${max} characters`);
    else return text;
    return undefined;
  }

  /**
   * The mappings of an optional list field (`guests`: `a guest`, `{email, name, permissions}`), each
   * with its fields (only `names` allowed); an item that is no mapping is a problem.
   */
  *#records(node: unknown, field: string, what: string, shape: string, names: readonly string[]) {
    for (const item of this.#items(node, field, shape)) {
      const map = this.#map(item, `${what} (${shape})`);
      if (map) yield { map, fields: this.#fields(map, names, `in ${what}`) };
    }
  }

  /** The items of an optional list (absent or null: none); anything else is a problem, and none. */
  #items(node: unknown, field: string, of: string): unknown[] {
    if (node === undefined || isNull(node)) return [];
    if (isSeq(node)) return node.items;
    this.#problem(node, `"${field}" must be a list of ${of}, not ${describe(node)}`);
    return [];
  }

  #webhooks(node: unknown): DesiredWebhook[] {
    const result: DesiredWebhook[] = [];
    const names = ['event', 'url', 'allow_unknown_event'];
    for (const { map, fields } of this.#records(node, 'webhooks', 'a webhook', '{event, url}', names)) {
      const eventNode = fields.get('event');
      const urlNode = fields.get('url');
      // The file's own escape for one webhook's event that looks like a typo of a known one.
      const allowNode = fields.get('allow_unknown_event');
      const allowed = allowNode !== undefined && isScalar(allowNode) && allowNode.value === true;
      if (allowNode !== undefined && !(isScalar(allowNode) && typeof allowNode.value === 'boolean')) {
        this.#problem(allowNode, `"allow_unknown_event" must be true or false, not ${describe(allowNode)}`);
      }
      if (eventNode === undefined || urlNode === undefined) {
        this.#problem(
          map,
          `a webhook needs ${eventNode === undefined ? '"event"' : ''}${eventNode === undefined && urlNode === undefined ? ' and ' : ''}${urlNode === undefined ? '"url"' : ''}`,
        );
        continue;
      }
      const eventText = this.#string(eventNode, 'an event name');
      const urlText = this.#string(urlNode, 'a URL');
      const where = (n: unknown) => inputLine(this.source, this.#line(n));
      let event: string | undefined;
      let url: string | undefined;
      try {
        if (eventText !== undefined) {
          const checked = checkEvent(eventText, where(eventNode), this.allowUnknownEvents || allowed);
          event = checked.event;
          if (checked.warning) this.#warnings.set(event, checked.warning);
        }
      } catch (error) {
        if (error instanceof EventTypoError) this.#typo = true;
        this.#problems.push(textOf(error));
      }
      try {
        if (urlText !== undefined) url = checkWebhookUrl(urlText, where(urlNode));
      } catch (error) {
        this.#problems.push(textOf(error));
      }
      if (event !== undefined && url !== undefined) result.push({ event, url });
    }
    return unique(result, (w) => `${w.event} ${w.url}`);
  }

  /** The map's values by key; an unknown or non-text key is a problem naming its line. */
  #fields(map: YAMLMap, allowed: readonly string[], where: string): Map<string, unknown> {
    const fields = new Map<string, unknown>();
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key !== 'string' || !allowed.includes(key)) {
        this.#problem(
          pair.key,
          `unknown field ${JSON.stringify(isScalar(pair.key) ? pair.key.value : '?')} ${where} (expected ${allowed.map((a) => `"${a}"`).join(', ')})`,
        );
        continue;
      }
      // `key:` with nothing after it reads as null, placed on the key's line for messages.
      fields.set(key, pair.value ?? nullAt(pair.key));
    }
    return fields;
  }

  #map(node: unknown, what: string): YAMLMap | undefined {
    if (isMap(node)) return node;
    this.#problem(node, `expected ${what} as a mapping, not ${describe(node)}`);
    return undefined;
  }

  #string(node: unknown, what: string): string | undefined {
    if (isScalar(node) && typeof node.value === 'string') return node.value;
    const hint =
      isScalar(node) && node.value !== null && typeof node.value !== 'object' ? ' (put it in quotes)' : '';
    this.#problem(node, `expected ${what} as text, not ${describe(node)}${hint}`);
    return undefined;
  }

  /** `bounce_shield: N`: a whole percent from 1 to 99 (the service's range); absent or null: none. */
  #threshold(node: unknown): number | undefined {
    if (node === undefined || isNull(node)) return undefined;
    const value = isScalar(node) ? node.value : undefined;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 99) return value;
    this.#problem(node, `"bounce_shield" must be a whole percent from 1 to 99, not ${describe(node)}`);
    return undefined;
  }

  #line(node: unknown): number {
    const range = (node as Node | null)?.range;
    return range ? this.#lines.linePos(range[0]).line : 1;
  }

  #problem(node: unknown, message: string): void {
    this.#problems.push(`${inputLine(this.source, this.#line(node))}: ${message}`);
  }
}
