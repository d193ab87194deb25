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
  return deferredHttp(
    () => import('./http.js').then(({ Http }) => new Http(options)),
    options.debug !== undefined,
  );
}

/**
 * An HTTP layer made on the first request (once, whatever runs at the same time): by loading undici,
 * or after reading the key from the system keyring. A failure to make it fails each request.
 */
export function deferredHttp(make: () => Promise<HttpLike>, debugging: boolean): HttpLike {
  let made: Promise<HttpLike> | undefined;
  const get = () => {
    made ??= make();
    return made;
  };
  return {
    request: async (spec) => (await get()).request(spec),
    close: async () => {
      if (made) await (await made.catch(() => undefined))?.close();
    },
    debugging,
  };
}
