/**
 * A registry of expected requests, in the manner of gh's httpmock: a test declares each request the
 * command should make and the answer it gets; an undeclared request fails the test, and verify() fails
 * when a declared one was never made. Answers go through the HTTP layer's own pure mapping
 * (src/api/response.ts), so a declared 409 or HTML page becomes exactly the error the real layer throws.
 */
import { expect } from 'vitest';
import type { HttpLike } from '../../src/api/client.js';
import type { HttpOptions, Method, RequestSpec } from '../../src/api/http.js';
import { type HttpResponse, readAnswer, settle } from '../../src/api/response.js';

type Query = Record<string, string | number | boolean | undefined>;

interface Stub {
  method: Method;
  path: string;
  /** Only these query fields are compared (a subset of what was sent). */
  query: Query | undefined;
  answer: (spec: RequestSpec) => {
    status: number;
    body?: unknown;
    text?: string;
    headers?: Record<string, string>;
  };
  /** How many more requests this stub answers. */
  left: number;
}

export interface Answer {
  status: number;
  /** JSON body (serialised), or raw `text` (an HTML page, a truncated body). */
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export class HttpMock implements HttpLike {
  readonly #stubs: Stub[] = [];
  /** Every request made, in order. */
  readonly requests: RequestSpec[] = [];
  /** Requests no stub answered. */
  readonly unexpected: string[] = [];
  /** The options of the last client made through transport(), e.g. to check the key or the depth. */
  options: HttpOptions | undefined;

  /** Declares a request; `times` requests are answered (default 1). */
  on(method: Method, path: string, query?: Query) {
    const add = (answer: Stub['answer'], times: number) => {
      this.#stubs.push({ method, path, query, answer, left: times });
      return this;
    };
    return {
      reply: (status: number, body?: unknown, times = 1) => add(() => ({ status, body }), times),
      answer: (answer: Answer | ((spec: RequestSpec) => Answer), times = 1) =>
        add(typeof answer === 'function' ? answer : () => answer, times),
    };
  }

  /** For main(argv, io, transport) and createRuntime(): every client of the run uses this registry. */
  readonly transport = (options: HttpOptions): HttpLike => {
    this.options = options;
    return this;
  };

  async request(spec: RequestSpec): Promise<HttpResponse> {
    this.requests.push(spec);
    const stub = this.#stubs.find((s) => s.left > 0 && matches(s, spec));
    if (!stub) {
      const line = describe(spec);
      this.unexpected.push(line);
      throw new Error(`httpmock: no stub for ${line}`);
    }
    stub.left--;
    const answer = stub.answer(spec);
    const text = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    const read = readAnswer({
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
      text,
    });
    return settle(read, {
      method: spec.method,
      path: spec.path,
      baseUrl: 'https://api.test/rest',
      action: spec.action,
      company: spec.company ?? spec.companyId,
      companyHeader: spec.companyId !== undefined,
      emptyIsNothing: spec.emptyIsNothing,
      attempts: 1,
      debugging: false,
      redact: (t) => t,
    });
  }

  async close(): Promise<void> {}

  /** Every declared request was made, and nothing else. */
  verify(): void {
    expect(this.unexpected, 'requests nobody declared').toEqual([]);
    const unused = this.#stubs.filter((s) => s.left > 0).map((s) => `${s.method} ${s.path}`);
    expect(unused, 'declared requests that were never made').toEqual([]);
  }
}

function matches(stub: Stub, spec: RequestSpec): boolean {
  if (stub.method !== spec.method || stub.path !== spec.path) return false;
  return Object.entries(stub.query ?? {}).every(([name, value]) => spec.query?.[name] === value);
}

function describe(spec: RequestSpec): string {
  const query = Object.entries(spec.query ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `${spec.method} ${spec.path}${query ? `?${query}` : ''}`;
}

/** One page of a paged list, as the service answers it. */
export function page<T>(content: T[], current: number, totalPages: number, totalElements?: number) {
  return {
    content,
    pagination_data: {
      total_elements: totalElements ?? content.length,
      total_pages: totalPages,
      current_page_number: current,
      page_size: 50,
    },
  };
}
