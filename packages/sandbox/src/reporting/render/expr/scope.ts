import type { ParameterValues } from '../../params.js';
import type { Value } from './values.js';

/** A row of a data set: field name → the source's text. */
export type Row = Record<string, string>;

/** What an expression can see: built-in fields, the export's user, parameters, and the rows in scope. */
export interface EvalScope {
  reportName: string;
  executionTime: Date;
  /** The export's user: User!UserID (the effective identity's username, else the caller) and User!Language. */
  user: { userId: string; language: string };
  /** The export format (PDF, DOCX …) or the viewer's rendering (RPL). */
  renderFormat: string;
  parameters: Map<string, ParameterValues>;
  /** The current row (inside a data region's detail row). */
  fields?: Row;
  /** Field names of the data set in scope: a Fields! reference to another name is refused. */
  fieldNames?: string[];
  /** Rows an aggregate without a scope argument reads (a data region's rows, or a detail row's own). */
  rows?: Row[];
  /** The data region's rows and the current one's index, for RowNumber and Previous. */
  region?: { rows: Row[]; index: number };
  /** Rows of each data set and data region by name (aggregate scope arguments). */
  scopes?: Map<string, { rows: Row[]; fieldNames: string[]; dataSet: boolean }>;
  /** Page header and footer only. */
  page?: { number: number; total: number };
  /** Values of other report items (text boxes) by name; undefined when the name is not one. */
  reportItems?: (name: string) => Value | undefined;
}
