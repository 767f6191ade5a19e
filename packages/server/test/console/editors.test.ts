// The console's code editors in Chromium (issue 22): CodeMirror with highlighting for Python, KQL, T-SQL, JSON and RDL,
// line numbers, search and bracket matching, loaded only where an editor is shown; JSON that does not parse cannot be
// saved; the service's refusals (an RDL check, a content field) are shown at their line.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { webDarkTheme } from '@fluentui/tokens';
import type { Locator, Page } from 'playwright-core';
import { startRig, type ConsoleRig } from './browser.js';
import { editorText, setEditorText } from './code-editor.js';

const NOTEBOOK = {
  language: 'python',
  cells: [
    { kind: 'markdown', source: '# Floor sessions' },
    { kind: 'code', source: 'import pandas as pd\n# sessions of the last day\ndf = spark.read.table("sessions")\nprint(df.count())' },
  ],
};
const QUERYSET = {
  database: 'floor-db',
  queries: [
    { name: 'Recent spins', text: 'Spins\n| where Timestamp > ago(1h) // the last hour\n| summarize count() by Machine, Zone = "A"' },
  ],
};
const WAREHOUSE = { ddl: ['CREATE TABLE [dbo].[Machines] (Id INT NOT NULL, Zone NVARCHAR(20))'] };

/** The colour of text the grammar gives no style: the editor's first line. */
const plainOf = (editor: Locator) =>
  editor
    .locator('.cm-line')
    .first()
    .evaluate((el) => getComputedStyle(el).color);

/** The colour a token of the editor is drawn in: the first span of the editor whose text is `word`. */
async function colourOf(editor: Locator, word: string): Promise<string> {
  const span = editor.locator('span', { hasText: new RegExp(`^${word.replace(/[()[\]|.]/g, '\\$&')}$`) }).first();
  await span.waitFor();
  return span.evaluate((el) => getComputedStyle(el).color);
}

describe('code editors in Chromium: CodeMirror, loaded where used, lint at the service’s lines', { timeout: 300_000 }, () => {
  let rig: ConsoleRig;
  let ws = '';
  const ids: Record<string, string> = {};
  const api = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Record<string, string> = {}) => {
    const r = await rig.h.app.inject({ method, url, headers: { ...rig.tenant.auth, ...headers }, ...(payload ? { payload } : {}) });
    return { status: r.statusCode, json: r.json() };
  };
  const open = async (page: Page, name: string) => {
    await page.goto(`/workspaces/${ws}/items/${ids[name]}`);
    await page.getByRole('tab', { name: 'JSON' }).waitFor();
  };

  before(async () => {
    rig = await startRig();
    ws = (await api('POST', '/api/workspaces', { name: 'Editors' })).json.workspace.id;
    const make = async (displayName: string, itemType: string, content: object) => {
      const r = await api('POST', `/api/workspaces/${ws}/items`, { itemType, displayName, content });
      assert.equal(r.status, 201, JSON.stringify(r.json));
      ids[displayName] = r.json.item.id;
    };
    await make('Floor notebook', 'notebook', NOTEBOOK);
    await make('Spin queries', 'kql-queryset', QUERYSET);
    await make('Floor warehouse', 'warehouse', WAREHOUSE);
    await make('Agent notes', 'data-agent', { instructions: 'Answer about the floor', sources: ['floor'] });
    await make('Empty cell', 'notebook', { language: 'python', cells: [{ kind: 'code', source: 'print(1)' }] });
    const { page } = rig;
    await page.goto('/sign-in');
    await page.getByLabel('API token').fill(rig.tenant.token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workspaces$/);
  });
  after(async () => {
    await rig?.close();
  });

  test('notebook cells are CodeMirror editors: Python highlighting, line numbers, search, brackets; loaded only with the editor', async () => {
    const { page } = rig;
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto(`/workspaces/${ws}`);
    await page.getByRole('link', { name: 'Floor notebook' }).waitFor();
    assert.ok(!scripts.some((u) => /CodeEditor|lang-python|dist-/.test(u)), `no editor code on the workspace page: ${scripts.join(' ')}`);

    await page.getByRole('link', { name: 'Floor notebook' }).click();
    const cell = page.getByLabel('Cell 2 source');
    await cell.waitFor();
    assert.ok(
      scripts.some((u) => /CodeEditor-/.test(u)),
      'the editor chunk is loaded with the item',
    );
    assert.equal(await cell.getAttribute('role'), 'textbox');
    assert.equal(await cell.getAttribute('contenteditable'), 'true');
    assert.equal(await editorText(cell), NOTEBOOK.cells[1]!.source);
    const box = page.getByTestId('notebook-cell').nth(1);
    assert.deepEqual(
      await box
        .locator('.cm-lineNumbers .cm-gutterElement')
        .allInnerTexts()
        .then((t) => t.filter((x) => /^\d+$/.test(x))),
      ['1', '2', '3', '4'],
    );
    // Highlighting: a keyword, a string and a comment each have a colour of their own, unlike a plain name.
    const plain = await plainOf(cell);
    const keyword = await colourOf(cell, 'import');
    const string = await colourOf(cell, '"sessions"');
    const comment = await colourOf(cell, '# sessions of the last day');
    assert.equal(new Set([plain, keyword, string, comment]).size, 4, `${plain} ${keyword} ${string} ${comment}`);

    // Typing reaches the draft; a closing bracket is matched with its opening one.
    await cell.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('print(len(df)');
    await page.keyboard.press('End');
    assert.equal(await cell.locator('.cm-matchingBracket').count(), 2, 'the bracket before the cursor and its partner');
    await rig.shot('editors-01-python');
    assert.match(await editorText(cell), /print\(df\.count\(\)\)\nprint\(len\(df\)\)$/);

    // Search (Ctrl-F) finds in the cell.
    await page.keyboard.press('Control+f');
    const find = box.getByRole('textbox', { name: 'Find' });
    await find.waitFor();
    await find.fill('df');
    await page.keyboard.press('Enter');
    assert.equal(await cell.locator('.cm-searchMatch').count(), 3);
    await rig.shot('editors-02-search');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const stored = await api('GET', `/api/workspaces/${ws}/items/${ids['Floor notebook']}/content`);
    assert.match(stored.json.content.cells[1].source, /\nprint\(len\(df\)\)$/);
  });

  test('KQL queries and warehouse T-SQL are highlighted in their languages', async () => {
    const { page } = rig;
    await open(page, 'Spin queries');
    const query = page.getByLabel('Query 1 KQL');
    await query.waitFor();
    assert.equal(await editorText(query), QUERYSET.queries[0]!.text);
    const name = await plainOf(query);
    const where = await colourOf(query, 'where');
    const summarize = await colourOf(query, 'summarize');
    const ago = await colourOf(query, 'ago');
    const text = await colourOf(query, '"A"');
    const comment = await colourOf(query, '// the last hour');
    assert.equal(where, summarize, 'operators share the keyword colour');
    assert.equal(new Set([name, where, ago, text, comment]).size, 5, `${name} ${where} ${ago} ${text} ${comment}`);
    await rig.shot('editors-03-kql');

    await open(page, 'Floor warehouse');
    const batch = page.getByLabel('Batch 1', { exact: true });
    await batch.waitFor();
    const create = await colourOf(batch, 'CREATE');
    const type = await colourOf(batch, 'NVARCHAR');
    assert.equal(new Set([await plainOf(batch), create, type]).size, 3, 'T-SQL keywords and types are highlighted');
    await rig.shot('editors-04-sql');

    // The editor draws with Fluent's tokens: given the dark theme's values, it is dark, its syntax in the dark palette.
    await open(page, 'Spin queries');
    await query.waitFor();
    const light = { where: await colourOf(query, 'where'), text: await colourOf(query, '"A"') };
    await page
      .locator('.fui-FluentProvider')
      .first()
      .evaluate(
        (el, theme) => {
          for (const [k, v] of Object.entries(theme)) (el as HTMLElement).style.setProperty(`--${k}`, String(v));
        },
        webDarkTheme as unknown as Record<string, string | number>,
      );
    const editor = query.locator('xpath=ancestor::div[contains(@class,"cm-editor")]');
    assert.equal(
      await editor.evaluate((el) => getComputedStyle(el).backgroundColor),
      'rgb(41, 41, 41)',
      'colorNeutralBackground1 of the dark theme',
    );
    assert.notEqual(await colourOf(query, 'where'), light.where);
    assert.notEqual(await colourOf(query, '"A"'), light.text);
    await rig.shot('editors-10-kql-dark');
  });

  test('JSON that does not parse cannot be saved: the error is named at its line and column, never below a "Saved"', async () => {
    const { page } = rig;
    await open(page, 'Agent notes');
    const json = page.getByLabel('Content of Agent notes');
    await json.waitFor();
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await setEditorText(json, '{\n  "instructions": "Answer about the casino floor",\n  "sources": ["floor"]\n}');
    await page.getByText('Unsaved changes').waitFor();
    assert.ok(await save.isEnabled());

    // Break it: a missing comma at the end of line 2, found at line 3.
    const broken = '{\n  "instructions": "Answer about the casino floor"\n  "sources": ["floor"]\n}';
    await setEditorText(json, broken);
    const error = page.getByText(/^Not valid JSON at line 3, column \d+:/);
    await error.waitFor();
    assert.ok(await save.isDisabled(), 'Save is disabled while the text does not parse');
    await page.getByText('Not valid JSON: nothing to save').waitFor();
    assert.equal(await page.getByText('Saved', { exact: true }).count(), 0);
    assert.equal(await json.locator('.cm-lintRange-error').count(), 1, 'the error is marked in the text');
    await rig.shot('editors-05-json-refuses');
    const before = await api('GET', `/api/workspaces/${ws}/items/${ids['Agent notes']}/content`);
    assert.equal(before.json.content.instructions, 'Answer about the floor', 'nothing was saved');

    // Fixed, it saves; broken again after the save, the note says so rather than "Saved".
    await setEditorText(json, broken.replace('casino floor"', 'casino floor",'));
    await save.click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const saved = await api('GET', `/api/workspaces/${ws}/items/${ids['Agent notes']}/content`);
    assert.equal(saved.json.content.instructions, 'Answer about the casino floor');
    await setEditorText(json, '{ "instructions": ');
    await page.getByText(/^Not valid JSON at line 1, column 19:/).waitFor();
    assert.equal(await page.getByText('Saved', { exact: true }).count(), 0, 'no "Saved" above the error');
    assert.ok(await save.isDisabled());
  });

  test('a content field the service refuses is marked at its line, in the cell and in the JSON', async () => {
    const { page } = rig;
    await open(page, 'Empty cell');
    const cell = page.getByLabel('Cell 1 source');
    await setEditorText(cell, '');
    await page.getByRole('button', { name: 'Save and apply' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'content/cells/0/source' });
    await refusal.waitFor();
    await page.getByTestId('notebook-cell').locator('.cm-lint-marker-error').waitFor();
    await rig.shot('editors-06-field-in-cell');

    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = page.getByLabel('Content of Empty cell');
    await json.waitFor();
    const marked = json.locator('.cm-line', { has: page.locator('.cm-lintRange-error') });
    await marked.waitFor();
    assert.match(await marked.innerText(), /"source": ""/);
    const at = (await editorText(json)).split('\n').findIndex((l) => l.includes('"source": ""')) + 1;
    await page.getByText(new RegExp(`^Line ${at}: body/content/cells/0/source`)).waitFor();
    assert.equal(await json.locator('xpath=ancestor::div[contains(@class,"cm-editor")]').locator('.cm-lint-marker-error').count(), 1);
    await rig.shot('editors-07-field-in-json');
  });

  test('the RDL editor marks the refused line and lists the faults', async () => {
    const { page } = rig;
    await page.goto(`/reports?workspace=${ws}`);
    await page.getByRole('tree', { name: 'Paginated reports' }).getByText('Sales by Region').click();
    await page.getByRole('tab', { name: 'Definition (RDL)' }).click();
    const source = page.getByLabel('RDL source');
    await source.waitFor();
    const original = await editorText(source);
    await setEditorText(source, original.replace('<DataType>DateTime</DataType>', '<DataType>Date</DataType>'));
    await page.getByRole('button', { name: 'Publish' }).click();
    const faults = page.getByTestId('definition-faults');
    await faults.waitFor();
    const [first] = await faults.getByRole('listitem').allInnerTexts();
    const line = Number(/^Line (\d+), <DataType>: DataType 'Date' is not one of/.exec(first ?? '')?.[1]);
    assert.ok(line > 1, first);
    // The marked line is the line the service named, and holds the refused value.
    const marked = source.locator('.cm-line', { has: page.locator('.cm-lintRange-error') });
    await marked.waitFor();
    assert.match(await marked.innerText(), /<DataType>Date<\/DataType>/);
    assert.match((await editorText(source)).split('\n')[line - 1] ?? '', /<DataType>Date<\/DataType>/);
    await rig.shot('editors-08-rdl-faults');

    // A listed fault is a link to its line: the cursor goes there, in view, and the editor has the focus.
    await faults.getByRole('button', { name: /^Line \d+, <DataType>/ }).click();
    const active = source.locator('.cm-activeLine');
    await active.getByText(/<DataType>Date<\/DataType>/).waitFor();
    assert.ok(await source.evaluate((el) => el.contains(document.activeElement)), 'the editor has the focus');
    assert.ok(await active.isVisible());
    await rig.shot('editors-09-rdl-line');
  });
});
