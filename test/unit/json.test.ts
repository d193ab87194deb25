/** Reading answers losslessly (src/api/json.ts): unsafe integers kept exact, depth refused, the rest as JSON.parse. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactInteger, MAX_DEPTH, parseJson, stringifyExact, TooDeepError } from '../../src/api/json.js';

describe('parseJson', () => {
  it('keeps every integer beyond 2^53 exact, wherever its digits fall in the text', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }),
        fc.boolean(),
        fc.string({ maxLength: 40 }),
        (big, negative, padding) => {
          const digits = `${negative ? '-' : ''}${big}`;
          const text = `{"pad":${JSON.stringify(padding)},"list":[1,${digits},"${digits}"],"id":${digits}}`;
          const data = parseJson(text) as { id: unknown; list: unknown[] };
          expect(data.id).toBeInstanceOf(ExactInteger);
          expect(String(data.id)).toBe(digits);
          expect(data.list[2]).toBe(digits); // a string stays a string
          expect(stringifyExact(data)).toBe(text);
        },
      ),
    );
  });

  it('leaves safe numbers, decimals and digits inside strings as JSON.parse reads them', () => {
    const text =
      '{"a":9007199254740991,"b":1234567890123456.5,"c":"12345678901234567890","d":"\\"99999999999999999\\"","e":1e300}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it(`refuses JSON nested deeper than ${MAX_DEPTH}, accepts it at that depth`, () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(() => parseJson(nested(MAX_DEPTH + 1))).toThrow(TooDeepError);
    expect(() => parseJson(nested(MAX_DEPTH))).not.toThrow();
    // Many objects side by side are not deep.
    expect(() => parseJson(JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ i }))))).not.toThrow();
  });
});
