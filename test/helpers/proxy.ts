/**
 * A real forward/CONNECT proxy and a TLS front for the sandbox, both on 127.0.0.1, for the proxy tests:
 * the proxy forwards plain http (absolute URI) and tunnels https (CONNECT), asks for credentials when
 * told to (407), and records what it was asked. Certificates come from openssl at test time: a test CA
 * (trusted through NODE_EXTRA_CA_CERTS), a server certificate for 127.0.0.1 signed by it, and the bad
 * ones a TLS test needs (expired, self-signed, for another host).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { forward } from '../../scripts/docs/proxy.mjs';

export const HAVE_OPENSSL = spawnSync('openssl', ['version']).status === 0;

interface ProxyVisit {
  kind: 'connect' | 'forward';
  /** host:port for CONNECT, the absolute URL for a forwarded request. */
  target: string;
  /** The Proxy-Authorization header as received. */
  authorization: string | undefined;
}

export interface TestProxy {
  url: string;
  port: number;
  visits: ProxyVisit[];
  close(): Promise<void>;
}

/**
 * `credentials` ("user:password"): anything else is answered 407, CONNECT or forwarded alike.
 * `refuseConnect`: every CONNECT is answered with this status (a proxy whose policy forbids the host).
 * `denyForward`: every forwarded (plain http) request is answered with this status and text body
 * (text/plain), as a squid ACL answers a destination it denies.
 */
export async function startProxy(
  options: {
    credentials?: string;
    refuseConnect?: number;
    denyForward?: { status: number; body: string };
  } = {},
): Promise<TestProxy> {
  const visits: ProxyVisit[] = [];
  const sockets = new Set<Socket>();
  const expected =
    options.credentials === undefined
      ? undefined
      : `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const allowed = (authorization: string | undefined) => expected === undefined || authorization === expected;
  const server = createServer((req, res) => {
    const authorization = req.headers['proxy-authorization'];
    visits.push({ kind: 'forward', target: req.url ?? '', authorization });
    const deny = options.denyForward;
    if (deny && allowed(authorization)) {
      req.resume();
      res.writeHead(deny.status, { 'content-type': 'text/plain' }).end(deny.body);
      return;
    }
    forward(req, res, allowed(authorization));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, socket: Socket, head: Buffer) => {
    const authorization = req.headers['proxy-authorization'];
    visits.push({ kind: 'connect', target: req.url ?? '', authorization });
    socket.on('error', () => {});
    if (!allowed(authorization)) {
      socket.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n',
      );
      return;
    }
    if (options.refuseConnect !== undefined) {
      socket.end(`HTTP/1.1 ${options.refuseConnect} Refused by policy\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    visits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface TlsFront {
  /** https://127.0.0.1:<port> */
  url: string;
  port: number;
  /** TLS handshakes attempted (a retry would be a second one). */
  connections(): number;
  close(): Promise<void>;
}

/** Terminates TLS with `cert` and passes the bytes on to the plain-http server on `targetPort`. */
export async function startTlsFront(
  targetPort: number,
  cert: { cert: string; key: string },
): Promise<TlsFront> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createTlsServer({ cert: cert.cert, key: cert.key }, (socket) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        socket.destroy();
        upstream.destroy();
      });
    }
    socket.pipe(upstream).pipe(socket);
  });
  server.on('connection', () => {
    connections += 1;
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface Certificates {
  dir: string;
  /** The test CA's certificate: NODE_EXTRA_CA_CERTS points here. */
  caFile: string;
  /** For 127.0.0.1 and localhost, signed by the CA, valid for years. */
  good: { cert: string; key: string };
  /** Signed by the CA, valid only in 2000. */
  expired: { cert: string; key: string };
  /** For 127.0.0.1, signed by itself. */
  selfSigned: { cert: string; key: string };
  /** Signed by the CA, for other.example only. */
  otherHost: { cert: string; key: string };
  remove(): void;
}

/** A CA and server certificates made with openssl (EC keys: fast). */
export function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'agency-tls-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const key = (name: string) =>
    openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file(name));
  key('ca.key');
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    'ca.key',
    '-sha256',
    '-days',
    '36500',
    '-subj',
    '/CN=agency test CA',
    '-out',
    'ca.pem',
  );
  // `openssl ca` takes explicit dates (for the expired certificate) and the subjectAltName extension.
  writeFileSync(file('index.txt'), '');
  writeFileSync(file('serial'), '1000\n');
  writeFileSync(
    file('ca.cnf'),
    [
      '[ca]',
      'default_ca = test',
      '[test]',
      `dir = ${dir}`,
      'database = $dir/index.txt',
      'serial = $dir/serial',
      'new_certs_dir = $dir',
      'certificate = $dir/ca.pem',
      'private_key = $dir/ca.key',
      'default_md = sha256',
      'policy = anything',
      'unique_subject = no',
      'copy_extensions = none',
      '[anything]',
      'commonName = supplied',
      '[local]',
      'subjectAltName = IP:127.0.0.1, DNS:localhost',
      '[other]',
      'subjectAltName = DNS:other.example',
      '',
    ].join('\n'),
  );
  const signed = (name: string, extensions: string, dates: string[]) => {
    key(`${name}.key`);
    openssl('req', '-new', '-key', `${name}.key`, '-subj', `/CN=${name}`, '-out', `${name}.csr`);
    openssl(
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-extensions',
      extensions,
      ...dates,
      '-in',
      `${name}.csr`,
      '-out',
      `${name}.pem`,
    );
    return {
      cert: readFileSync(file(`${name}.pem`), 'utf8'),
      key: readFileSync(file(`${name}.key`), 'utf8'),
    };
  };
  const good = signed('good', 'local', ['-days', '36500']);
  const expired = signed('expired', 'local', [
    '-startdate',
    '20000101000000Z',
    '-enddate',
    '20010101000000Z',
  ]);
  const otherHost = signed('other', 'other', ['-days', '36500']);
  key('self.key');
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    'self.key',
    '-sha256',
    '-days',
    '36500',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-out',
    'self.pem',
  );
  const selfSigned = {
    cert: readFileSync(file('self.pem'), 'utf8'),
    key: readFileSync(file('self.key'), 'utf8'),
  };
  return {
    dir,
    caFile: file('ca.pem'),
    good,
    expired,
    selfSigned,
    otherHost,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
