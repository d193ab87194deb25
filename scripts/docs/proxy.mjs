// A forwarding proxy for the console examples of docs/network.md (`console proxy=3128`): plain http
// only (the sandbox is http), on a free port shown as the one the block names. It asks for
// credentials when given some (407 otherwise) and appends each request it is asked to a log file in
// the example's working directory, so that a command of the block can show it (`cat proxy-3128.log`).
import { appendFileSync } from 'node:fs';
import { createServer, request } from 'node:http';

export async function startProxy({ credentials, logFile }) {
  const expected = credentials && `Basic ${Buffer.from(credentials).toString('base64')}`;
  const sockets = new Set();
  const server = createServer((req, res) => {
    const authorization = req.headers['proxy-authorization'];
    appendFileSync(logFile, `${req.method} ${req.url}\n`);
    if (expected && authorization !== expected) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="docs"', 'content-length': '0' });
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
