/** Small readers of the plan file's YAML nodes: what a node is, in words a problem line can use. */
import { isAlias, isMap, isScalar, isSeq, type Node, Scalar } from 'yaml';

export function nullAt(keyNode: unknown): Scalar {
  const empty = new Scalar(null);
  empty.range = (keyNode as Node | null)?.range ?? null;
  return empty;
}

export function isNull(node: unknown): boolean {
  return node === null || (isScalar(node) && node.value === null);
}

export function describe(node: unknown): string {
  if (isAlias(node)) return 'an alias (aliases are not supported)';
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isNull(node)) return 'nothing';
  if (isScalar(node))
    return `${typeof node.value === 'number' ? 'the number' : 'the value'} ${String(node.value)}`;
  return 'something else';
}

export function firstLine(message: string): string {
  return message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? message;
}

export function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A field given as a list, even an empty one (`webhooks: []`): the file manages what it holds. */
export function listed(node: unknown): boolean {
  return isSeq(node);
}
