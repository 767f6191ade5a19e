import { type Section, text, type Values } from './setting.js';

/** Paginated reports. */
export const REPORTS = {
  rdlSchemaPath: text('SVC_RDL_SCHEMA_PATH', {
    meaning:
      "the published RDL 2016/01 schema file (`ReportDefinition.xsd`, not shipped: it has no open licence); when set, a paginated report's definition is also validated against it (libxml2's XSD validator, as WebAssembly) before it is published, and a fault is 400 naming the line and element",
  }),
} satisfies Section;

export type ReportsConfig = Values<typeof REPORTS>;
