/** The Environment section, the required mark and `agency help <words>`. */
import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { environmentSection, helpArguments, markRequired } from '../../src/output/help-sections.js';

describe('help sections', () => {
  it("lists the variables and this system's config file", () => {
    const text = environmentSection('/home/olivia/.config/agency/config.json');
    expect(text.split('\n')[0]).toBe('Environment:');
    for (const name of ['AGENCY_API_KEY', 'AGENCY_PROFILE', 'AGENCY_BASE_URL', 'AGENCY_CONFIG_DIR'])
      expect(text).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
    expect(text).toContain('\nConfig file: /home/olivia/.config/agency/config.json');
  });

  it('marks a required option once', () => {
    expect(markRequired('label of the key', true)).toBe('label of the key (required)');
    expect(markRequired('label of the key (required)', true)).toBe('label of the key (required)');
    expect(markRequired('a name', false)).toBe('a name');
  });

  it('finds a command of any depth, or names the unknown path', () => {
    const program = new Command('agency');
    const companies = program.command('companies');
    companies.command('create');
    companies.command('list').alias('ls');
    program.command('me');
    expect(helpArguments(program, ['companies', 'create'])).toEqual({
      argv: ['companies', 'create', '--help'],
    });
    expect(helpArguments(program, ['companies', 'ls'])).toEqual({ argv: ['companies', 'ls', '--help'] });
    expect(helpArguments(program, [])).toEqual({ argv: ['--help'] });
    expect(helpArguments(program, ['nosuch'])).toEqual({
      unknown: 'nosuch',
      word: 'nosuch',
      // The topic of `agency help environment` is offered at the top only.
      candidates: ['companies', 'me', 'environment'],
    });
    expect(helpArguments(program, ['companies', 'nosuch', 'x'])).toMatchObject({
      unknown: 'companies nosuch',
      candidates: ['create', 'list'],
    });
    expect(helpArguments(program, ['me', 'extra'])).toMatchObject({ unknown: 'me extra', candidates: [] });
  });
});
