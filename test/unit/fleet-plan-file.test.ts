import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parsePlanFile } from '../../src/fleet/plan-file.js';
import { inputLine, render } from '../../src/terms.js';

const HOOK = 'https://crm.example.com/hooks/woodpecker';

function problem(text: string): string {
  try {
    parsePlanFile(text, 'agency.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
}

describe('plan file', () => {
  it('reads the contract’s example: defaults merged into every company, file order kept', () => {
    const state = parsePlanFile(
      [
        'defaults:',
        '  keys: [zapier]',
        '  webhooks:',
        `    - { event: prospect_replied, url: ${HOOK} }`,
        'companies:',
        '  - name: Acme Ltd',
        '    keys: [reporting]',
        '  - Blue Harbor Dental',
        '',
      ].join('\n'),
      'agency.yaml',
    );
    expect(state.warnings).toEqual([]);
    expect(state.companies).toEqual([
      {
        name: 'Acme Ltd',
        line: 6,
        keys: ['zapier', 'reporting'],
        webhooks: [{ event: 'prospect_replied', url: HOOK }],
        managesWebhooks: true,
        guests: [],
      },
      {
        name: 'Blue Harbor Dental',
        line: 8,
        keys: ['zapier'],
        webhooks: [{ event: 'prospect_replied', url: HOOK }],
        managesWebhooks: true,
        guests: [],
      },
    ]);
  });

  it('a company manages its webhooks when its entry or the defaults list them, even as an empty list', () => {
    const manages = (text: string) =>
      parsePlanFile(text, 'agency.yaml').companies.map((c) => c.managesWebhooks);
    expect(manages('companies:\n  - A\n  - { name: B, keys: [x] }\n')).toEqual([false, false]);
    expect(manages('companies:\n  - A\n  - { name: B, webhooks: [] }\n')).toEqual([false, true]);
    expect(manages('defaults:\n  webhooks: []\ncompanies:\n  - A\n  - { name: B }\n')).toEqual([true, true]);
  });

  it('reads JSON too, and lower-cases events, dropping repeats of defaults', () => {
    const state = parsePlanFile(
      JSON.stringify({
        defaults: { webhooks: [{ event: 'PROSPECT_REPLIED', url: HOOK }] },
        companies: [
          { name: ' Acme Ltd ', keys: ['a', 'a'], webhooks: [{ event: 'prospect_replied', url: HOOK }] },
        ],
      }),
      'agency.json',
    );
    expect(state.companies).toEqual([
      {
        name: 'Acme Ltd',
        line: 1,
        keys: ['a'],
        webhooks: [{ event: 'prospect_replied', url: HOOK }],
        managesWebhooks: true,
        guests: [],
      },
    ]);
  });

  it('reads guests of a company: address checked and lower-cased, permissions [mailboxes] or [], line named', () => {
    const state = parsePlanFile(
      [
        'companies:',
        '  - name: Acme Ltd',
        '    guests:',
        '      - { email: Ann@Acme.example, name: Ann Lee, permissions: [mailboxes] }',
        '      - { email: bob@acme.example }',
      ].join('\n'),
      'agency.yaml',
    );
    expect(state.companies[0]?.guests).toEqual([
      {
        email: 'ann@acme.example',
        name: 'Ann Lee',
        permissions: ['mailboxes'],
        where: inputLine('agency.yaml', 4),
      },
      { email: 'bob@acme.example', permissions: [], where: inputLine('agency.yaml', 5) },
    ]);
    const bad = () =>
      parsePlanFile(
        [
          'companies:',
          '  - name: Acme Ltd',
          '    guests:',
          '      - { email: not-an-address }',
          '      - { email: c@acme.example, permissions: [prospects] }',
          '      - { email: d@acme.example, role: guest }',
          '      - { email: e@acme.example }',
          '      - { email: E@acme.example }',
        ].join('\n'),
        'agency.yaml',
      );
    expect(bad).toThrow(/4 problems/);
    expect(bad).toThrow(/agency\.yaml line 4\) is not an e-mail address/);
    expect(bad).toThrow(/line 5: "permissions" must be \[mailboxes\] or \[\]/);
    expect(bad).toThrow(/line 6: unknown field "role" in a guest/);
    expect(bad).toThrow(/line 8: e@acme.example is given twice in this company/);
  });

  it('warns about an unknown but well-formed event, once', () => {
    const state = parsePlanFile(
      `defaults:\n  webhooks: [{event: brand_new, url: ${HOOK}}]\ncompanies: [A, B]\n`,
      'agency.yaml',
    );
    expect(state.warnings).toHaveLength(1);
    expect(state.warnings[0]).toContain('brand_new');
  });

  it('an event within two edits of a known one is a problem naming its line and the event meant', () => {
    const text = `companies:\n  - name: A\n    webhooks:\n      - {event: prospect_replyed, url: ${HOOK}}\n`;
    expect(problem(text)).toBe(
      'Invalid plan file: "prospect_replyed" (agency.yaml line 4) is not an event the tool knows: did you mean prospect_replied?',
    );
  });

  it('allow_unknown_event: true beside the event, or allowUnknownEvents for the file, takes it with a warning', () => {
    const one = parsePlanFile(
      `companies:\n  - name: A\n    webhooks:\n      - {event: prospect_replyed, url: ${HOOK}, allow_unknown_event: true}\n`,
      'agency.yaml',
    );
    expect(one.companies[0]?.webhooks).toEqual([{ event: 'prospect_replyed', url: HOOK }]);
    expect(one.warnings.map((warning) => render(warning))).toEqual([
      '"prospect_replyed" (agency.yaml line 4) is not an event the tool knows (did you mean prospect_replied?); used as given.',
    ]);
    const text = `companies:\n  - name: A\n    webhooks:\n      - {event: prospect_replyed, url: ${HOOK}}\n`;
    expect(parsePlanFile(text, 'agency.yaml', { allowUnknownEvents: true }).warnings).toHaveLength(1);
    expect(
      problem(
        `companies:\n  - name: A\n    webhooks:\n      - {event: prospect_replyed, url: ${HOOK}, allow_unknown_event: yes please}\n`,
      ),
    ).toMatch(/line 4: "allow_unknown_event" must be true or false/);
  });

  it('an unknown field names its line', () => {
    expect(problem('companies:\n  - name: A\n    label: x\n')).toMatch(
      /agency\.yaml line 3: unknown field "label"/,
    );
    expect(problem('default:\n  keys: [a]\ncompanies: []\n')).toMatch(/line 1: unknown field "default"/);
    expect(
      problem(
        `companies:\n  - name: A\n    webhooks:\n      - {event: prospect_replied, url: ${HOOK}, secret: x}\n`,
      ),
    ).toMatch(/line 4: unknown field "secret"/);
  });

  it('a wrong type names its line', () => {
    expect(problem('companies: Acme\n')).toMatch(/line 1: "companies" must be a list/);
    expect(problem('companies:\n  - A\n  - 2024\n')).toMatch(
      /line 3: expected a company name as text, not the number 2024 \(put it in quotes\)/,
    );
    expect(problem('companies:\n  - name: A\n    keys: zapier\n')).toMatch(/line 3: "keys" must be a list/);
    expect(problem('companies:\n  - name: A\n    keys: [[x]]\n')).toMatch(
      /line 3: expected a key label as text/,
    );
    expect(problem('companies:\n  - [A]\n')).toMatch(/line 2: expected a company/);
    expect(problem('- A\n- B\n')).toMatch(/line 1: expected the file as a mapping/);
  });

  it('a duplicate company name names both lines, case and spacing variants included', () => {
    expect(problem('companies:\n  - Acme Ltd\n  - Other\n  - name: "acme  LTD"\n')).toMatch(
      /Duplicate company name: "Acme Ltd" \(agency.yaml line 2\), "acme {2}LTD" \(agency.yaml line 4\)/,
    );
  });

  it('a bad URL or a malformed event names its line', () => {
    expect(
      problem(
        'companies:\n  - name: A\n    webhooks:\n      - {event: prospect_replied, url: "ftp://x.example.com"}\n',
      ),
    ).toMatch(/Invalid webhook URL "ftp:\/\/x\.example\.com" \(agency\.yaml line 4\)/);
    expect(
      problem(
        `companies:\n  - name: A\n    webhooks:\n      - event: prospect-replied\n        url: ${HOOK}\n`,
      ),
    ).toMatch(/Invalid event "prospect-replied" \(agency\.yaml line 4\)/);
    expect(problem('companies:\n  - name: A\n    webhooks:\n      - {event: prospect_replied}\n')).toMatch(
      /line 4: a webhook needs "url"/,
    );
  });

  it('YAML syntax errors, duplicate keys, empty files and empty names name their line', () => {
    expect(problem('companies:\n  - A\n companies: [B]\n')).toMatch(/agency\.yaml line \d/);
    expect(problem('companies: [A]\ncompanies: [B]\n')).toMatch(/line 2: Map keys must be unique/);
    expect(problem('')).toMatch(/empty/);
    expect(problem('companies:\n  - ""\n')).toMatch(/line 2: empty company name/);
    expect(problem('defaults: {keys: [a]}\n')).toMatch(/missing "companies:"/);
  });

  it('reports every problem at once', () => {
    const message = problem('companies:\n  - name: A\n    bogus: 1\n  - 42\n');
    expect(message).toMatch(/2 problems/);
    expect(message).toMatch(/line 3/);
    expect(message).toMatch(/line 4/);
  });

  it('an empty companies list is a valid file', () => {
    expect(parsePlanFile('companies: []\n', 'x').companies).toEqual([]);
  });
});
