import { pattern, type Section } from './setting.js';

// An RFC 6750 bearer value long enough to be a secret (openssl rand -hex 32 gives 64 characters).
const METRICS_TOKEN_FORMAT = /^(?=.{32,256}$)[A-Za-z0-9._~+/-]+=*$/;

/** The scraper's static bearer for /metrics. */
export const METRICS = {
  token: pattern(
    'SVC_METRICS_TOKEN',
    METRICS_TOKEN_FORMAT,
    'must be 32 to 256 characters: letters, digits and - . _ ~ + / (e.g. the output of openssl rand -hex 32)',
    {
      meaning:
        'a static bearer (32 to 256 characters: letters, digits, `- . _ ~ + /`; e.g. `openssl rand -hex 32`) that reads `/metrics` and nothing else, for a scraper without an API token',
    },
  ),
} satisfies Section;
