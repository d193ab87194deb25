#!/usr/bin/env node
// The installed command: loads the bundled program and exits with its code once output is flushed.
import { main } from '../dist/cli.js';

// `agency ... | head -1`: the reader went away; that is not an error worth a word.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

const code = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
