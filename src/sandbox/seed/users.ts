/**
 * The sandbox's invented world, part 5: the people of a client company (its own team and guests),
 * beside the agency's users who reach it. Derived from the company id; a few companies have more
 * than one page of users.
 */
import { domainOf, mix, pick } from './names.js';

export type CompanyUserRole = 'admin' | 'owner' | 'authorized_team_member' | 'guest';

export interface CompanyUserItem {
  id: number;
  name: string;
  email: string;
  roles: CompanyUserRole[];
  /** A guest's: [] or ["mailboxes"] (what the service documents); null for everyone else. */
  guest_permissions: string[] | null;
}

const FIRST = [
  'Alex',
  'Maria',
  'Sam',
  'Julia',
  'Omar',
  'Lena',
  'Piotr',
  'Sofia',
  'Noah',
  'Zoe',
  'Raj',
  'Mia',
];
const LAST = ['Nowak', 'Smith', 'Garcia', 'Kim', 'Rossi', 'Dubois', 'Novak', 'Jensen', 'Silva', 'Khan'];

/** The client's own people: 0–3 team members and 0–2 guests; one company in 17 has a crowd of 60–90. */
export function clientUsers(companyId: number, companyName: string): CompanyUserItem[] {
  const domain = domainOf(companyName);
  const crowd = mix(companyId, 110) % 17 === 0;
  const members = crowd ? 55 + (mix(companyId, 111) % 30) : mix(companyId, 112) % 4;
  const guests = crowd ? 5 : mix(companyId, 113) % 3;
  const users: CompanyUserItem[] = [];
  for (let n = 0; n < members + guests; n++) {
    const first = pick(FIRST, companyId * 1000 + n, 114);
    const last = pick(LAST, companyId * 1000 + n, 115);
    const guest = n >= members;
    users.push({
      id: companyId * 1000 + n + 1,
      name: `${first} ${last}`,
      email: guest
        ? `${first.toLowerCase()}.${last.toLowerCase()}${n}@guest-${domain}`
        : `${first.toLowerCase()}.${last.toLowerCase()}${n}@${domain}`,
      roles: [guest ? 'guest' : 'authorized_team_member'],
      guest_permissions: guest ? (mix(companyId + n, 116) % 2 === 0 ? ['mailboxes'] : []) : null,
    });
  }
  return users;
}
