/**
 * `agency completion <shell>`: prints a completion script generated from the program's own commands
 * (./scripts.ts). The generator stays in this command's folder: only this command uses it.
 */
import type { Command } from '@commander-js/extra-typings';
import type { Runtime } from '../../runtime.js';
import { helpText, printsNoList, type Run } from '../command.js';
import { completionScript, describeCommands } from './scripts.js';

export function define(completion: Command, run: Run): void {
  printsNoList(completion)
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      helpText(
        'Prints the script on stdout. It completes commands, options and profile names\n' +
          '(-p <TAB>). Install it once, then open a new shell. For zsh, put\n' +
          'fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc. To try it in this shell\n' +
          'only: source <(agency completion bash).',
        [
          'agency completion bash > ~/.local/share/bash-completion/completions/agency',
          'agency completion zsh > ~/.zfunc/_agency',
          'agency completion fish > ~/.config/fish/completions/agency.fish',
        ],
      ),
    )
    .action(
      run(
        async (rt: Runtime, shell: string, _opts: object) => {
          // The whole program: cli.ts builds every command when completion runs.
          const program = completion.parent ?? completion;
          rt.out.out(completionScript(shell, describeCommands(program)));
        },
        { context: false },
      ),
    );
}
