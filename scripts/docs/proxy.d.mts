// Types of the part of ./proxy.mjs the proxy tests use (test/helpers/proxy.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';

export function forward(req: IncomingMessage, res: ServerResponse, allowed: boolean): void;
