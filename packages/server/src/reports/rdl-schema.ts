import fs from 'node:fs';
import path from 'node:path';
import { memoryPages, validateXML } from 'xmllint-wasm';
import type { ReportsConfig } from '../config/reports.js';
import { ConfigError } from '../config/setting.js';
import type { RdlFault } from './rdl/check.js';

/**
 * The published RDL schema (rdl2016.xsd, "ReportDefinition.xsd"), when SVC_RDL_SCHEMA_PATH names it: definitions are
 * then also validated against it with libxml2's XSD validator (xmllint compiled to WebAssembly). The schema is not
 * vendored (it carries no open licence); the operator supplies the file.
 */
export class RdlSchema {
  private constructor(
    private readonly fileName: string,
    private readonly xsd: string,
  ) {}

  /** The schema SVC_RDL_SCHEMA_PATH names, read once at start; undefined when the variable is unset. */
  static fromConfig(reports: ReportsConfig): RdlSchema | undefined {
    const file = reports.rdlSchemaPath;
    if (!file) return undefined;
    let xsd: string;
    try {
      xsd = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError('SVC_RDL_SCHEMA_PATH', `cannot read the RDL schema at ${file}: ${(err as Error).message}`);
    }
    if (!/<(\w+:)?schema[\s>]/.test(xsd))
      throw new ConfigError('SVC_RDL_SCHEMA_PATH', `${file} is not an XML schema (no <xs:schema> element)`);
    return new RdlSchema(path.basename(file), xsd);
  }

  /** Every schema-validity fault of the definition, with its line and element. */
  async check(rdl: string): Promise<RdlFault[]> {
    const result = await validateXML({
      xml: { fileName: 'definition.rdl', contents: rdl },
      schema: { fileName: this.fileName, contents: this.xsd },
      maxMemoryPages: 256 * memoryPages.MiB,
    });
    if (result.valid) return [];
    return result.errors.map((e) => {
      const element = /Element '(?:\{[^}]*\})?([^']+)'/.exec(e.message)?.[1];
      return {
        line: e.loc?.lineNumber ?? 1,
        element: element ? `<${element}>` : '',
        message: `not valid against ${this.fileName}: ${e.message.replace(/^.*?Schemas validity error : /, '').trim()}`,
      };
    });
  }
}
