import type { RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';

/**
 * The data-plane api-versions the search service answers (Learn, "Search REST API versions"; 2026-04-01 is the default of
 * @azure/search-documents 13). Compared case-insensitively, as the service does ("2023-07-01-Preview").
 */
export const SEARCH_API_VERSIONS = [
  '2026-04-01',
  '2025-09-01',
  '2024-07-01',
  '2023-11-01',
  '2020-06-30',
  '2019-05-06',
  '2017-11-11',
  '2016-09-01',
  '2015-02-28',
  '2025-11-01-preview',
  '2025-08-01-preview',
  '2025-05-01-preview',
  '2025-03-01-preview',
  '2024-11-01-preview',
  '2024-09-01-preview',
  '2024-05-01-preview',
  '2024-03-01-preview',
  '2023-10-01-preview',
  '2023-07-01-preview',
  '2021-04-30-preview',
  '2020-06-30-preview',
  '2019-05-06-preview',
  '2017-11-11-preview',
  '2016-09-01-preview',
  '2015-02-28-preview',
];

/** The version whose published description the sandbox holds (definitions are checked against it when it is used). */
export const DESCRIBED_VERSION = '2024-07-01';

/** The request's api-version: 400 when missing or not one the service has. */
export function apiVersionOf(ctx: RequestContext): string {
  const v = ctx.queryCi('api-version');
  if (!v) throw new ServiceError(400, '', 'Invalid or missing api-version query string parameter.');
  if (!SEARCH_API_VERSIONS.includes(v.toLowerCase()))
    throw new ServiceError(400, '', 'The version indicated by the api-version query string parameter does not exist.');
  return v.toLowerCase();
}
