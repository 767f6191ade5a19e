import { type Section, url, WEB } from './setting.js';

/** The sandbox the service runs against. */
export const SANDBOX = {
  adminUrl: url('SVC_SANDBOX_ADMIN_URL', WEB, {
    meaning: "set by `npm run sandbox`'s environment: use that running sandbox instead of an in-process one",
  }),
} satisfies Section;
