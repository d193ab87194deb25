/** A stream that keeps what is written to it, at once (like a pipe whose reader keeps up). */
import { Writable } from 'node:stream';

export function keptStream(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
