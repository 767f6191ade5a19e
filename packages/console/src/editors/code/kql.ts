import { StreamLanguage, type StringStream } from '@codemirror/language';

// Tabular operators and the words that qualify them (KQL reference: query operators, join kinds, sort order).
const KEYWORDS = new Set(
  (
    'where filter project project-away project-keep project-rename project-reorder extend summarize by take limit top top-nested ' +
    'sort order asc desc nulls first last join kind on inner innerunique leftouter rightouter fullouter leftanti rightanti ' +
    'leftsemi rightsemi union lookup let set render count distinct mv-expand mv-apply parse parse-where with evaluate as ' +
    'make-series from to step range print datatable externaldata materialize invoke facet sample sample-distinct serialize ' +
    'getschema search find partition fork scan declare pattern of and or not in !in has !has has_any has_all hasprefix ' +
    'hassuffix contains !contains contains_cs startswith !startswith endswith !endswith matches regex between !between ' +
    'true false null table database cluster'
  ).split(' '),
);

// Scalar and aggregation functions a query most often calls.
const BUILTINS = new Set(
  (
    'ago now bin floor ceiling round abs sqrt log exp pow strlen strcat strcat_delim substring tolower toupper trim split ' +
    'replace_string extract extract_all parse_json todynamic tostring toint tolong toreal todouble tobool todatetime ' +
    'totimespan toguid todecimal iff iif case coalesce isnull isnotnull isempty isnotempty format_datetime format_timespan ' +
    'startofday endofday startofweek startofmonth dayofweek datetime_diff datetime_add pack bag_pack array_length ' +
    'count countif dcount dcountif sum sumif avg avgif min max minif maxif arg_max arg_min make_list make_set make_bag ' +
    'percentile percentiles stdev variance any take_any hash row_number prev next'
  ).split(' '),
);

const TYPES = new Set('string int long real double bool boolean datetime date timespan time dynamic guid uuid decimal'.split(' '));

interface KqlState {
  /** Inside a ``` multi-line string, which runs to the next ```. */
  inFence: boolean;
}

/** One token of KQL: a comment, a string, a number or timespan, a word, a management command or an operator. */
function token(stream: StringStream, state: KqlState): string | null {
  if (state.inFence) {
    if (stream.skipTo('```')) {
      stream.match('```');
      state.inFence = false;
    } else stream.skipToEnd();
    return 'string';
  }
  if (stream.eatSpace()) return null;
  if (stream.match('//')) {
    stream.skipToEnd();
    return 'comment';
  }
  if (stream.match('```')) {
    state.inFence = true;
    return token(stream, state) ?? 'string';
  }
  // Verbatim strings (@"…", h"…" obfuscated) and ordinary strings with backslash escapes.
  const quote = stream.match(/^[@hH]?(["'])/);
  if (quote) {
    const [opening, q] = quote as RegExpMatchArray;
    const verbatim = opening?.startsWith('@');
    for (let ch = stream.next(); ch != null; ch = stream.next()) {
      if (ch === q) break;
      if (ch === '\\' && !verbatim) stream.next();
    }
    return 'string';
  }
  // Numbers, and timespans such as 5m, 1.5h or 100ms.
  if (stream.match(/^\d+(\.\d+)?(e[+-]?\d+)?(ms|microsecond|tick|d|h|m|s)?\b/i)) return 'number';
  // A management command: .create table, .show functions …
  if (stream.sol() && stream.match(/^\.[a-z][\w-]*/i)) return 'meta';
  if (stream.match(/^!?[A-Za-z_][\w]*(-[A-Za-z_]+)*/)) {
    const word = stream.current();
    if (KEYWORDS.has(word.toLowerCase())) return 'keyword';
    if (word.startsWith('!')) {
      stream.backUp(word.length - 1);
      return 'operator';
    }
    if (TYPES.has(word)) return 'typeName';
    if (BUILTINS.has(word) && stream.match(/^\s*\(/, false)) return 'variableName.standard';
    // A hyphenated match that is not an operator (a-b) is a name followed by minus: give the rest back.
    if (word.includes('-')) stream.backUp(word.length - word.indexOf('-'));
    return 'variableName';
  }
  if (stream.match(/^(==|!=|=~|!~|<=|>=|\.\.|<>|[|=<>+\-*/%!])/)) return 'operator';
  if (stream.match(/^[()[\]{}]/)) return 'bracket';
  stream.next();
  return null;
}

/** The Kusto Query Language as a CodeMirror stream mode: keywords, functions, types, strings, comments and operators. */
export const kql = StreamLanguage.define<KqlState>({
  name: 'kql',
  startState: () => ({ inFence: false }),
  copyState: (s) => ({ ...s }),
  token,
  languageData: { commentTokens: { line: '//' }, closeBrackets: { brackets: ['(', '[', '{', '"', "'"] } },
});
