/**
 * What a command's handler receives (as gh's Factory): the resolved context, the output, the terminal
 * facts, the config store, and a factory of API clients that loads the HTTP layer on the first request.
 * Built here from the global flags, the environment (already read by context.ts) and the streams.
 */
import { AgencyClient } from './api/client.js';
import type { HttpOptions } from './api/http.js';
import { deferredHttp, type HttpLike, lazyHttp } from './api/lazy-http.js';
import { proxyFor } from './api/proxy.js';
import { ConfigStore } from './config.js';
import {
  type Context,
  type Env,
  type Environment,
  type GlobalFlags,
  requireApiKey,
  resolveContext,
  terminalSettings,
} from './context.js';
import type { ProgressSink } from './output/progress.js';
import type { StdoutWatch } from './output/stdout-watch.js';
import { openTerminal, type Terminal, type TerminalStreams } from './output/terminal.js';
import type { RunRecord, Writer } from './output/writer.js';
import { keyFromKeyring } from './secrets/storage.js';

/** The process's streams and environment, as bin/agency.js (or a test) hands them to main(). */
export interface IO extends TerminalStreams {
  env: Env;
}

interface ClientOptions {
  /** Connections kept open; > 1 only for fan-out across client companies. */
  connections?: number;
  /** Another key than the context's (login checks the key it is about to save). */
  apiKey?: string;
  /**
   * false: Ctrl-C does not abort a request in flight, so that a command can learn and report the
   * outcome of a POST the service may already have processed (it starts no new one).
   */
  interruptible?: boolean;
}

/** How a host runs this one (src/program.ts's execute). */
export interface RunSetup {
  /** Makes the HTTP layer: lazyHttp (undici, loaded on the first request), or a test's fake. */
  transport?: Transport | undefined;
  /** A host that shows progress itself (MCP notifications) instead of a terminal line. */
  progress?: ProgressSink | undefined;
  /** The context already resolved by the host (`agency mcp`: what it announced); else resolved here. */
  context?: Context | undefined;
  /** Where the writer hands results, notes and warnings as values. */
  record?: RunRecord | undefined;
  /** The run's watch of stdout, shared by its writers. */
  stdout?: StdoutWatch | undefined;
}

/** Makes the HTTP layer of a client: lazyHttp (undici, loaded on the first request), or a test's fake. */
export type Transport = (options: HttpOptions) => HttpLike;

export interface Runtime {
  /** Resolved on first use: a command that needs no profile (completion) never reads the config. */
  readonly ctx: Context;
  readonly out: Writer;
  readonly terminal: Terminal;
  /** The config file: read once, changed only through update(). */
  readonly config: ConfigStore;
  /** The environment as the process got it, for a command that runs others inside itself (`agency mcp`). */
  readonly env: Env;
  /** The environment as read once (`agency mcp` hands it to each run it hosts). */
  readonly environment: Environment;
  /** Set when a host (not a terminal) shows the progress of long commands. */
  readonly progress: ProgressSink | undefined;
  /**
   * A client for the context's key and base URL. A key in the system keyring is read on its first
   * request (once per run), so that a command that sends none never touches the keyring.
   */
  api(options?: ClientOptions): AgencyClient;
  /** The key the run's requests use, read from the keyring if it is there (`auth token`, `agency mcp`). */
  apiKey(): Promise<string>;
}

/** The output alone, for reporting an error that came before (or instead of) a runtime. */
export function openOutput(
  streams: TerminalStreams,
  flags: GlobalFlags,
  environment: Environment,
  stdout?: StdoutWatch,
): { out: Writer; terminal: Terminal } {
  return openTerminal(streams, terminalSettings(flags, environment), stdout);
}

export function createRuntime(
  flags: GlobalFlags,
  environment: Environment,
  io: IO,
  signal: AbortSignal,
  setup: RunSetup = {},
): { runtime: Runtime; ready(options: { key: boolean }): Promise<void>; close(): Promise<void> } {
  const { transport = lazyHttp, progress, record } = setup;
  const { out, terminal } = openOutput(io, flags, environment, setup.stdout);
  if (record) out.recordTo(record);
  const config = new ConfigStore(environment.configDir, (message) => out.warn(message));
  const clients: AgencyClient[] = [];
  let ctx: Context | undefined;
  // A given context is the host's for its whole life: this run only has its own signal and output.
  const given = setup.context;
  const context = () => {
    ctx ??= given
      ? Object.freeze({ ...given, json: flags.json === true, signal })
      : resolveContext(flags, environment, config, signal);
    return ctx;
  };
  let fromKeyring: Promise<string> | undefined;
  const apiKey = async () => {
    const key = requireApiKey(context());
    if (typeof key === 'string') return key;
    fromKeyring ??= keyFromKeyring(key);
    return fromKeyring;
  };
  const runtime: Runtime = {
    get ctx() {
      return context();
    },
    out,
    terminal,
    config,
    env: io.env,
    environment,
    progress,
    apiKey,
    api: (options) => {
      const c = context();
      const key = options?.apiKey ?? requireApiKey(c);
      const http: HttpOptions = {
        baseUrl: c.baseUrl,
        apiKey: typeof key === 'string' ? key : '',
        timeoutMs: c.timeoutMs,
        userAgent: c.userAgent,
        debug: c.debug ? (line) => out.err(`[debug] ${line}\n`) : undefined,
        signal: options?.interruptible === false ? undefined : c.signal,
        connections: options?.connections,
        maxInFlight: c.maxInFlight,
        proxy: proxyFor(c.baseUrl, environment.proxy),
      };
      const layer =
        typeof key === 'string'
          ? transport(http)
          : deferredHttp(async () => transport({ ...http, apiKey: await apiKey() }), c.debug);
      const client = new AgencyClient(layer);
      clients.push(client);
      return client;
    },
  };
  return {
    runtime,
    // Before the handler: the context, and a key in the keyring unless the command sends none with it.
    ready: async ({ key }) => {
      if (context().keyringItem && key) await apiKey();
    },
    close: async () => {
      await Promise.allSettled(clients.map((client) => client.close()));
    },
  };
}
