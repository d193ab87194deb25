// The console examples in Markdown, read and written back. The convention (docs/architecture.md,
// "Console examples in the docs"):
//
//   ```console                 a block whose first line starts with "$ " is run, command by command;
//   $ agency companies list    each "$ " line is a command (a line ending in "\" continues it), and
//   ID    NAME  …              the lines after it, up to the next "$ ", are what it printed
//   ```
//
//   every console block is run (one that cannot be is refused: show its commands in a ```sh block)
//   ```console proxy=3128      a forwarding proxy runs for the block, shown at 127.0.0.1:3128
//                              (proxy=alice:secret@3129: one that wants those credentials); it logs
//                              what it is asked in proxy-3128.log
//   ```console stop=2          the command runs until Ctrl-C: stopped once its screen has not changed
//                              for 2 seconds
//   ```console keyring         a private Secret Service (gnome-keyring, unlocked) runs from this block to
//                              the end of the page, so that `agency login` keeps the key in a system
//                              keyring (the blocks before it have none)
//   ```console type={hq-key};y each time the command waits at a prompt, the next answer is typed, then
//                              Enter ({hq-key}: the sandbox's HQ key)
//   a first line "# file: agency.yaml" in any block: the block is written to that file before the
//   blocks after it run (a plan file, a list of names; a .json or .jsonl file without that line)

const FENCE = /^(`{3,}|~{3,})(.*)$/;

/** The Markdown as parts: plain text (lines), and fenced blocks with their info string and lines. */
export function parseMarkdown(text) {
  const lines = text.split('\n');
  const parts = [];
  let plain = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      plain.push(lines[i]);
      continue;
    }
    const closing = new RegExp(`^\\${open[1][0]}{${open[1].length},}\\s*$`);
    const close = lines.findIndex((line, j) => j > i && closing.test(line));
    if (close === -1) {
      plain.push(lines[i]);
      continue;
    }
    if (plain.length > 0) parts.push({ plain });
    plain = [];
    parts.push({ fence: open[1], info: open[2].trim(), lines: lines.slice(i + 1, close) });
    i = close;
  }
  parts.push({ plain });
  return parts;
}

export function renderMarkdown(parts) {
  return parts
    .flatMap((part) => (part.plain ? part.plain : [`${part.fence}${part.info}`, ...part.lines, part.fence]))
    .join('\n');
}

/**
 * What a file block writes: its lines, marker included (a comment in YAML, CSV or a script, and line
 * numbers in messages match the block), except in JSON and JSON Lines, which have no comments.
 */
export function fileText(block, name) {
  const lines = /\.jsonl?$/.test(name) ? block.lines.slice(1) : block.lines;
  return `${lines.join('\n')}\n`;
}

/**
 * A block's kind: 'run' (with its attributes), 'file' (with its name), or undefined (not an example).
 * A console block is always run: one that cannot be (no "$ " command first, or the old `no-run`) is an
 * error, so that no output in the docs was written by hand.
 */
export function blockKind(block) {
  const file = /^# file: (\S+)\s*$/.exec(block.lines[0] ?? '');
  if (file) return { kind: 'file', name: file[1] };
  const [language, ...words] = block.info.split(/\s+/);
  if (language !== 'console') return undefined;
  if (!(block.lines[0] ?? '').startsWith('$ ') || words.includes('no-run')) {
    throw new Error(
      `a console block is run, so it starts with a "$ " command and has no no-run: ${JSON.stringify(
        block.lines[0] ?? '',
      )} (commands that cannot run against the sandbox go in a sh block, without output)`,
    );
  }
  const stop = words.map((w) => /^stop=(\d+(?:\.\d+)?)$/.exec(w)).find(Boolean);
  const type = words.map((w) => /^type=(.+)$/.exec(w)).find(Boolean);
  const proxies = words
    .map((w) => /^proxy=(?:(.+)@)?(\d+)$/.exec(w))
    .filter(Boolean)
    .map((m) => ({ credentials: m[1], shownPort: Number(m[2]) }));
  const unknown = words.filter((w) => !/^(stop|type|proxy)=/.test(w) && w !== 'keyring');
  if (unknown.length > 0) throw new Error(`unknown console block attribute(s): ${unknown.join(' ')}`);
  return {
    kind: 'run',
    stopAfterMs: stop ? Number(stop[1]) * 1000 : undefined,
    answers: type ? type[1].split(';') : [],
    proxies,
    keyring: words.includes('keyring'),
  };
}

/** The commands of a console block, each with the output written under it. */
export function parseCommands(lines) {
  const commands = [];
  let continued = false;
  for (const line of lines) {
    if (continued) {
      commands.at(-1).command.push(line);
      continued = line.endsWith('\\');
    } else if (line.startsWith('$ ')) {
      commands.push({ command: [line.slice(2)], output: [] });
      continued = line.endsWith('\\');
    } else commands.at(-1).output.push(line);
  }
  return commands;
}

export function renderCommands(commands) {
  return commands.flatMap(({ command, output }) => [`$ ${command[0]}`, ...command.slice(1), ...output]);
}
