/**
 * Pieces of help that commander does not write for us: the Environment section (with the config
 * file's path on this system), the "(required)" mark of a required option, and `agency help <words>`
 * for a command of any depth.
 */

/** The variables a user can set, as `agency --help` lists them. */
const ENVIRONMENT: readonly [string, string][] = [
  ['AGENCY_API_KEY', "API key; overrides the profile's key (there is deliberately no key flag)"],
  ['AGENCY_PROFILE', 'profile to use, like --profile'],
  ['AGENCY_BASE_URL', 'API base address including /rest, like --base-url'],
  ['AGENCY_CONFIG_DIR', 'directory of the config file'],
  ['AGENCY_TIMEOUT', 'deadline per HTTP request in seconds, like --timeout'],
  ['AGENCY_DEBUG', '1 logs each HTTP request and response, like --debug'],
  ['NO_COLOR', 'never use colour, like --no-color'],
];

/** "Environment:" and one line per variable, then where the config file is on this system. */
export function environmentSection(configFile: string): string {
  const width = Math.max(...ENVIRONMENT.map(([name]) => name.length));
  return [
    'Environment:',
    ...ENVIRONMENT.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`),
    '',
    `Config file: ${configFile}`,
  ].join('\n');
}

/** An option's description with " (required)" when commander will refuse to run without it. */
export function markRequired(description: string, mandatory: boolean): string {
  return mandatory && !/\(required\)/.test(description) ? `${description} (required)`.trim() : description;
}

interface CommandTree {
  name(): string;
  aliases(): string[];
  readonly commands: readonly CommandTree[];
}

/**
 * `agency help companies create` → the arguments that show that help (`companies create --help`);
 * a word that names no command → the unknown path, for "unknown command 'companies nosuch'".
 */
export function helpArguments(
  program: CommandTree,
  words: readonly string[],
): { argv: string[] } | { unknown: string; word: string; candidates: string[] } {
  let at = program;
  const path: string[] = [];
  for (const word of words) {
    const next = at.commands.find((c) => c.name() === word || c.aliases().includes(word));
    path.push(word);
    if (!next) {
      const candidates = at.commands.map((c) => c.name()).filter((name) => name !== 'help');
      return { unknown: path.join(' '), word, candidates };
    }
    at = next;
  }
  return { argv: [...path, '--help'] };
}
