import type { Extension } from '@codemirror/state';

/** The languages the console's editors highlight. */
export type CodeLanguage = 'xml' | 'json' | 'sql' | 'python' | 'kql' | 'text';

/** The language's CodeMirror support, each in its own chunk so a page loads only the grammar it shows. */
export async function loadLanguage(language: CodeLanguage): Promise<Extension> {
  switch (language) {
    case 'xml':
      return (await import('@codemirror/lang-xml')).xml();
    case 'json':
      return (await import('@codemirror/lang-json')).json();
    case 'sql': {
      // Warehouses and SQL cells speak T-SQL: the MSSQL dialect knows its keywords, [bracketed] names and @variables.
      const { sql, MSSQL } = await import('@codemirror/lang-sql');
      return sql({ dialect: MSSQL });
    }
    case 'python':
      return (await import('@codemirror/lang-python')).python();
    case 'kql':
      return (await import('./kql')).kql;
    default:
      return [];
  }
}
