// A forwarding proxy for the console examples of docs/network.md (`console proxy=3128`): plain http
// only (the sandbox is http), on a free port shown as the one the block names. It asks for
// credentials when given some (407 otherwise) and appends each request it is asked to a log file in
// the example's working directory, so that a command of the block can show it (`cat proxy-3128.log`).
import { appendFileSync } from 'node:fs';
import { createServer, request } from 'node:http';

/**
 * A proxy's answer to a plain-http request (its absolute URL): 407 when not `allowed`, else the request
 * passed on without the proxy's own headers, and the answer passed back. Shared with the proxy tests
 * (test/helpers/proxy.ts).
 */
export function forward(req, res, allowed) {
  if (!allowed) {
    res.writeHead(407, { 'proxy-authenticate': 'Basic realm="agency"', 'content-length': '0' });
    res.end();
    return;
  }
  const headers = { ...req.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const upstream = request(req.url ?? '', { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

export async function startProxy({ credentials, logFile }) {
  const expected = credentials && `Basic ${Buffer.from(credentials).toString('base64')}`;
  const sockets = new Set();
  const server = createServer((req, res) => {
    const authorization = req.headers['proxy-authorization'];
    appendFileSync(logFile, `${req.method} ${req.url}\n`);
    forward(req, res, !expected || authorization === expected);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
