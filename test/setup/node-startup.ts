/**
 * The run's processes (vitest's workers, every spawned `agency`, the docs' examples) start without this
 * machine's NODE_EXTRA_CA_CERTS: Node parses that file when each process starts (~45 ms of CPU for the
 * system bundle here, more than a fast-path run itself costs), and the tests talk plain HTTP to
 * 127.0.0.1. A test of certificates names its own file (test/e2e/proxy.test.ts).
 */
export default function setup(): () => void {
  const before = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
  return () => {
    if (before !== undefined) process.env.NODE_EXTRA_CA_CERTS = before;
  };
}
