/**
 * A value of the run (one process is one run): made when first asked for, and anew after a run starts
 * (tests run the program several times in one process). The run's account gates and its reachability
 * tracker are such values.
 */
export function perRun<T>(make: () => T): { get(): T; reset(): void } {
  let value: T | undefined;
  return {
    get: () => {
      value ??= make();
      return value;
    },
    reset: () => {
      value = undefined;
    },
  };
}
