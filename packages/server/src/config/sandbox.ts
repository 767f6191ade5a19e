import { oneOf, type Section, url, WEB } from './setting.js';

/** The sandbox the service runs against. */
export const SANDBOX = {
  adminUrl: url('SVC_SANDBOX_ADMIN_URL', WEB, {
    meaning: "set by `npm run sandbox`'s environment: use that running sandbox instead of an in-process one",
  }),
  dataPlatform: oneOf('SVC_SANDBOX_DATA_PLATFORM', ['on', 'off'], {
    fallback: 'on',
    meaning:
      '`off` starts the in-process sandbox as a cloud without the data platform (as GCC-High and DoD are today): its types run on the Azure-native emulators (see [Backends](#backends-per-item-type))',
  }),
} satisfies Section;
