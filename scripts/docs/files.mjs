// Writing generated files, or checking that the checked-in ones are what the generator makes now.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * `files`: relative path → content. `owned`: folders whose every file is generated (a file there that
 * the generator no longer makes is stale too). Returns the stale paths; writes them unless `check`.
 */
export function syncFiles(root, files, { check = false, owned = [] } = {}) {
  const stale = [];
  for (const [file, content] of files) {
    const full = path.resolve(root, file);
    const current = existsSync(full) ? readFileSync(full, 'utf8') : undefined;
    if (current === content) continue;
    stale.push(file);
    if (!check) {
      mkdirSync(path.dirname(full), { recursive: true });
      // Whole or not at all: a generator stopped mid-write (Ctrl-C, a full disk) leaves the old file.
      const partial = `${full}.${process.pid}.tmp`;
      try {
        writeFileSync(partial, content);
        renameSync(partial, full);
      } catch (error) {
        rmSync(partial, { force: true });
        throw error;
      }
    }
  }
  for (const dir of owned) {
    const full = path.join(root, dir);
    if (!existsSync(full)) continue;
    for (const name of readdirSync(full)) {
      const file = path.posix.join(dir, name);
      if (files.has(file)) continue;
      stale.push(file);
      if (!check) rmSync(path.join(full, name));
    }
  }
  return stale;
}

/** Prints what was (or would be) rewritten; exits 1 in check mode when anything is stale. */
export function report(stale, { check, what, fix }) {
  if (stale.length === 0) {
    console.log(`${what}: up to date.`);
    return;
  }
  if (check) {
    console.error(`${what}: ${stale.length} file(s) out of date — run \`${fix}\`:`);
    for (const file of stale) console.error(`  ${file}`);
    process.exitCode = 1;
    return;
  }
  console.log(`${what}: rewrote ${stale.length} file(s):`);
  for (const file of stale) console.log(`  ${file}`);
}

/**
 * The generators' command line: --check, `flag('--changed')` for another switch, and `option('--out')`
 * for an option's value.
 */
export function commandLine(args) {
  const option = (name) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args[i + 1];
  };
  const flag = (name) => args.includes(name);
  return { check: flag('--check'), flag, option };
}

/**
 * The docs are made from the built program: a build older than src/ (a rebase, an edit, a failed
 * build) would document commands that no longer are, or leave new ones out. Exits 1 saying so.
 */
export function assertBuildIsCurrent(root) {
  const built = path.join(root, 'dist/cli.cjs');
  const stop = (message) => {
    console.error(message);
    process.exit(1);
  };
  if (!existsSync(built)) stop('dist/cli.cjs is missing: run `npm run build` first');
  const builtAt = statSync(built).mtimeMs;
  const newer = readdirSync(path.join(root, 'src'), { recursive: true })
    .map((name) => path.join(root, 'src', String(name)))
    .filter((file) => statSync(file).isFile() && statSync(file).mtimeMs > builtAt);
  if (newer.length > 0) {
    stop(
      `the build is older than ${path.relative(root, newer[0])}${newer.length > 1 ? ` and ${newer.length - 1} more` : ''}: run \`npm run build\` (or \`npm run docs\`)`,
    );
  }
}
