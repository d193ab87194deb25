// Types of tmux-control.mjs, for test/helpers/tmux.ts.
export declare class TmuxControl {
  constructor(tmuxArgs: string[], session: string);
  /** Settles when the client has exited (the server was killed). */
  readonly closed: Promise<void>;
  command(line: string): Promise<string>;
  nextOutput(pane?: string): Promise<void>;
}
