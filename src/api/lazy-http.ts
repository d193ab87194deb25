/** The HTTP layer as the client sees it, and the real one loaded only when the first request is made. */
import type { HttpOptions, HttpResponse, RequestSpec } from './http.js';

export interface HttpLike {
  request(spec: RequestSpec): Promise<HttpResponse>;
  close(): Promise<void>;
  /** --debug is on: advice to run with --debug is left out of errors. */
  readonly debugging?: boolean;
}

/** Defers `import('./http.js')` (and with it undici) until the first request is made. */
export function lazyHttp(options: HttpOptions): HttpLike {
  let loaded: Promise<HttpLike> | undefined;
  const get = () => {
    loaded ??= import('./http.js').then(({ Http }) => new Http(options));
    return loaded;
  };
  return {
    request: async (spec) => (await get()).request(spec),
    close: async () => {
      if (loaded) await (await loaded).close();
    },
    debugging: options.debug !== undefined,
  };
}
