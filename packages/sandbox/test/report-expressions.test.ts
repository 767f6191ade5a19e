import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParameterValues } from '../src/reporting/params.js';
import type { RdlParameter } from '../src/reporting/rdl.js';
import { type EvalScope, ReportProcessingError, evaluate, usesRowFields } from '../src/reporting/render/expressions.js';

// The report language evaluator, table-driven: each row is an expression and the text a text box shows for it.

const param = (name: string, dataType: RdlParameter['dataType'], values: Array<string | null>, multiValue = false, labels?: string[]) =>
  [
    name,
    {
      parameter: { name, dataType, multiValue, nullable: true, allowBlank: true, hidden: false, prompt: name },
      values,
      labels: labels ?? values.map((v) => v ?? ''),
    },
  ] as [string, ParameterValues];

const rows = [
  { Region: 'West', City: 'Seattle', Amount: '1250.50', Day: '2025-01-15' },
  { Region: 'East', City: 'Boston', Amount: '2210.75', Day: '2025-01-20' },
  { Region: 'West', City: 'Portland', Amount: '830.00', Day: '2025-02-03' },
  { Region: 'East', City: 'New York', Amount: '', Day: '2025-02-02' },
];
const fieldNames = ['Region', 'City', 'Amount', 'Day'];

const base: EvalScope = {
  reportName: 'Sales',
  executionTime: new Date(Date.UTC(2025, 0, 15, 14, 5, 9)),
  user: { userId: 'ana@contoso.com', language: 'en-US' },
  renderFormat: 'DOCX',
  parameters: new Map([
    param('Region', 'String', ['West', 'East'], true, ['The west', 'The east']),
    param('Start', 'DateTime', ['2025-02-01']),
    param('Top', 'Integer', ['10']),
    param('Rate', 'Float', ['0.075']),
    param('Active', 'Boolean', ['True']),
    param('Missing', 'String', [null]),
  ]),
  scopes: new Map([
    ['Orders', { rows, fieldNames, dataSet: true }],
    ['OrdersTable', { rows, fieldNames, dataSet: false }],
  ]),
  reportItems: (name) => (name === 'Title' ? 'Sales report' : undefined),
};
const detail: EvalScope = { ...base, fields: rows[1], fieldNames, rows: [rows[1]!], region: { rows, index: 1 } };
const region: EvalScope = { ...base, rows, fieldNames };
const footer: EvalScope = { ...base, page: { number: 2, total: 3 } };

const CASES: Array<[string, string, EvalScope?]> = [
  // Literals.
  ['plain text', 'plain text'],
  ['="say ""hi"""', 'say "hi"'],
  ['=42', '42'],
  ['=1.5e3', '1500'],
  ['=&HFF', '255'],
  ['=#2025-03-04#', '3/4/2025 12:00:00 AM'],
  ['=#3/4/2025 1:30 PM#', '3/4/2025 1:30:00 PM'],
  ['=True', 'True'],
  ['=Nothing', ''],
  // Operators and precedence.
  ['=2 ^ 3 ^ 2', '64'],
  ['=-2 ^ 2', '-4'],
  ['=2 ^ -1', '0.5'],
  ['=1 + 2 * 3', '7'],
  ['=(1 + 2) * 3', '9'],
  ['=7 / 2', '3.5'],
  ['=7 \\ 2', '3'],
  ['=7 Mod 3', '1'],
  ['=10 - 4 - 3', '3'],
  ['=1 + 2 & 3', '33'],
  ['="a" + "b"', 'ab'],
  ['=1 + "2"', '3'],
  ['="n" & 1.5 & True & Nothing', 'n1.5True'],
  ['=0.1 + 0.2', '0.3'],
  ['=1 / 0', 'Infinity'],
  ['=1 = 1.0', 'True'],
  ['=2 <> 3', 'True'],
  ['="a" < "b"', 'True'],
  ['=3 > 5', 'False'],
  ['=3 <= 3', 'True'],
  ['=3 >= 4', 'False'],
  ['="Seattle" Like "S*t?le"', 'True'],
  ['="A1" Like "[A-C]#"', 'True'],
  ['="x" Like "[!x]"', 'False'],
  ['=Nothing Is Nothing', 'True'],
  ['="a" IsNot Nothing', 'True'],
  ['=Not 1 = 2', 'True'],
  ['=Not True And False', 'False'],
  ['=True Or False And False', 'True'],
  ['=True Xor True', 'False'],
  ['=False AndAlso CInt("x") = 1', 'False'],
  ['=True OrElse CInt("x") = 1', 'True'],
  ['=6 And 3', '2'],
  ['=6 Or 3', '7'],
  // Collections.
  ['=Parameters!Region.Value(1)', 'East'],
  ['=Join(Parameters!Region.Label, "/")', 'The west/The east'],
  ['=Parameters!Region.Count', '2'],
  ['=Parameters!Region.IsMultiValue', 'True'],
  ['=Parameters!Top.IsMultiValue', 'False'],
  ['=Parameters!Top.Value + 1', '11'],
  ['=Parameters!Rate.Value * 100', '7.5'],
  ['=Parameters!Active.Value', 'True'],
  ['=Parameters!Start.Value', '2/1/2025 12:00:00 AM'],
  ['="From " & Parameters!Start.Value', 'From 2/1/2025'],
  ['=IsNothing(Parameters!Missing.Value)', 'True'],
  ['=Parameters("Top").Value', '10'],
  ['=Globals!ReportName', 'Sales'],
  ['=Globals!ExecutionTime', '1/15/2025 2:05:09 PM'],
  ['=Globals!ReportFolder & "|" & Globals!ReportServerUrl', '|'],
  ['=Globals!RenderFormat.Name', 'WORDOPENXML'],
  ['=Globals!RenderFormat.IsInteractive', 'False'],
  ['=Globals!PageNumber & "/" & Globals!TotalPages', '2/3', footer],
  ['=Globals!OverallPageNumber & "/" & Globals!OverallTotalPages', '2/3', footer],
  ['=Globals!PageName', '', footer],
  ['=User!UserID', 'ana@contoso.com'],
  ['=User!Language', 'en-US'],
  ['=ReportItems!Title.Value', 'Sales report'],
  ['=Fields!City.Value', 'Boston', detail],
  ['=Fields!City.IsMissing', 'False', detail],
  ['=Fields!Amount.Value * 2', '4421.5', detail],
  ['=Fields("Region").Value', 'East', detail],
  // Dates.
  ['=Year(#2025-03-04#) & "-" & Month(#2025-03-04#) & "-" & Day(#2025-03-04#)', '2025-3-4'],
  ['=Hour(#3/4/2025 1:30:15 PM#) & ":" & Minute(#3/4/2025 1:30:15 PM#) & ":" & Second(#3/4/2025 1:30:15 PM#)', '13:30:15'],
  ['=DateAdd("d", -7, #2025-01-15#)', '1/8/2025 12:00:00 AM'],
  ['=DateAdd(DateInterval.Month, 1, #2025-01-31#)', '2/28/2025 12:00:00 AM'],
  ['=DateAdd("yyyy", 1, #2024-02-29#)', '2/28/2025 12:00:00 AM'],
  ['=DateAdd("q", 1, #2025-01-15#)', '4/15/2025 12:00:00 AM'],
  ['=DateAdd("ww", 2, #2025-01-01#)', '1/15/2025 12:00:00 AM'],
  ['=DateAdd("h", 25, #2025-01-01#)', '1/2/2025 1:00:00 AM'],
  ['=DateAdd("n", 90, #2025-01-01#)', '1/1/2025 1:30:00 AM'],
  ['=DateAdd("s", 61, #2025-01-01#)', '1/1/2025 12:01:01 AM'],
  ['=DateDiff("d", #2025-01-01#, #2025-03-01#)', '59'],
  ['=DateDiff(DateInterval.Month, #2025-01-31#, #2025-03-01#)', '2'],
  ['=DateDiff("yyyy", #2024-12-31#, #2025-01-01#)', '1'],
  ['=DateDiff("h", #2025-01-01#, #1/2/2025 6:00 AM#)', '30'],
  ['=DatePart("q", #2025-08-01#)', '3'],
  ['=DatePart("y", #2025-02-01#)', '32'],
  ['=DatePart(DateInterval.Weekday, #2025-01-15#)', '4'],
  ['=DateSerial(2025, 2, 30)', '3/2/2025 12:00:00 AM'],
  ['=DateValue("2025-05-06")', '5/6/2025 12:00:00 AM'],
  ['=CDate("3/4/2025")', '3/4/2025 12:00:00 AM'],
  ['=Weekday(#2025-01-15#)', '4'],
  ['=Weekday(#2025-01-15#, FirstDayOfWeek.Monday)', '3'],
  ['=WeekdayName(1)', 'Sunday'],
  ['=WeekdayName(2, True)', 'Mon'],
  ['=MonthName(12)', 'December'],
  ['=MonthName(2, True)', 'Feb'],
  ['=FormatDateTime(#2025-03-04#, DateFormat.LongDate)', 'Tuesday, March 4, 2025'],
  ['=FormatDateTime(#3/4/2025 1:30 PM#, DateFormat.ShortTime)', '13:30'],
  ['=FormatDateTime(#3/4/2025 1:30 PM#)', '3/4/2025 1:30:00 PM'],
  ['=DateDiff("d", Today(), Now()) = 0 And Hour(Today()) = 0', 'True'],
  ['=Today.AddDays(1) > Now', 'True'],
  ['=Globals!ExecutionTime.Year', '2025'],
  // Strings.
  ['=Len("hello") & Len(Nothing)', '50'],
  ['=Left("hello", 2) & "|" & Right("hello", 3) & "|" & Mid("hello", 2, 2) & "|" & Mid("hello", 3)', 'he|llo|el|llo'],
  ['=InStr("hello", "l") & InStr(4, "hello", "l") & InStr("hello", "z") & InStr("Hello", "h", CompareMethod.Text)', '3401'],
  ['=InStrRev("hello", "l")', '4'],
  ['=Replace("a-b-c", "-", "+")', 'a+b+c'],
  ['="[" & Trim("  x  ") & "][" & LTrim("  x") & "][" & RTrim("x  ") & "]"', '[x][x][x]'],
  ['=UCase("abc") & LCase("DEF")', 'ABCdef'],
  ['=StrComp("a", "b") & StrComp("b", "a") & StrComp("A", "a", 1)', '-110'],
  ['="[" & Space(3) & "]"', '[   ]'],
  ['=StrReverse("abc")', 'cba'],
  ['=Split("a,b,c", ",")(1)', 'b'],
  ['=Join(Split("a b c"), "-")', 'a-b-c'],
  ['=Join(Parameters!Region.Value, ", ")', 'West, East'],
  ['="a" & vbTab & "b"', 'a\tb'],
  ['="abc".ToUpper() & "XY".Length', 'ABC2'],
  ['=Chr(65) & Asc("a")', 'A97'],
  // Format with .NET format strings.
  ['=Format(1234.567, "N2")', '1,234.57'],
  ['=Format(1234.5, "N0")', '1,235'],
  ['=Format(1234.5, "C")', '$1,234.50'],
  ['=Format(-1234.5, "C")', '($1,234.50)'],
  ['=Format(0.256, "P1")', '25.6 %'],
  ['=Format(3.14159, "F3")', '3.142'],
  ['=Format(42, "D5")', '00042'],
  ['=Format(255, "X")', 'FF'],
  ['=Format(12345.6789, "E2")', '1.23E+004'],
  ['=Format(1234.5, "#,##0.00")', '1,234.50'],
  ['=Format(0.5, "0%")', '50%'],
  ['=Format(-5, "0;(0)")', '(5)'],
  ['=Format(7, "000")', '007'],
  ['=Format(1234567, "#,##0,K")', '1,235K'],
  ['=Format(#2025-03-04#, "yyyy-MM-dd")', '2025-03-04'],
  ['=Format(#3/4/2025 1:05 PM#, "dddd d MMMM yy, hh:mm tt")', 'Tuesday 4 March 25, 01:05 PM'],
  ['=Format(#3/4/2025 1:05 PM#, "d")', '3/4/2025'],
  ['=Format(#3/4/2025 1:05 PM#, "D")', 'Tuesday, March 4, 2025'],
  ['=Format(#3/4/2025 1:05 PM#, "g")', '3/4/2025 1:05 PM'],
  ['=Format(#3/4/2025 1:05 PM#, "s")', '2025-03-04T13:05:00'],
  ['=Format(#3/4/2025 1:05 PM#, "MMM yyyy")', 'Mar 2025'],
  ['=Format(#3/4/2025 1:05 PM#, "Short Date")', '3/4/2025'],
  ['=Format(1, "Yes/No")', 'Yes'],
  ['=Format(Fields!Day.Value, "MMM d")', 'Jan 20', detail],
  ['=Format("2025-01-15T10:30:00.000Z", "t")', '10:30 AM'],
  ['=Format("text", "N2")', 'text'],
  ['=FormatNumber(1234.5)', '1,234.50'],
  ['=FormatNumber(1234.5, 0)', '1,235'],
  ['=FormatCurrency(1234.5)', '$1,234.50'],
  ['=FormatPercent(0.125, 1)', '12.5%'],
  ['=(1234.5).ToString("N1")', '1,234.5'],
  // Math.
  ['=Abs(-3)', '3'],
  ['=Round(2.5) & Round(3.5) & Round(-2.5)', '24-2'],
  ['=Round(1.2345, 2)', '1.23'],
  ['=Math.Round(2.675, 1)', '2.7'],
  ['=Floor(2.7) & Ceiling(2.1) & Math.Floor(-2.5)', '23-3'],
  ['=Sqrt(16) & Math.Sqrt(2.25)', '41.5'],
  ['=Pow(2, 10) & "|" & Math.Pow(9, 0.5)', '1024|3'],
  ['=Int(-2.5) & Fix(-2.5)', '-3-2'],
  ['=Sign(-4) & Sign(0) & Math.Sign(3)', '-101'],
  ['=Min(3, 9) & Max(3, 9) & Math.Min(-1, 1) & Math.Max(2, 5)', '39-15'],
  ['=Math.Abs(-1.5) & "|" & Math.Truncate(9.9)', '1.5|9'],
  // Conversion and inspection.
  ['=CStr(12.50)', '12.5'],
  ['=CInt("42") + 1', '43'],
  ['=CInt(2.5) & CInt(3.5)', '24'],
  ['=CLng("123456789012")', '123456789012'],
  ['=CDbl("1.25") * 2', '2.5'],
  ['=CDec("0.1") + CDec("0.2")', '0.3'],
  ['=CBool("true") & CBool(0) & CBool(2)', 'TrueFalseTrue'],
  ['=Val("12.5abc") + Val("x")', '12.5'],
  ['=IsNothing(Nothing) & IsNothing("")', 'TrueFalse'],
  ['=IsNumeric("1,234.5") & IsNumeric("abc") & IsNumeric(3)', 'TrueFalseTrue'],
  ['=IsDate("2025-02-30") & IsDate("2/28/2025") & IsDate(Today())', 'FalseTrueTrue'],
  // Decision.
  ['=IIf(Parameters!Top.Value > 5, "many", "few")', 'many'],
  ['=Switch(Parameters!Top.Value < 5, "low", Parameters!Top.Value < 50, "mid", True, "high")', 'mid'],
  ['=Switch(False, 1)', ''],
  ['=Choose(2, "a", "b", "c")', 'b'],
  ['=Choose(9, "a")', ''],
  ['=If(1 > 2, CInt("bad"), "ok")', 'ok'],
  ['=If(Nothing, "fallback")', 'fallback'],
  // Aggregates, RowNumber and Previous.
  ['=Sum(Fields!Amount.Value)', '4291.25', region],
  ['=Sum(Fields!Amount.Value, "Orders")', '4291.25'],
  ['=Avg(Fields!Amount.Value, "Orders")', '1430.41666666667'],
  ['=Count(Fields!City.Value, "Orders")', '4'],
  ['=CountDistinct(Fields!Region.Value, "OrdersTable")', '2'],
  ['=CountRows("Orders") & CountRows()', '44', region],
  ['=Min(Fields!Amount.Value, "Orders") & "|" & Max(Fields!Amount.Value, "Orders")', '830.00|2210.75', region],
  ['=Min(CDbl(Fields!Amount.Value), "Orders")', '0'],
  ['=Count(Fields!Amount.Value, "Orders") & IsNothing(Last(Fields!Amount.Value, "Orders"))', '3True'],
  ['=Max(CDate(Fields!Day.Value), "Orders")', '2/3/2025 12:00:00 AM'],
  ['=First(Fields!City.Value, "Orders") & "|" & Last(Fields!City.Value, "Orders")', 'Seattle|New York'],
  ['=Sum(Fields!Amount.Value)', '4291.25'],
  ['=Sum(IIf(Fields!Region.Value = "West", 1, 0), "Orders")', '2'],
  ['=Sum(Fields!Amount.Value)', '2210.75', detail],
  ['=RowNumber(Nothing)', '2', detail],
  ['=Previous(Fields!City.Value)', 'Seattle', detail],
  ['=Fields!City.Value', 'Seattle'],
  // Runtime errors show #Error and the report still renders.
  ['=CInt("abc")', '#Error'],
  ['=CDate("not a date")', '#Error'],
  ['=7 \\ 0', '#Error'],
  ['=Parameters!Region.Value(5)', '#Error'],
  ['=Parameters!Region.Value', '#Error'],
  ['=Mid("abc", 0)', '#Error'],
  ['=DateAdd("fortnight", 1, Today())', '#Error'],
  ['=Sum(Fields!City.Value, "Orders")', '#Error'],
];

test('the report language: operators, collections and functions evaluate as the service evaluates them', () => {
  const wrong = CASES.flatMap(([expr, expected, scope]) => {
    const got = evaluate(expr, scope ?? base);
    return got === expected ? [] : [`${expr} gave ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`];
  });
  assert.deepEqual(wrong, []);
  assert.ok(CASES.length >= 200, `${CASES.length} cases`);
});

const REFUSED: Array<[string, string, RegExp, EvalScope?]> = [
  ['=Foo(1)', 'rsCompilerErrorInExpression', /\[BC30451\] Name 'Foo' is not declared/],
  [
    '=Code.Discount(Fields!Amount.Value)',
    'rsCompilerErrorInExpression',
    /'Discount' is not a member of 'Code': the sandbox does not run a report's custom code/,
  ],
  [
    '=Lookup(Fields!City.Value, Fields!City.Value, Fields!Region.Value, "Other")',
    'rsCompilerErrorInExpression',
    /Name 'Lookup' is not declared/,
  ],
  ['=Contoso.Finance.Tax(1)', 'rsCompilerErrorInExpression', /Name 'Contoso' is not declared|'Tax' is not a member/],
  ['=Math.Frobnicate(1)', 'rsCompilerErrorInExpression', /\[BC30456\] 'Frobnicate' is not a member of 'math'/],
  ['=Variables!Total.Value', 'rsCompilerErrorInExpression', /Name 'Variables' is not declared/],
  [
    '=Left("abc")',
    'rsCompilerErrorInExpression',
    /\[BC30516\] Overload resolution failed because no accessible 'Left' accepts this number of arguments/,
  ],
  ['="unterminated', 'rsCompilerErrorInExpression', /\[BC30648\] String constants must end with a double quote/],
  ['=1 +', 'rsCompilerErrorInExpression', /\[BC30201\] Expression expected/],
  ['=(1 + 2', 'rsCompilerErrorInExpression', /'\)' expected/],
  ['=1 2', 'rsCompilerErrorInExpression', /End of statement expected/],
  [
    '=Parameters!region.Value',
    'rsParameterReference',
    /refers to a non-existing report parameter 'region'. Letters in the names of parameters must use the correct case/,
  ],
  ['=Fields!Nope.Value', 'rsFieldReference', /refers to the field 'Nope'/, detail],
  ['=Globals!PageNumber', 'rsCompilerErrorInExpression', /Globals!PageNumber can only be used in a page header or footer/],
  ['=Globals!Nope', 'rsCompilerErrorInExpression', /'Nope' is not a member of 'Globals'/],
  ['=User!Name', 'rsCompilerErrorInExpression', /'Name' is not a member of 'User'/],
  ['=ReportItems!Other.Value', 'rsReportItemReference', /refers to the report item 'Other'/],
  ['=Sum(Fields!Amount.Value, "NoSuchScope")', 'rsInvalidAggregateScope', /scope parameter 'NoSuchScope' that is not valid/],
  ['=Sum(Fields!Amount.Value, Parameters!Top.Value)', 'rsInvalidAggregateScope', /must be set to a string constant/],
  ['=Previous(Fields!City.Value)', 'rsInvalidPreviousAggregateUsage', /outside of a data region detail row/, region],
];

test('the report language: what the service cannot compile fails the render with its processing error', () => {
  for (const [expr, code, message, scope] of REFUSED) {
    assert.throws(
      () => evaluate(expr, scope ?? base, "Value expression for the textrun 'Box.Paragraphs[0].TextRuns[0]'"),
      (err: unknown) => {
        assert.ok(err instanceof ReportProcessingError, `${expr}: ${err}`);
        assert.equal(err.code, code, expr);
        assert.match(
          err.message,
          /^An error has occurred during report processing\. \(rsProcessingAborted\) The Value expression for the textrun 'Box\.Paragraphs\[0\]\.TextRuns\[0\]' /,
          expr,
        );
        assert.match(err.message, message, expr);
        assert.ok(err.message.endsWith(`(${code})`), expr);
        return true;
      },
    );
  }
  // Outside a data region with two data sets, an aggregate needs its scope.
  const two: EvalScope = { ...base, scopes: new Map([...base.scopes!, ['Other', { rows: [], fieldNames: [], dataSet: true }]]) };
  assert.throws(
    () => evaluate('=Sum(Fields!Amount.Value)', two),
    (err: unknown) => err instanceof ReportProcessingError && err.code === 'rsMissingAggregateScope',
  );
  assert.throws(
    () => evaluate('=Fields!City.Value', two),
    (err: unknown) => err instanceof ReportProcessingError && err.code === 'rsFieldReference',
  );
});

test('a table row is a detail row when it reads fields outside an aggregate', () => {
  assert.equal(usesRowFields('=Fields!City.Value'), true);
  assert.equal(usesRowFields('=UCase(Fields!City.Value) & "!"'), true);
  assert.equal(usesRowFields('=Sum(Fields!Amount.Value)'), false);
  assert.equal(usesRowFields('="Total: " & Count(Fields!City.Value, "Orders")'), false);
  assert.equal(usesRowFields('=RowNumber(Nothing)'), true);
  assert.equal(usesRowFields('Amount'), false);
});
