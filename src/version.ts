/** Replaced at build time by esbuild's `define` from package.json; the fallback serves tests run from source. */
declare const __AGENCY_VERSION__: string | undefined;
export const VERSION: string = typeof __AGENCY_VERSION__ === 'string' ? __AGENCY_VERSION__ : '0.0.0-dev';
