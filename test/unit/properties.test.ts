/**
 * Property-based tests of the parsers that stand between user input and the service (ids, names,
 * name files, the config file) and of the filter that makes server text safe for a terminal.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { maskKey, readConfig } from '../../src/config.js';
import { ConfigError, UsageError } from '../../src/errors.js';
import {
  MAX_NAME_LENGTH,
  nameKey,
  normalizeName,
  parseCompanyId,
  parseNameLines,
  parsePositiveInt,
  validateNames,
} from '../../src/input/parse.js';
import { cellText, terminalSafe } from '../../src/output/text.js';
import { inputLine } from '../../src/terms.js';

/** Characters that must never reach a terminal from server text (tab and newline are allowed). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is tested
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Strings rich in the characters that matter here: controls, escapes, digits, spaces, signs. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '\u001b',
      '\u0007',
      '\u009b',
      '\u0000',
      '\r',
      '\n',
      '\t',
      '\u007f',
      '\u202e',
      '\u2066',
      '\u00a0',
    ),
    fc.constantFrom('\u200b', '\u200f', '\u2028', '\ufeff', '\u3000'),
    fc.constantFrom('[', ']', ';', 'm', '0', '1', '9', '-', '+', '.', 'e', 'x', ' ', '#', 'é', '中'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});

/**
 * Any code point but a surrogate half, drawn as fast-check's 'binary' unit draws it (an index, biased the
 * same way), minus what that unit costs: to slip its "dangerous strings" (__proto__, toString: ASCII
 * words, nothing a terminal filter cares about) into strings, fast-check maps all 1.1 million code
 * points back to their index first, a second of CPU per test run.
 */
const anyCodePoint = fc
  .nat({ max: 0x10ffff - 0x800 })
  .map((i) => String.fromCodePoint(i < 0xd800 ? i : i + 0x800));

function throwsUsage(fn: () => unknown): boolean {
  try {
    fn();
    return false;
  } catch (error) {
    if (error instanceof UsageError) return true;
    throw error;
  }
}

describe('company ids', () => {
  it('accepts every positive safe integer, with or without surrounding spaces or leading zeros', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom('', ' ', '  ', '\t'),
        fc.constantFrom('', '0', '00'),
        (n, pad, zeros) => {
          expect(parseCompanyId(`${pad}${zeros}${n}${pad}`)).toBe(n);
        },
      ),
    );
  });

  it('keeps an id beyond 2^53 exactly, digit for digit (a double would be a neighbour)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: BigInt(Number.MAX_SAFE_INTEGER) + 1n, max: 10n ** 30n }), (n) => {
        expect(String(parseCompanyId(` 0${n} `))).toBe(String(n));
      }),
    );
  });

  it('rejects zero, negatives and fractions with a usage error', () => {
    const bad = fc.oneof(
      fc.integer({ max: 0 }).map(String),
      fc
        .double({ noNaN: true })
        .filter((d) => !Number.isInteger(d))
        .map(String),
      fc.constantFrom('0', '000', '-0', '+1', '1e3', '0x10', '1_000', '1,000', '١٢', ''),
    );
    fc.assert(
      fc.property(bad, (text) => {
        expect(throwsUsage(() => parseCompanyId(text))).toBe(true);
      }),
    );
  });

  it('accepts exactly the strings of digits (not all zeros) and says why in one line otherwise', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const digits = /^\s*\d+\s*$/.test(text) && !/^\s*0+\s*$/.test(text);
        let id: number | undefined;
        try {
          id = parseCompanyId(text);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is tested
          expect((error as Error).message).not.toMatch(/[\u0000-\u001f]/);
        }
        if (digits && Number.isSafeInteger(Number(text.trim()))) expect(id).toBe(Number(text.trim()));
        else if (digits) expect(String(id)).toBe(text.trim().replace(/^0+/, ''));
        else expect(id).toBeUndefined();
      }),
    );
  });

  it('--page and --limit follow the same rule', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const valid = /^\s*\d+\s*$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text));
        if (valid) expect(parsePositiveInt(text, '--page')).toBe(Number(text));
        else expect(throwsUsage(() => parsePositiveInt(text, '--page'))).toBe(true);
      }),
    );
  });
});

describe('company names', () => {
  it('a name is accepted only trimmed, non-empty, short enough and free of control characters', () => {
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string({ maxLength: 300 })), (raw) => {
        let name: string;
        try {
          name = normalizeName(raw, '--name #1');
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          return;
        }
        expect(name).toBe(raw.trim());
        expect(name).not.toBe('');
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is tested
        expect(name).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069]/);
        expect(name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
        // Normalising twice changes nothing.
        expect(normalizeName(name, 'again')).toBe(name);
      }),
    );
  });

  it('empty and whitespace-only names are always refused', () => {
    const blank = fc.string({ unit: fc.constantFrom(' ', '\t', '\u00a0', '\u3000', '\n'), maxLength: 10 });
    fc.assert(
      fc.property(blank, (raw) => {
        expect(throwsUsage(() => normalizeName(raw, 'x'))).toBe(true);
      }),
    );
  });

  it('names that differ only in case or inner spacing are duplicates; distinct names pass in order', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9&.' -]{0,30}[A-Za-z0-9]$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { selector: nameKey, minLength: 1, maxLength: 12 }),
        fc.nat(),
        (names, pick) => {
          const entries = names.map((name, i) => ({ name, where: `--name #${i + 1}` }));
          expect(validateNames(entries)).toEqual(names.map((n) => n.trim()));
          const twin = names[pick % names.length] as string;
          const variant = twin.toUpperCase() === twin ? twin.toLowerCase() : twin.toUpperCase();
          const spaced = ` ${variant.replace(/ /g, '  ')} `;
          let message = '';
          try {
            validateNames([...entries, { name: spaced, where: inputLine('stdin', 99) }]);
          } catch (error) {
            expect(error).toBeInstanceOf(UsageError);
            message = (error as Error).message;
          }
          expect(message).toMatch(/Duplicate company name/);
          expect(message).toContain('stdin line 99');
        },
      ),
    );
  });
});

describe('name files', () => {
  const line = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '\t', '#', '-', 'é', '1'), maxLength: 12 });
  it('yields the trimmed non-blank, non-comment lines with their line numbers, whatever the line endings', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 25 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        (lines, eol, bom) => {
          const text = (bom ? '\uFEFF' : '') + lines.join(eol);
          const expected = lines
            .map((l, i) => ({ name: l.trim(), where: inputLine('names.txt', i + 1) }))
            .filter((e) => e.name !== '' && !e.name.startsWith('#'));
          expect(parseNameLines(text, 'names.txt')).toEqual(expected);
        },
      ),
    );
  });

  it('a file written one name per line reads back as the same names', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 &.'-]{0,40}$/).map((s) => s.trim());
    fc.assert(
      fc.property(
        fc.array(
          name.filter((n) => n !== ''),
          { maxLength: 30 },
        ),
        (names) => {
          const text = `# clients\n\n${names.map((n) => `  ${n}\t`).join('\n')}\n`;
          expect(parseNameLines(text, 'f').map((e) => e.name)).toEqual(names);
        },
      ),
    );
  });
});

describe('the config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agency-prop-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const jsonish = fc.oneof(
    fc.json(),
    fc.string(),
    fc
      .record({
        current: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
        profiles: fc.oneof(
          fc.dictionary(
            fc.string({ maxLength: 8 }),
            fc.oneof(
              fc.record(
                { api_key: fc.oneof(fc.string(), fc.integer()), base_url: fc.string() },
                { requiredKeys: [] },
              ),
              fc.jsonValue(),
            ),
          ),
          fc.jsonValue(),
        ),
      })
      .map((v) => JSON.stringify(v)),
  );

  it('reads into a well-typed config or refuses with a ConfigError naming the file, and never changes it', () => {
    const file = join(dir, 'config.json');
    fc.assert(
      fc.property(jsonish, (text) => {
        writeFileSync(file, text);
        try {
          const config = readConfig(dir);
          expect(typeof config.current).toBe('string');
          for (const profile of Object.values(config.profiles)) {
            expect(['string', 'undefined']).toContain(typeof profile.api_key);
            expect(['string', 'undefined']).toContain(typeof profile.base_url);
          }
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          expect((error as Error).message).toContain(file);
        }
        expect(readFileSync(file, 'utf8')).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});

describe('masked keys', () => {
  it('never show more than the first 4 and last 4 characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 80 }), (key) => {
        const masked = maskKey(key);
        if (key.length <= 12) expect(masked).toBe('****');
        else expect(masked).toBe(`${key.slice(0, 4)}…${key.slice(-4)}`);
        if (key.length > 8) expect(masked).not.toContain(key);
      }),
    );
  });
});

describe('terminal-safe text', () => {
  it('leaves no control character, escape or bidi override, and is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string({ unit: anyCodePoint })), (text) => {
        const safe = terminalSafe(text);
        expect(safe).not.toMatch(UNSAFE);
        expect(terminalSafe(safe)).toBe(safe);
        const cell = cellText(text);
        expect(cell).not.toMatch(/[\t\r\n]/);
        expect(cell).not.toMatch(UNSAFE);
      }),
    );
  });

  it('keeps ordinary text as it is', () => {
    const plain = fc.string({ unit: 'grapheme' }).filter((s) => !UNSAFE.test(s) && !s.includes('\u001b'));
    fc.assert(
      fc.property(plain, (text) => {
        expect(terminalSafe(text)).toBe(text);
      }),
    );
  });

  it('removes whole escape sequences and nothing of the text around them', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'Z', ' ', '1', '[', ']', ';', 'é', '中', '\t'),
      maxLength: 8,
    });
    const sequence = fc.oneof(
      fc
        .tuple(fc.stringMatching(/^[0-9;?]{0,6}$/), fc.constantFrom('m', 'H', 'J', 'K', 'A'))
        .map(([p, f]) => `\u001b[${p}${f}`),
      fc.stringMatching(/^[0-9a-z;: ]{0,12}$/).map((t) => `\u001b]0;${t}\u0007`),
      fc.stringMatching(/^[0-9a-z;: ]{0,12}$/).map((t) => `\u001b]8;;${t}\u001b\\`),
      fc.constantFrom('\u001bc', '\u001b7', '\u001b8', '\u001b(0', '\u001b#8', '\u009b'),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(text, sequence), { maxLength: 6 }), text, (parts, tail) => {
        const dirty = parts.map(([t, s]) => t + s).join('') + tail;
        const clean = parts.map(([t]) => t).join('') + tail;
        expect(terminalSafe(dirty)).toBe(clean);
      }),
    );
  });
});
