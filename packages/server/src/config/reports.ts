import { int, pattern, type Section, text, type Values } from './setting.js';

/** Paginated reports. */
export const REPORTS = {
  rdlSchemaPath: text('SVC_RDL_SCHEMA_PATH', {
    meaning:
      "the published RDL 2016/01 schema file (`ReportDefinition.xsd`, not shipped: it has no open licence); when set, a paginated report's definition is also validated against it (libxml2's XSD validator, as WebAssembly) before it is published, and a fault is 400 naming the line and element",
  }),
  effectiveUsername: pattern(
    'SVC_REPORT_EFFECTIVE_USERNAME',
    /^(?=.{3,256}$)[^\s@]+@[^\s@]+$/,
    'must be a user principal name (name@domain): at most 256 characters, no spaces',
    {
      meaning:
        "the effective identity (a user principal name, e.g. `reports@contoso.com`) an export of a report over a semantic model runs as for an API-token caller whose token owner has no user principal name (a signed-in user exports as themselves); it becomes `User!UserID` and the model's row-level security applies to it. Unset: such an export is refused with a 424 gate naming this setting",
    },
  ),
  metadataCacheSeconds: int(
    'SVC_REPORT_METADATA_CACHE_SECONDS',
    60,
    0,
    3600,
    "how long a reporting group's modifiedDateTime / modifiedBy (read from the reporting service's admin route, which is throttled per tenant) are reused by report lists and gets; a publish, definition change, clone or delete through the service reads them again at once; `0` reads them on every call",
  ),
} satisfies Section;

export type ReportsConfig = Values<typeof REPORTS>;
