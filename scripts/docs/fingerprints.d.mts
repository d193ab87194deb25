// Types of fingerprints.mjs, for test/docs/examples.test.ts.
export declare const FINGERPRINTS: string;
export function fingerprinter(root: string): (text: string) => string;
export function readFingerprints(file: string): Map<string, string>;
export function writeFingerprints(file: string, fingerprints: Map<string, string>): void;
