/**
 * References in messages and results (src/terms.ts), said by each host: the command line's terms, and a
 * tool's (src/mcp/terms.ts) — its arguments, the tools with their arguments, what only the user can do.
 */
import { describe, expect, it } from 'vitest';
import type { Param } from '../../src/mcp/schema.js';
import { type ServedTool, toolCall, toolTerms } from '../../src/mcp/terms.js';
import { commanderText } from '../../src/program.js';
import { argument, command, inputLine, option, render, renderValue, run, variable } from '../../src/terms.js';

const param = (property: string, more: Partial<Param> = {}): Param => ({
  property,
  description: '',
  type: 'string',
  many: false,
  required: false,
  flag: `--${property.replace(/_/g, '-')}`,
  ...more,
});

const RESUME: ServedTool = {
  spec: { path: ['campaigns', 'resume'], title: '', result: '' },
  params: [
    param('yes', { type: 'boolean', fixed: true }),
    param('company', { many: true }),
    param('campaign', { many: true }),
    param('dry_run', { type: 'boolean' }),
  ],
};
const KEYS_LIST: ServedTool = {
  spec: { path: ['keys', 'list'], title: '', result: '' },
  params: [
    param('company', { flag: undefined, required: true }),
    param('reveal', { type: 'boolean' }),
    param('limit', { type: 'integer' }),
  ],
};
const WEBHOOKS_LIST: ServedTool = {
  spec: { path: ['webhooks', 'list'], title: '', result: '' },
  params: [param('company', { many: true })],
};
const PLAN: ServedTool = {
  spec: {
    path: ['plan'],
    title: '',
    result: '',
    text: { option: 'file', property: 'yaml', description: '', noun: 'the plan' },
  },
  params: [param('yaml', { flag: '--file', stdin: true }), param('skip_existing', { type: 'boolean' })],
};
const SERVED = [RESUME, KEYS_LIST, WEBHOOKS_LIST, PLAN];
const GLOBALS = new Set(['debug', 'timeout', 'base-url', 'profile', 'json']);
const planTerms = toolTerms({ spec: PLAN.spec, params: PLAN.params, served: SERVED, globals: GLOBALS });

describe('the command line says', () => {
  it('options, commands, what to run, lines, arguments and variables as typed', () => {
    const text =
      `Use ${option('skip-existing')}; see ${command('companies list')}; ${run('login')} again, or set ` +
      `${variable('AGENCY_API_KEY')} (${inputLine('stdin', 3)}, ${argument(2)}).`;
    expect(render(text)).toBe(
      'Use --skip-existing; see agency companies list; run `agency login` again, or set AGENCY_API_KEY (stdin line 3, argument 2).',
    );
    expect(render(`${option('profile', '-p')} work`)).toBe('-p work');
  });

  it('capitalises what to run where it starts a sentence, and nothing that is a name', () => {
    expect(render(`${run('login')} first. ${run('sandbox')} too.`)).toBe(
      'Run `agency login` first. Run `agency sandbox` too.',
    );
    expect(render(`${option('columns')} needs a name.`)).toBe('--columns needs a name.');
  });

  it('renders every string of a value, and keeps a value without references as it is', () => {
    const plain = { a: ['x', { b: 'y' }], n: 1 };
    expect(renderValue(plain)).toBe(plain);
    expect(
      renderValue({
        detail: `once fixed: ${command('campaigns resume --campaign 7')}`,
        n: 1,
        list: [option('all')],
      }),
    ).toEqual({
      detail: 'once fixed: agency campaigns resume --campaign 7',
      n: 1,
      list: ['--all'],
    });
  });
});

describe('a tool says', () => {
  it('an option by its argument, a program option as the server’s setting, an unknown one in snake_case', () => {
    expect(render(`Use ${option('skip-existing')}.`, planTerms)).toBe('Use skip_existing.');
    expect(render(`Line ${inputLine('stdin', 3)}`, planTerms)).toBe('Line line 3 of the plan');
    expect(render(`run with ${option('debug')}`, planTerms)).toBe(
      "run with the server's debug setting (the user starts it)",
    );
    expect(render(`${option('base-url')} points at x`, planTerms)).toBe(
      "The server's base_url setting (the user starts it) points at x",
    );
    expect(render(option('allow-similar'), planTerms)).toBe('allow_similar');
    expect(render(`check ${variable('AGENCY_API_KEY')}`, planTerms)).toBe(
      "check AGENCY_API_KEY in the server's environment (the MCP client's configuration)",
    );
  });

  it('a command by the tool that runs it, with its arguments as JSON', () => {
    expect(toolCall('campaigns resume --company 1004 --campaign 100401', SERVED)).toBe(
      'campaigns_resume {"company":["1004"],"campaign":["100401"]}',
    );
    expect(toolCall('keys list 7 --reveal --limit 5', SERVED)).toBe(
      'keys_list {"company":"7","reveal":true,"limit":5}',
    );
    // A noun alone is its list; words fixed by the tool (--yes) are left out; quotes hold a value together.
    expect(toolCall('webhooks --company 5', SERVED)).toBe('webhooks_list {"company":["5"]}');
    expect(toolCall('campaigns resume --yes --company "Acme Ltd"', SERVED)).toBe(
      'campaigns_resume {"company":["Acme Ltd"]}',
    );
    expect(toolCall('webhooks list', SERVED)).toBe('webhooks_list');
    // No tool for it (or none this server offers): undefined, and the host says it is the user's to run.
    expect(toolCall('login --profile x', SERVED)).toBeUndefined();
    expect(toolCall('campaigns pause --company 5', SERVED)).toBeUndefined();
  });

  it('what to run: call the tool, or ask the user to run the command', () => {
    expect(render(`${run('keys list 7')}.`, planTerms)).toBe('Call keys_list {"company":"7"}.');
    expect(render(`The key was refused: ${run('login')} again.`, planTerms)).toBe(
      'The key was refused: ask the user to run `agency login` again.',
    );
    expect(render(`see ${command('profiles list')}`, planTerms)).toBe(
      'see ask the user to run `agency profiles list`',
    );
  });
});

describe("commander's own errors", () => {
  it('name the option as a reference: the command line keeps its words, a tool says the argument', () => {
    const text = commanderText(
      "option '-s, --severity <level>' argument 'x' is invalid. Allowed choices are a, b.",
    );
    expect(render(text)).toBe(
      "option '-s, --severity <level>' argument 'x' is invalid. Allowed choices are a, b.",
    );
    const terms = toolTerms({
      spec: PLAN.spec,
      params: [...PLAN.params, param('severity')],
      served: SERVED,
      globals: GLOBALS,
    });
    expect(render(text, terms)).toBe('argument "severity" value \'x\' is invalid. Allowed choices are a, b.');
    expect(
      render(commanderText("option '--skip-existing' cannot be used with option '--file <path>'"), terms),
    ).toBe('argument "skip_existing" cannot be used with argument "yaml"');
  });
});
