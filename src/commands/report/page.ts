/**
 * `report --html FILE`: the page written once the rows are printed (src/output/report-html.ts), with the
 * agency's name from GET /v1/me (read while the reports are made; a page without it rather than none).
 */
import { InterruptedError, OutputError } from '../../errors.js';
import { replaceFile } from '../../input/output-file.js';
import { renderReportHtml } from '../../output/report-html.js';
import type { CampaignReport } from '../../reports/campaigns.js';
import type { Runtime } from '../../runtime.js';

/** The agency's name as /v1/me says it (`agency.name`), asked at once; undefined when it cannot be read. */
export function agencyName(
  rt: Runtime,
  me: () => Promise<Record<string, unknown>>,
): Promise<string | undefined> {
  return me().then(
    (answer) => {
      const agency = answer.agency;
      const name =
        agency !== null && typeof agency === 'object' ? (agency as Record<string, unknown>).name : undefined;
      return typeof name === 'string' && name.trim() !== '' ? name : undefined;
    },
    (error: unknown) => {
      if (!(error instanceof InterruptedError)) {
        rt.out.warn(
          `The agency's name could not be read (${(error as Error).message}); the page leaves it out.`,
        );
      }
      return undefined;
    },
  );
}

export async function writeReportPage(
  rt: Runtime,
  file: string,
  report: CampaignReport,
  options: { agency: string | undefined; interrupted: boolean },
): Promise<void> {
  if (report.clients.length === 0) {
    rt.out.info(`No HTML report written: no client's report was made (${file} is left as it was).`);
    return;
  }
  const done = report.clients.length + report.failed.length;
  const html = renderReportHtml({
    report,
    agency: options.agency,
    generatedAt: new Date(),
    ...(options.interrupted
      ? {
          interrupted: `Interrupted after ${done} clients: this page shows only the clients complete by then.`,
        }
      : {}),
  });
  try {
    await replaceFile(file, html);
  } catch (error) {
    throw new OutputError(`Could not write the HTML report to ${file}: ${(error as Error).message}`);
  }
  rt.out.info(
    `HTML report${options.interrupted ? ' of the clients complete so far' : ''} written to ${file}`,
  );
}
