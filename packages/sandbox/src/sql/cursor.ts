import { sqlError } from './errors.js';
import type { Tok } from './lexer.js';
import type { Name } from './ast.js';

/** Words that start a statement: they end a SET and are never taken as aliases. */
export const STATEMENT_WORDS = new Set([
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'MERGE',
  'CREATE',
  'ALTER',
  'DROP',
  'IF',
  'ELSE',
  'EXEC',
  'EXECUTE',
  'SET',
  'PRINT',
  'BEGIN',
  'END',
  'DECLARE',
  'GRANT',
  'REVOKE',
  'DENY',
  'USE',
  'WITH',
  'COMMIT',
  'ROLLBACK',
  'TRUNCATE',
  'GO',
]);

/** A position in a batch's tokens with the small vocabulary of a recursive-descent parser. */
export class Cursor {
  i = 0;
  /** Constructs the batch uses that a dedicated SQL pool's grammar lacks (CREATE OR ALTER, FOREIGN KEY), by token. */
  readonly poolRefusals: Tok[] = [];
  constructor(
    readonly toks: Tok[],
    readonly src: string,
  ) {}

  peek(offset = 0): Tok | undefined {
    return this.toks[this.i + offset];
  }

  atEnd(): boolean {
    return this.i >= this.toks.length;
  }

  isKw(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.k === 'word' && t.v.toUpperCase() === word;
  }

  /** Consumes the keywords if they all follow in order. */
  acceptKw(...words: string[]): boolean {
    if (!words.every((w, j) => this.isKw(w, j))) return false;
    this.i += words.length;
    return true;
  }

  expectKw(...words: string[]): void {
    if (!this.acceptKw(...words)) this.fail();
  }

  isOp(op: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.k === 'op' && t.v === op;
  }

  acceptOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.i++;
    return true;
  }

  expectOp(op: string): void {
    if (!this.acceptOp(op)) this.fail();
  }

  /** Msg 102 near the current token (or the last one at the end of the batch). */
  fail(): never {
    const t = this.peek() ?? this.toks[this.toks.length - 1];
    throw sqlError.syntax(t ? this.src.slice(t.start, t.end) : '', t?.start);
  }

  /** A bare or quoted identifier. */
  ident(): string {
    const t = this.peek();
    if (!t || (t.k !== 'word' && t.k !== 'qid')) this.fail();
    this.i++;
    return t.v;
  }

  isIdent(offset = 0): boolean {
    const t = this.peek(offset);
    return t?.k === 'qid' || (t?.k === 'word' && !STATEMENT_WORDS.has(t.v.toUpperCase()));
  }

  /** A multi-part name: ident(.ident)*. */
  name(): Name {
    const parts = [this.ident()];
    while (this.isOp('.') && parts.length < 4) {
      this.i++;
      parts.push(this.ident());
    }
    return parts;
  }

  /** Skips a balanced parenthesised group starting at '('. */
  skipParens(): void {
    this.expectOp('(');
    let depth = 1;
    while (depth > 0) {
      if (this.atEnd()) this.fail();
      const t = this.toks[this.i++]!;
      if (t.k === 'op' && t.v === '(') depth++;
      if (t.k === 'op' && t.v === ')') depth--;
    }
  }
}
