/**
 * For a test file that reads the same thing for several of its cases (a `--json` run to compare tables
 * at three widths with, one client's report for nine checks): each key is read once, and every later
 * ask of that key gets the first read's promise. Only for reads that nothing in between changes.
 */
export function readOnce(): <T>(key: string, read: () => Promise<T>) => Promise<T> {
  const reads = new Map<string, Promise<unknown>>();
  return <T>(key: string, read: () => Promise<T>): Promise<T> => {
    const value = reads.get(key) ?? read();
    reads.set(key, value);
    return value as Promise<T>;
  };
}
