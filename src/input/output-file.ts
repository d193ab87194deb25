/**
 * Options that name a file the run writes (`health --html`, `apply --keys-out`): a path that cannot
 * be a file there is found before the first request (exit 2), not after a long run.
 */
import { stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { replaceFileWhole } from '../whole-file.js';

/** `--html reports/`: the folder was named where a file was meant; `example` is a file name to offer. */
export function folderNotFile(option: string, path: string, example: string, hint?: string): UsageError {
  return new UsageError(`${option} ${path} is a folder: give a file name such as ${join(path, example)}.`, {
    hint,
  });
}

/**
 * `--html ""` (an unset `$REPORT`) and `--html -`: no file name. `-` is refused rather than read as
 * stdout, which already carries the command's own output (rows, keys): one stream, one meaning.
 */
export function checkFileNameGiven(option: string, path: string, example: string, hint?: string): void {
  if (path.trim() === '')
    throw new UsageError(`${option} needs a file name, such as ${example}: it was given an empty one.`, {
      hint,
    });
  if (path === '-')
    throw new UsageError(
      `${option} needs a file name, such as ${example}: - (stdout) is not supported, stdout carries the command's own output.`,
      { hint },
    );
}

/** The file can be created or replaced where it is named: its folder exists, and it is no folder itself. */
export async function checkOutputFile(option: string, path: string, example: string): Promise<void> {
  checkFileNameGiven(option, path, example);
  const found = await stat(path).catch(() => undefined);
  if (found?.isDirectory()) throw folderNotFile(option, path, example);
  const folder = dirname(path);
  const parent = await stat(folder).catch(() => undefined);
  if (!parent?.isDirectory())
    throw new UsageError(`${option} ${path}: there is no folder ${folder} to write it in.`);
}

/**
 * Writes `path` whole or not at all (src/whole-file.ts), so a full disk or a second Ctrl-C never leaves
 * last week's report half replaced. A page is for sharing: readable by others as a plain file is
 * (0666 before the umask). A folder we may not create files in, holding a file we may write, is
 * written in place as before.
 */
export async function replaceFile(path: string, data: string): Promise<void> {
  try {
    replaceFileWhole(path, data, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return writeFile(path, data);
    throw error;
  }
}
