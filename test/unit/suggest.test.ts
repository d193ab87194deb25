/** Suggestions for a mistyped command only when it is a near miss. */
import { describe, expect, it } from 'vitest';
import { editDistance, isNearMiss, keepCloseSuggestion } from '../../src/output/suggest.js';

describe('near misses', () => {
  it('counts edits, a swap of neighbours as one', () => {
    expect(editDistance('compnies', 'companies')).toBe(1);
    expect(editDistance('lsit', 'list')).toBe(1);
    expect(editDistance('bogus', 'logout')).toBe(3);
  });

  it.each([
    ['compnies', 'companies'],
    ['lst', 'list'],
    ['key', 'keys'],
    ['--inactiv', '--inactive'],
    ['mailbox', 'mailboxes'],
    ['inventroy', 'inventory'],
  ])('%s → %s is suggested', (typed, candidate) => {
    expect(isNearMiss(typed, candidate)).toBe(true);
  });

  it.each([
    ['bogus', 'logout'],
    ['xyz', 'api'],
    ['me', 'mx'],
    ['delete', 'inventory'],
  ])('%s → %s is not', (typed, candidate) => {
    expect(isNearMiss(typed, candidate)).toBe(false);
  });
});

describe("commander's message", () => {
  it('drops a far suggestion and keeps the rest of the text', () => {
    expect(keepCloseSuggestion("error: unknown command 'bogus'\n(Did you mean logout?)\n")).toBe(
      "error: unknown command 'bogus'\n",
    );
  });

  it('keeps a close one', () => {
    const text = "error: unknown command 'compnies'\n(Did you mean companies?)\n";
    expect(keepCloseSuggestion(text)).toBe(text);
    const option = "error: unknown option '--inactiv'\n(Did you mean --inactive?)\n";
    expect(keepCloseSuggestion(option)).toBe(option);
  });

  it('keeps only the close ones of several', () => {
    expect(keepCloseSuggestion("error: unknown command 'kes'\n(Did you mean one of keys, me?)\n")).toBe(
      "error: unknown command 'kes'\n(Did you mean keys?)\n",
    );
  });

  it('leaves other errors alone', () => {
    const text = "error: required option '--label <label>' not specified\n";
    expect(keepCloseSuggestion(text)).toBe(text);
  });
});
