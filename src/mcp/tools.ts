/**
 * The tools of `agency mcp`: which commands are offered, under which name, and what differs from the
 * command line. Each tool runs its command (src/mcp/call.ts); its input schema is made from the
 * command's own arguments and options (src/mcp/schema.ts). A tool whose command this build does not
 * have is left out.
 *
 * What each tool says is data, in ./tools.json, in the order tools/list gives them: its title, what
 * its result holds, and for a write whether it is destructive (pause and stop stop sending; apply's
 * prune unsubscribes what the plan does not list) and idempotent. What a few tools do differently
 * from their command is code, in BEHAVIOUR below.
 */
import { maskKey } from '../config.js';
import WORDS from './tools.json' with { type: 'json' };

export interface ToolSpec extends ToolBehaviour {
  /** The command's words, e.g. ['companies', 'list']; the tool's name joins them with '_'. */
  path: readonly string[];
  title: string;
  /** What the assistant should know beyond the command's one line: what the result holds. */
  result: string;
  /** Writes are offered only with `agency mcp --allow-writes`. */
  write?: { destructive: boolean; idempotent: boolean };
}

/** How a tool differs from running its command with --json. */
interface ToolBehaviour {
  /** Options not offered besides files and --yes (src/mcp/schema.ts): what only the command line needs. */
  omit?: readonly string[];
  /** Property descriptions that differ from the option's help line. */
  describe?: Readonly<Record<string, string>>;
  /**
   * An option that reads a file, offered as text instead (given on the command's stdin with '-');
   * `noun` is how messages name that text ("line 3 of the plan").
   */
  text?: { option: string; property: string; description: string; noun: string };
  /** Its result holds API keys on purpose (the key in use is masked in every other tool's result). */
  handsOutKeys?: boolean;
  /** Exit codes other than 0 whose output is still the answer (health: 7, problems found). */
  answers?: readonly number[];
  /** Changes the JSON the command printed before the assistant sees it. */
  present?: (json: unknown, args: Readonly<Record<string, unknown>>) => unknown;
}

const PLAN_TEXT = {
  option: 'file',
  property: 'yaml',
  noun: 'the plan',
  description:
    'the desired state as YAML (or JSON) text: `defaults` (keys, webhooks) and `companies` (names, ' +
    'each with optional keys, webhooks, guests and bounce_shield)',
};

// Keyed by the commands of tools.json: a misspelt one does not type-check.
const BEHAVIOUR: Readonly<Partial<Record<keyof typeof WORDS, ToolBehaviour>>> = {
  'keys list': {
    describe: { reveal: 'return whole keys instead of masked ones (wpk_…1a2b)' },
    handsOutKeys: true,
    present: (json, args) => (args.reveal === true ? json : maskKeys(json)),
  },
  health: {
    omit: ['fail-on'],
    describe: { new: 'only the problems new since the last recorded run' },
    answers: [7],
  },
  // The billing view needs the totals only: the campaigns would be most of the answer.
  report: { present: (json, args) => (args.by === 'client' ? withoutCampaigns(json) : json) },
  plan: { omit: ['exit-code'], text: PLAN_TEXT },
  'keys create': { handsOutKeys: true },
  apply: { handsOutKeys: true, text: PLAN_TEXT },
};

export const TOOLS: readonly ToolSpec[] = Object.entries(WORDS).map(([command, words]) => ({
  path: command.split(' '),
  ...words,
  ...BEHAVIOUR[command as keyof typeof WORDS],
}));

export function toolName(spec: Pick<ToolSpec, 'path'>): string {
  return spec.path.join('_').replace(/-/g, '_');
}

/** keys list without reveal: every api_key masked as on a terminal. */
function maskKeys(json: unknown): unknown {
  if (!Array.isArray(json)) return json;
  return json.map((item) =>
    item && typeof item === 'object' && typeof item.api_key === 'string'
      ? { ...item, api_key: maskKey(item.api_key) }
      : item,
  );
}

/** A report's clients without their campaigns (`report` with by=client). */
function withoutCampaigns(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || !Array.isArray((json as { clients?: unknown }).clients))
    return json;
  const report = json as { clients: Record<string, unknown>[] };
  return { ...report, clients: report.clients.map(({ campaigns: _, ...client }) => client) };
}
