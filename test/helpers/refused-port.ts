/**
 * A port of 127.0.0.1 where nothing listens, so that a connection to it is refused. Picked below the
 * kernel's range of ephemeral ports (32768-60999 on Linux), from which every server of the suite gets
 * its port (listen on port 0): a port from that range, found free and closed again, could be handed to
 * another test's sandbox before the run that expects a refusal connects to it (seen: `me` answered by
 * another sandbox, exit 0).
 */
import { createServer } from 'node:net';

const LOW = 20_000;
const HIGH = 32_000;

export async function refusedPort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port between ${LOW} and ${HIGH} after 50 tries`);
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
