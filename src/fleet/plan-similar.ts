/**
 * A company of a plan file whose name only looks like an existing company's (case or inner spacing):
 * the service can neither rename nor delete a company, so `plan` shows it as a "!" line naming the
 * existing one and `apply` refuses the file (exit 5, nothing sent), unless --allow-similar.
 */
import type { Company } from '../api/types.js';
import { option } from '../terms.js';
import { looksLikeLine } from './names.js';

export interface Similar {
  name: string;
  companies: Company[];
}

/** `! "acme ltd" looks like "Acme Ltd" (id 1001): not created …` */
export function describeSimilar(similar: Similar): string {
  return `! ${looksLikeLine(similar.name, similar.companies)}: not created (a company cannot be renamed or deleted); use the exact name, or ${option('allow-similar')}`;
}

/** `--json`'s "similar" entries: the name and the companies it looks like. */
export function similarJson(
  similar: readonly Similar[],
): { name: string; looks_like: { id: number; name: string }[] }[] {
  return similar.map((s) => ({
    name: s.name,
    looks_like: s.companies.map((c) => ({ id: c.id, name: c.name })),
  }));
}
