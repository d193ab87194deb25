/**
 * Bad input, table-driven: arguments, environment, stdin, the config file and the server's answers.
 * Every row runs the program (in-process) against its own sandbox and config directory and checks the exit
 * code, the message, that stdout stays empty and shows no stack trace, that the config directory is
 * byte-for-byte unchanged and, when the input could be rejected locally, that no request was sent.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOREIGN_AGENCY_ID, MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type Harness, jsonError, startHarness } from '../helpers/cli.js';

/** Values that depend on the seeded world, substituted into a row's arguments and environment. */
interface World {
  tmp: string;
  base: string;
  active: string;
  inactive: string;
  foreign: string;
  existing: string;
  /** The existing name in upper case: a case variant, never a match. */
  existingUpper: string;
  tomKey: string;
  tomsHidden: string;
}

interface Row {
  args: string[];
  env?: Record<string, string | undefined>;
  input?: string;
  /** Replaces config.json: its text, 'directory' (unreadable as a file) or 'none' (no file at all). */
  config?: string | 'directory' | 'none';
  /** Files created in {tmp} before the run. */
  files?: Record<string, string>;
  code: number;
  message: RegExp;
  /** Rejected before any request (the default); 'get-only': only reads were sent, nothing was created. */
  sends?: 'nothing' | 'get-only' | 'requests';
}

const ELEVEN = Array.from({ length: 10 }, (_, i) => `Eleven Co ${i + 1}`);
const names = (list: string[]) => list.flatMap((n) => ['--name', n]);

const rows: Record<string, Row> = {
  // Company ids
  // Company ids: digits only are an id (checked locally); anything else is a name, resolved through one
  // listing of the companies (GET only) and unknown here: exit 4.
  'a non-numeric id (a name no company has)': {
    args: ['keys', 'list', 'abc'],
    code: 4,
    message: /No company named "abc"/,
    sends: 'get-only',
  },
  'a negative id (a name)': {
    args: ['keys', 'list', '-5'],
    code: 4,
    message: /No company named "-5"/,
    sends: 'get-only',
  },
  'a negative id after -- (a name)': {
    args: ['keys', 'list', '--', '-7'],
    code: 4,
    message: /No company named "-7"/,
    sends: 'get-only',
  },
  'an option of one value given twice, differently (not the last one silently)': {
    args: ['health', '--fail-on', 'critical', '--fail-on', 'none'],
    code: 2,
    message: /--fail-on is given twice, as "critical" and "none": give it once\./,
  },
  'a global option given twice, differently, before and after the command': {
    args: ['-p', 'test', 'me', '--profile', 'other'],
    code: 2,
    message: /--profile is given twice, as "test" and "other": give it once\./,
  },
  'id zero': { args: ['keys', 'list', '0'], code: 2, message: /Invalid company id "0"/ },
  'a decimal id (a name)': {
    args: ['keys', 'list', '1.5'],
    code: 4,
    message: /No company named "1\.5"/,
    sends: 'get-only',
  },
  'an exponent id (a name)': {
    args: ['keys', 'list', '1e3'],
    code: 4,
    message: /No company named "1e3"/,
    sends: 'get-only',
  },
  'a hexadecimal id (a name)': {
    args: ['companies', 'email-accounts', '0x3E9'],
    code: 4,
    message: /No company named "0x3E9"/,
    sends: 'get-only',
  },
  'an empty id': { args: ['keys', 'list', ''], code: 2, message: /Invalid company id ""/ },
  'a blank id': { args: ['keys', 'list', '   '], code: 2, message: /Invalid company id/ },
  // Kept exactly as typed (never a neighbour's id): the service's 404 for an id it does not have.
  'an id beyond 2^53': {
    args: ['keys', 'list', '99999999999999999999'],
    code: 4,
    message: /company 99999999999999999999: the service answered 404/,
    sends: 'get-only',
  },
  'digits then letters (a name)': {
    args: ['companies', 'email-accounts', '12abc'],
    code: 4,
    message: /No company named "12abc"/,
    sends: 'get-only',
  },
  '--company not a number (a name)': {
    args: ['me', '--company', 'abc'],
    code: 4,
    message: /No company named "abc"/,
    sends: 'get-only',
  },
  '--company, a case variant of a name': {
    args: ['mailboxes', '--company', '{existingUpper}'],
    code: 4,
    message: /Did you mean "[^"]+" \(id \d+\)\?/,
    sends: 'get-only',
  },
  '--company zero': { args: ['webhooks', '--company', '0'], code: 2, message: /Invalid company id "0"/ },
  'keys create with an unknown name': {
    args: ['keys', 'create', 'abc', '--label', 'x'],
    code: 4,
    message: /No company named "abc"/,
    sends: 'get-only',
  },
  'keys create with one id twice': {
    args: ['keys', 'create', '{active}', '{active}', '--label', 'x'],
    code: 2,
    message: /given twice/,
  },
  'keys create with a bad id in the file': {
    args: ['keys', 'create', '--file', '{tmp}/ids.txt', '--label', 'x'],
    files: { 'ids.txt': '{active}\n0\n' },
    code: 2,
    message: /"0".*line 2/,
  },
  'keys create without --label': { args: ['keys', 'create', '{active}'], code: 2, message: /--label/ },
  'a blank label': {
    args: ['keys', 'create', '{active}', '--label', '   '],
    code: 2,
    message: /label is empty/,
  },
  'a label with an escape sequence': {
    args: ['keys', 'create', '{active}', '--label', 'a\u001b[2Jb'],
    code: 2,
    message: /control characters/,
  },

  // Paging options
  '--page 0': { args: ['companies', 'list', '--page', '0'], code: 2, message: /Invalid --page "0"/ },
  '--page negative': { args: ['companies', 'list', '--page', '-1'], code: 2, message: /Invalid --page "-1"/ },
  '--limit not a number': {
    args: ['companies', 'list', '--limit', 'abc'],
    code: 2,
    message: /Invalid --limit/,
  },
  '--page decimal': {
    args: ['keys', 'list', '{active}', '--page', '1.5'],
    code: 2,
    message: /Invalid --page/,
  },
  '--active with --inactive': {
    args: ['companies', 'list', '--active', '--inactive'],
    code: 2,
    message: /cannot be used with/,
  },

  // Company names
  'no names at all': { args: ['companies', 'create'], code: 2, message: /No company names given/ },
  'an empty name': { args: ['companies', 'create', '--name', ''], code: 2, message: /Empty company name/ },
  'a whitespace name': {
    args: ['companies', 'create', '--name', ' \t '],
    code: 2,
    message: /Empty company name/,
  },
  'a name with an escape sequence': {
    args: ['companies', 'create', '--name', 'Acme\u001b[31m Red'],
    code: 2,
    message: /contains control characters/,
  },
  'a name with a line break': {
    args: ['companies', 'create', '--name', 'Acme\nLtd'],
    code: 2,
    message: /contains control characters/,
  },
  'a name with a bidi override': {
    args: ['companies', 'create', '--name', 'Acme \u202eLtd'],
    code: 2,
    // Shown escaped, as ESC is: printed raw it would reverse the rest of the line.
    message: /The company name "Acme \\u202eLtd" \(--name #1\) contains control characters/,
  },
  'a name with every other bidi control and the invisible ones': {
    args: ['companies', 'create', '--name', 'A\u2066B\u2069C\u200eD\u200fE\u061cF\u200bG\ufeffH'],
    code: 2,
    message: /"A\\u2066B\\u2069C\\u200eD\\u200fE\\u061cF\\u200bG\\ufeffH" \(--name #1\) contains control/,
  },
  'a name with a DEL and a C1 control': {
    args: ['companies', 'create', '--name', 'Ac\u007fme \u009b31m'],
    code: 2,
    message: /control/,
  },
  'two names differing only in case': {
    args: ['companies', 'create', ...names(['Acme Ltd', 'ACME LTD'])],
    code: 2,
    message: /Duplicate company name: "Acme Ltd" \(--name #1\), "ACME LTD" \(--name #2\)/,
  },
  'two names differing only in spacing': {
    args: ['companies', 'create', ...names(['Acme  Ltd', 'acme ltd'])],
    code: 2,
    message: /Duplicate company name/,
  },
  'a name over 255 characters': {
    args: ['companies', 'create', '--name', 'N'.repeat(256)],
    code: 2,
    message: /longer than 255/,
  },
  'an 11th name that repeats the first': {
    args: ['companies', 'create', ...names([...ELEVEN, 'eleven co 1'])],
    code: 2,
    message: /Duplicate company name: "Eleven Co 1" \(--name #1\), "eleven co 1" \(--name #11\)/,
  },
  'an 11th name that is empty': {
    args: ['companies', 'create', ...names([...ELEVEN, ''])],
    code: 2,
    message: /Empty company name \(--name #11\)/,
  },
  'an 11th name that exists already': {
    args: ['companies', 'create', ...names([...ELEVEN, '{existing}'])],
    code: 5,
    message: /already exists?; nothing was created/,
    sends: 'get-only',
  },

  // Name files and stdin
  'a names file that does not exist': {
    args: ['companies', 'create', '--file', '{tmp}/missing.txt'],
    code: 2,
    message: /Cannot read .*missing\.txt: no such file/,
  },
  'a names file that is a directory': {
    args: ['companies', 'create', '--file', '{tmp}'],
    code: 2,
    message: /it is a directory/,
  },
  'a sandbox state file that is a folder': {
    args: ['sandbox', '--state', '{tmp}'],
    code: 2,
    message: /--state \S+ is a folder: give a file name such as \S+sandbox\.json\./,
  },
  'names on stdin: nothing': {
    args: ['companies', 'create', '--file', '-'],
    code: 2,
    message: /No company names/,
  },
  'names on stdin: only comments and blanks': {
    args: ['companies', 'create', '--file', '-'],
    input: '# clients\n\n   \n\t\n',
    code: 2,
    message: /No company names/,
  },
  'names on stdin: a duplicate with line numbers': {
    args: ['companies', 'create', '--file', '-'],
    input: '# new\nBlue Harbor\nRed Mill\n\nblue harbor\n',
    code: 2,
    message: /"Blue Harbor" \(stdin line 2\), "blue harbor" \(stdin line 5\)/,
  },
  'a names file with a NUL byte': {
    args: ['companies', 'create', '--file', '{tmp}/nul.txt'],
    files: { 'nul.txt': 'Good Co\nBad\u0000Co\n' },
    code: 2,
    message: /nul\.txt line 2\) contains control characters/,
  },
  'names from a flag and stdin: every problem reported at once': {
    args: ['companies', 'create', '--name', 'Same', '--file', '-'],
    input: 'same\n\u0007bell\nOk\n',
    code: 2,
    message:
      /2 problems with the names:\n.*"\\u0007bell" \(stdin line 2\).*\n.*"Same" \(--name #1\), "same" \(stdin line 1\)/,
  },
  'api --data that is not JSON': {
    args: ['api', '/v1/me', '--data', '{bad'],
    code: 2,
    message: /not valid JSON/,
  },
  'api --data @ a missing file': {
    args: ['api', '/v1/me', '--data', '@{tmp}/missing.json'],
    code: 2,
    message: /Cannot read/,
  },
  'api --data - with stdin that is not JSON': {
    args: ['api', '/v2/agency/companies', '--data', '-'],
    input: 'name=Acme',
    code: 2,
    message: /from stdin is not valid JSON/,
  },
  'api with an absolute URL (the key must not go elsewhere)': {
    args: ['api', 'http://evil.example/v1/me'],
    code: 2,
    message: /Invalid path/,
  },
  'api with an unknown method': {
    args: ['api', '/v1/me', '-X', 'FOO'],
    code: 2,
    message: /Unsupported method/,
  },
  'api GET with a body': {
    args: ['api', '/v1/me', '-X', 'GET', '--data', '{}'],
    code: 2,
    message: /cannot have a body/,
  },

  // Environment and global options
  'AGENCY_TIMEOUT not a number': {
    args: ['companies', 'list'],
    env: { AGENCY_TIMEOUT: 'abc' },
    code: 2,
    message: /Invalid AGENCY_TIMEOUT "abc": give a number of seconds more than 0 and at most 3600/,
  },
  'AGENCY_MAX_IN_FLIGHT above 7': {
    args: ['companies', 'list'],
    env: { AGENCY_MAX_IN_FLIGHT: '8' },
    code: 2,
    message: /Invalid AGENCY_MAX_IN_FLIGHT "8": expected a whole number from 1 to 7/,
  },
  'AGENCY_MAX_IN_FLIGHT not a whole number': {
    args: ['me'],
    env: { AGENCY_MAX_IN_FLIGHT: '2.5' },
    code: 2,
    message: /Invalid AGENCY_MAX_IN_FLIGHT "2.5"/,
  },
  'AGENCY_MAX_IN_FLIGHT below 1': {
    args: ['companies', 'list'],
    env: { AGENCY_MAX_IN_FLIGHT: '0' },
    code: 2,
    message: /Invalid AGENCY_MAX_IN_FLIGHT "0": expected a whole number from 1 to 7/,
  },
  '--timeout 0': { args: ['--timeout', '0', 'companies', 'list'], code: 2, message: /Invalid --timeout "0"/ },
  '--timeout negative': { args: ['--timeout', '-1', 'me'], code: 2, message: /Invalid --timeout "-1"/ },
  'an unknown profile in AGENCY_PROFILE': {
    args: ['companies', 'list'],
    env: { AGENCY_PROFILE: 'nosuch' },
    code: 2,
    message: /No profile named "nosuch"/,
  },
  'an unknown profile in -p': { args: ['-p', 'nosuch', 'me'], code: 2, message: /No profile named "nosuch"/ },
  'an unknown profile even with AGENCY_API_KEY': {
    args: ['-p', 'nosuch', 'me'],
    env: { AGENCY_API_KEY: 'wpk_hq_valid_looking_0123456789' },
    code: 2,
    message: /No profile named "nosuch"/,
  },
  'a profile name with a slash': { args: ['-p', '../etc', 'me'], code: 2, message: /Invalid profile name/ },
  'a malformed base URL': {
    args: ['companies', 'list'],
    env: { AGENCY_BASE_URL: 'not a url' },
    code: 2,
    message: /Invalid base URL "not a url"/,
  },
  'a base URL that is not http': {
    args: ['--base-url', 'ftp://example.com/rest', 'me'],
    code: 2,
    message: /only http and https/,
  },
  'a base URL with credentials': {
    args: ['--base-url', 'http://user:s3cr3tpw@127.0.0.1/rest', 'me'],
    code: 2,
    message: /must not contain credentials/,
  },
  'a key with a line break in AGENCY_API_KEY': {
    args: ['companies', 'list'],
    env: { AGENCY_API_KEY: 'wpk_hq_abc\ndef_0123456789' },
    code: 2,
    message: /API key contains .* not printable ASCII; nothing was sent/,
  },
  'a profile without a key': {
    args: ['companies', 'list'],
    config: JSON.stringify({ current: 'test', profiles: { test: { base_url: '{base}' } } }),
    code: 3,
    message: /No API key for profile "test"/,
  },
  'no config file and no key': {
    args: ['companies', 'list'],
    config: 'none',
    code: 3,
    message: /No API key for profile "default"/,
  },
  'an empty AGENCY_API_KEY and a profile without a key': {
    args: ['me'],
    env: { AGENCY_API_KEY: '' },
    config: JSON.stringify({ current: 'test', profiles: { test: {} } }),
    code: 3,
    message: /No API key/,
  },

  // login: the key on stdin
  'login with nothing on stdin': {
    args: ['login', '--no-verify', '-p', 'new'],
    code: 2,
    message: /No API key was given/,
  },
  'login with a key containing spaces': {
    args: ['login', '--no-verify', '-p', 'new'],
    input: 'wpk abc def ghi\n',
    code: 2,
    message: /spaces or characters that are not printable ASCII/,
  },
  'login with a key too long to be one': {
    args: ['login', '--no-verify', '-p', 'new'],
    input: `${'k'.repeat(5000)}\n`,
    code: 2,
    message: /does not look like an API key/,
  },
  'login into an invalid profile name': {
    args: ['login', '--no-verify', '-p', 'a/b'],
    input: 'wpk_hq_valid_looking_0123456789\n',
    code: 2,
    message: /Invalid profile name "a\/b"/,
  },

  // The config file
  'a config file that is not JSON': {
    args: ['companies', 'list'],
    config: '{"current": "test", profiles',
    code: 2,
    message: /config file .*config\.json is damaged: not valid JSON/,
  },
  'an empty config file': { args: ['me'], config: '', code: 2, message: /is damaged: not valid JSON/ },
  'a config file holding an array': {
    args: ['me'],
    config: '[]',
    code: 2,
    message: /top level is not an object/,
  },
  'profiles that are not an object': {
    args: ['me'],
    config: '{"profiles": ["test"]}',
    code: 2,
    message: /"profiles" is not an object/,
  },
  'a key that is a number': {
    args: ['me'],
    config: '{"current": "test", "profiles": {"test": {"api_key": 12345}}}',
    code: 2,
    message: /non-string api_key/,
  },
  'an unreadable config file': {
    args: ['companies', 'list'],
    config: 'directory',
    code: 2,
    message: /Cannot read the config file .*config\.json/,
  },
  'login with a damaged config file': {
    args: ['login', '--no-verify', '-p', 'new'],
    input: 'wpk_hq_valid_looking_0123456789\n',
    config: '{oops',
    code: 2,
    message: /damaged.*\n.*left untouched/,
  },
  'profiles use with a damaged config file': {
    args: ['profiles', 'use', 'test'],
    config: '{"current": 1}',
    code: 2,
    message: /"current" is not a string/,
  },
  'logout with a damaged config file': { args: ['logout'], config: 'null', code: 2, message: /damaged/ },
  'profiles use of an unknown profile': {
    args: ['profiles', 'use', 'nosuch'],
    code: 2,
    message: /No profile named "nosuch"/,
  },
  'profiles remove with a path as name': {
    args: ['profiles', 'remove', '../x'],
    code: 2,
    message: /Invalid profile name/,
  },
  'logout of an unknown profile': { args: ['logout', '-p', 'nosuch'], code: 2, message: /No profile named/ },

  // Commands and options
  'an unknown command': { args: ['frobnicate'], code: 2, message: /unknown command 'frobnicate'/ },
  'an unknown option': { args: ['companies', 'list', '--frob'], code: 2, message: /unknown option '--frob'/ },
  'an extra argument': {
    args: ['keys', 'list', '{active}', 'extra'],
    code: 2,
    message: /too many arguments/,
  },
  'an unknown shell': { args: ['completion', 'tcsh'], code: 2, message: /Unknown shell "tcsh"/ },

  // Answers of the server to well-formed input
  'a company of another agency': {
    args: ['keys', 'list', '{foreign}'],
    code: 4,
    message: /answered 404/,
    sends: 'requests',
  },
  'a company that does not exist': {
    args: ['companies', 'email-accounts', '99999999'],
    code: 4,
    message: /answered 404/,
    sends: 'requests',
  },
  'an inactive company as context': {
    args: ['mailboxes', '--company', '{inactive}'],
    code: 5,
    message: /answered 409.*inactive/,
    sends: 'requests',
  },
  'a wrong key': {
    args: ['companies', 'list'],
    env: { AGENCY_API_KEY: 'wpk_hq_not_a_real_key_0123456789' },
    code: 3,
    message: /answered 401/,
    sends: 'requests',
  },
  "a teammate's key on a company he has no access to": {
    args: ['me', '--company', '{tomsHidden}'],
    env: { AGENCY_API_KEY: '{tomKey}' },
    code: 3,
    message: /answered 403/,
    sends: 'requests',
  },
  'a name that exists already (found by the listing: exit 5, nothing sent)': {
    args: ['companies', 'create', '--name', '{existing}'],
    code: 5,
    message: /already exists; nothing was created/,
    sends: 'get-only',
  },
  'a name that only looks like an existing one (case): exit 5, nothing sent': {
    args: ['companies', 'create', '--name', '{existingUpper}'],
    code: 5,
    message: /looks like ".*" \(id \d+\); nothing was created/,
    sends: 'get-only',
  },
};

/**
 * Each row's own sandbox: 14 companies hold every company the rows name (active, inactive, the
 * teammate's and not, the foreign agency's), and a name is looked up in one page of the list, not three.
 */
const SMALL_AGENCY = { seed: { companies: 14 } };

function worldOf(h: Harness, tmp: string): World {
  const store = h.sandbox.store;
  const [owner, tom] = store.users(MAIN_AGENCY_ID);
  const hidden = store.companies(MAIN_AGENCY_ID, { active: true }).find((c) => c.ownerId !== tom?.id);
  return {
    tmp,
    base: h.sandbox.baseUrl,
    active: String(store.companies(MAIN_AGENCY_ID, { active: true })[0]?.id),
    inactive: String(store.companies(MAIN_AGENCY_ID, { active: false })[0]?.id),
    foreign: String(store.companies(FOREIGN_AGENCY_ID)[0]?.id),
    existing: String(store.companies(MAIN_AGENCY_ID, { ownerId: owner?.id })[3]?.name),
    existingUpper: String(store.companies(MAIN_AGENCY_ID, { ownerId: owner?.id })[3]?.name).toUpperCase(),
    tomKey: String(tom?.hqKey),
    tomsHidden: String(hidden?.id),
  };
}

function fill(text: string, world: World): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in world ? world[key as keyof World] : whole,
  );
}

/** Every file under the config directory with its content: "unchanged" means this is equal. */
function snapshot(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (path: string, rel: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full, `${rel}${name}/`);
      else result[`${rel}${name}`] = readFileSync(full, 'latin1');
    }
  };
  walk(dir, '');
  return result;
}

describe.concurrent('bad input', () => {
  it('has at least 40 cases', () => {
    expect(Object.keys(rows).length).toBeGreaterThanOrEqual(40);
  });

  it.each(Object.entries(rows))('%s', async (_name, row) => {
    const h = await startHarness(SMALL_AGENCY, { inProcess: true });
    const tmp = join(h.configDir, '..', 'files');
    mkdirSync(tmp);
    try {
      const world = worldOf(h, tmp);
      for (const [file, text] of Object.entries(row.files ?? {}))
        writeFileSync(join(tmp, file), fill(text, world));
      const configFile = h.configFile();
      if (row.config === 'none') rmSync(configFile);
      else if (row.config === 'directory') {
        rmSync(configFile);
        mkdirSync(configFile);
      } else if (row.config !== undefined)
        writeFileSync(configFile, fill(row.config, world), { mode: 0o600 });
      const before = snapshot(h.configDir);

      const env = Object.fromEntries(
        Object.entries(row.env ?? {}).map(([k, v]) => [k, v === undefined ? v : fill(v, world)]),
      );
      const r = await h.run(
        row.args.map((a) => fill(a, world)),
        { env, ...(row.input === undefined ? {} : { input: row.input }) },
      );

      expect(r.code, r.stderr).toBe(row.code);
      expect(r.stderr).toMatch(row.message);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stderr).not.toMatch(/unexpected internal error/);
      expect(r.stdout).toBe('');
      expect(snapshot(h.configDir), 'the config directory must not change').toEqual(before);
      const sent = h.requests();
      if ((row.sends ?? 'nothing') === 'nothing') expect(sent, 'nothing may be sent').toEqual([]);
      if (row.sends === 'get-only') {
        expect(sent.length).toBeGreaterThan(0);
        expect(sent.filter((q) => q.method !== 'GET')).toEqual([]);
      }
      expect(h.sandbox.stats().createdCompanies + h.sandbox.stats().createdKeys).toBe(0);
      if (row.args.includes('s3cr3tpw')) expect(r.stderr).not.toContain('s3cr3tpw');
    } finally {
      await h.close();
    }
  });

  it.each([
    ['keys', 'list', '0'],
    ['companies', 'create', '--name', ''],
    ['-p', 'nosuch', 'me'],
  ])('with --json the error is also one JSON object with a null status: %s %s %s', async (...args) => {
    const h = await startHarness(SMALL_AGENCY, { inProcess: true });
    try {
      const r = await h.run(['--json', ...args]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(jsonError(r.stderr).error).toMatchObject({ status: null, message: expect.any(String) });
      expect(h.requests()).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
