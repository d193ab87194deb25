/** One-line advice for an API error, in the user's terms. `company` is the company the request was about. */
export function hintForStatus(status: number, company: number | undefined): string | undefined {
  if (status === 401) return 'The API key was refused: run `agency login` again, or check AGENCY_API_KEY.';
  if (status === 403 && company !== undefined) {
    return `This key is not the agency's HQ key, or your user has no access to company ${company}.`;
  }
  if (status === 403)
    return "The key has no access to this: agency commands need the agency's HQ (main account) key.";
  if (status === 404 && company !== undefined) return `Company ${company} does not exist in this agency.`;
  if (status === 409 && company !== undefined) return `Company ${company} is inactive.`;
  if (status === 429)
    return 'The service is busy with other requests of this account; try again in a moment.';
  return undefined;
}
