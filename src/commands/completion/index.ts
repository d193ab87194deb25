/**
 * `agency completion <shell>`: prints a completion script generated from the program's own commands
 * (./scripts.ts). The generator stays in this command's folder: only this command uses it.
 */
import type { Command } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import type { Runtime } from '../../runtime.js';
import { helpText, printsNoList, type Run } from '../command.js';
import { fish } from './fish.js';
import { bash, type CommandNode, describeCommands } from './scripts.js';
import { zsh } from './zsh.js';

function completionScript(shell: string, tree: CommandNode): string {
  if (shell === 'bash') return bash(tree);
  if (shell === 'zsh') return zsh(tree);
  if (shell === 'fish') return fish(tree);
  throw new UsageError(`Unknown shell ${JSON.stringify(shell)}: use bash, zsh or fish.`);
}

export function define(completion: Command, run: Run): void {
  printsNoList(completion)
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints the script on stdout. It completes commands (after help too), options
          (zsh and fish say what each is for), profile names (-p <TAB>), option values
          (statuses, events, files; after a comma, the rest of a list, with no space
          after a value so that a comma can follow) and the command's column names after
          --columns. Install it once, then open a new shell. For zsh, put fpath=(~/.zfunc $fpath) before compinit in
          ~/.zshrc. To try it in this shell only: source <(agency completion bash).
        `,
        examples: `
          $ agency completion bash > ~/.local/share/bash-completion/completions/agency
          $ agency completion zsh > ~/.zfunc/_agency
          $ agency completion fish > ~/.config/fish/completions/agency.fish
        `,
      }),
    )
    .action(
      run(
        async (rt: Runtime, shell: string, _opts: object) => {
          // The whole program: program.ts builds every command when completion runs.
          const program = completion.parent ?? completion;
          rt.out.out(completionScript(shell, describeCommands(program)));
        },
        { context: false },
      ),
    );
}
