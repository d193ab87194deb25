/**
 * No test reaches the keyring of the person running the suite: every process of the run (vitest's
 * workers, each spawned `agency`, the docs' examples) starts with a D-Bus session address that leads
 * nowhere, so `login` falls back to the config file as on a machine without a keyring. The tests of
 * the keyring give each binary the address of a private Secret Service (test/helpers/secret-service.ts).
 */
export const NO_BUS = 'unix:path=/nonexistent/agency-tests-have-no-session-bus';

export default function setup(): () => void {
  const before = process.env.DBUS_SESSION_BUS_ADDRESS;
  process.env.DBUS_SESSION_BUS_ADDRESS = NO_BUS;
  return () => {
    if (before === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = before;
  };
}
