import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  boundItemKeys,
  CatalogError,
  DEFAULT_CATALOG_DIR,
  describeApp,
  expandSeedTokens,
  ITEM_TYPES,
  loadApp,
  loadCatalog,
  resolveBindings,
} from '../src/catalog/index.js';
import type { ActivatorContent, KqlDatabaseContent, ReportContent, SearchIndexContent } from '../src/catalog/index.js';

// SPEC.md "Curated app catalog": the live and stored item types of each app (stored reports are power-bi-report).
const SPEC_TABLE: Record<string, { live: string[]; stored: string[] }> = {
  'app-casino-analytics': {
    live: ['lakehouse', 'notebook', 'kql-database', 'activator', 'semantic-model', 'report'],
    stored: ['dashboard'],
  },
  'app-iot-realtime': { live: ['eventhouse', 'eventstream', 'kql-database', 'activator', 'kql-dashboard'], stored: ['dashboard'] },
  'app-healthcare-popmgt': { live: ['lakehouse', 'warehouse', 'semantic-model', 'search-index'], stored: ['power-bi-report'] },
  'app-fedramp-tracker': { live: ['lakehouse', 'notebook', 'search-index', 'activator'], stored: ['scorecard'] },
  'app-rag-builder': { live: ['search-index', 'notebook', 'eventstream'], stored: ['prompt-flow'] },
  'app-pipeline-designer': { live: ['data-pipeline', 'notebook', 'lakehouse'], stored: ['dataflow-spec'] },
  'app-lakehouse-inspector': { live: ['lakehouse', 'notebook'], stored: ['power-bi-report'] },
  'app-data-steward': { live: ['search-index', 'activator'], stored: ['data-product'] },
  'app-finops-cost': { live: ['kql-database', 'lakehouse', 'kql-dashboard', 'activator'], stored: ['scorecard'] },
  'app-mirror-onboard': { live: ['mirrored-database', 'notebook'], stored: [] },
};

const catalog = loadCatalog();
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

describe('the curated catalog', () => {
  test('holds the ten apps of the spec, each with 8 to 12 items of the spec’s live and stored types', () => {
    assert.deepEqual(sorted(catalog.apps.map((a) => a.id)), sorted(Object.keys(SPEC_TABLE)));
    for (const app of catalog.apps) {
      assert.ok(app.items.length >= 8 && app.items.length <= 12, `${app.id} has ${app.items.length} items`);
      const want = SPEC_TABLE[app.id]!;
      assert.deepEqual(sorted(app.items.filter((i) => i.provisioning === 'live').map((i) => i.itemType)), sorted(want.live), app.id);
      assert.deepEqual(sorted(app.items.filter((i) => i.provisioning === 'stored').map((i) => i.itemType)), sorted(want.stored), app.id);
      assert.equal(catalog.get(app.id), app);
      assert.ok(Object.isFrozen(app.items[0]!.content), 'the loaded catalog is frozen');
    }
    assert.equal(catalog.get('app-nope'), undefined);
  });

  test('KQL tables carry 5 to 30 seed rows whose datetimes are relative to install time', () => {
    for (const app of catalog.apps) {
      for (const item of app.items.filter((i) => i.itemType === 'kql-database' || i.itemType === 'eventhouse')) {
        for (const t of (item.content as KqlDatabaseContent).tables) {
          const rows = t.seedRows ?? [];
          assert.ok(rows.length >= 5 && rows.length <= 30, `${app.id}/${item.key}/${t.name} has ${rows.length} rows`);
          t.columns.forEach((c, i) => {
            if (c.type === 'datetime')
              for (const r of rows)
                assert.ok(r[i] === null || /^\$\{now([+-]\d+[smhd])?\}$/.test(String(r[i])), `${t.name}.${c.name}: ${r[i]}`);
          });
        }
      }
    }
  });

  test('search indexes hold 5 to 20 documents; activators name an example.gov address or a Teams channel', () => {
    for (const app of catalog.apps) {
      for (const item of app.items) {
        if (item.itemType === 'search-index') {
          const n = (item.content as SearchIndexContent).documents.length;
          assert.ok(n >= 5 && n <= 20, `${app.id}/${item.key} has ${n} documents`);
        }
        if (item.itemType === 'activator') {
          for (const t of (item.content as ActivatorContent).triggers) {
            const r = t.action.receiver;
            assert.ok(t.action.kind === 'email' ? r.endsWith('@example.gov') : / \/ /.test(r), `${item.key}: ${r}`);
          }
        }
      }
    }
  });

  test('the pipeline designer has both pipeline variants; the casino report is a full RDL 2016/01 report', () => {
    const variants = catalog
      .get('app-pipeline-designer')!
      .items.filter((i) => i.itemType === 'data-pipeline')
      .map((i) => (i.content as { variant: string }).variant);
    assert.deepEqual(sorted(variants), ['copy', 'notebook']);
    const report = catalog.get('app-casino-analytics')!.items.find((i) => i.itemType === 'report')!;
    const rdl = (report.content as ReportContent).rdl;
    for (const needle of [
      '<DataProvider>PBIDATASET</DataProvider>',
      '${item:floor-model.id}',
      '<MultiValue>true</MultiValue>',
      '<ValidValues>',
      '<Tablix ',
      'Globals!PageNumber',
      'Globals!TotalPages',
      'Globals!ExecutionTime',
    ]) {
      assert.ok(rdl.includes(needle), `RDL lacks ${needle}`);
    }
    for (const type of ['Boolean', 'DateTime', 'Integer', 'Float', 'String'])
      assert.ok(rdl.includes(`<DataType>${type}</DataType>`), `no ${type} parameter`);
  });

  test('every item type is known, and describeApp tells live from stored with the backing service', () => {
    const types = new Set(ITEM_TYPES.map((t) => t.id));
    for (const app of catalog.apps) for (const i of app.items) assert.ok(types.has(i.itemType));
    const plan = describeApp(catalog.get('app-casino-analytics')!);
    assert.equal(plan.totalItems, 10);
    assert.equal(plan.live + plan.stored, 10);
    const byKey = new Map(plan.items.map((i) => [i.key, i]));
    assert.equal(byKey.get('floor-kql')!.backing, 'kql');
    assert.match(byKey.get('floor-kql')!.action, /\.create table ×2/);
    assert.equal(byKey.get('floor-report')!.backing, 'reporting');
    assert.equal(byKey.get('floor-dashboard')!.provisioning, 'stored');
    assert.equal(byKey.get('floor-dashboard')!.backing, undefined);
  });
});

describe('expandSeedTokens', () => {
  const now = new Date('2025-06-01T12:00:00.000Z');
  test('replaces clock tokens recursively and leaves other text alone', () => {
    const out = expandSeedTokens(
      {
        rows: [
          ['${now}', '${now-5m}', 3, null],
          ['${now-2h}', '${now-3d}', true, '${now+30s}'],
        ],
        q: 'since ${now-1h}',
        other: '${item:x.id}',
      },
      now,
    );
    assert.deepEqual(out, {
      rows: [
        ['2025-06-01T12:00:00.000Z', '2025-06-01T11:55:00.000Z', 3, null],
        ['2025-06-01T10:00:00.000Z', '2025-05-29T12:00:00.000Z', true, '2025-06-01T12:00:30.000Z'],
      ],
      q: 'since 2025-06-01T11:00:00.000Z',
      other: '${item:x.id}',
    });
  });
  test('works on frozen catalog content without changing it', () => {
    const kql = catalog.get('app-iot-realtime')!.items.find((i) => i.key === 'telemetry-kql')!.content as KqlDatabaseContent;
    const rows = expandSeedTokens(kql.tables[0]!.seedRows!, now);
    assert.match(String(rows[0]![0]), /^2025-06-01T11:\d\d:00\.000Z$/);
    assert.match(String(kql.tables[0]!.seedRows![0]![0]), /^\$\{now-/);
  });
});

describe('install-time bindings', () => {
  test('a pipeline names every notebook and pipeline it runs; resolveBindings swaps in live ids', () => {
    const nightly = catalog.get('app-pipeline-designer')!.items.find((i) => i.key === 'nightly-pipeline')!;
    assert.deepEqual(sorted(boundItemKeys(nightly.content)), ['copy-pipeline', 'dq-notebook', 'gold-notebook', 'silver-notebook']);
    const live = resolveBindings(nightly.content, (t) =>
      t === 'workspace.id' ? 'ws-1' : t.startsWith('item:') ? `id-of-${t.slice(5, -3)}` : undefined,
    ) as any;
    assert.equal(live.activities[1].typeProperties.notebookId, 'id-of-silver-notebook');
    assert.equal(live.activities[1].typeProperties.workspaceId, 'ws-1');
    assert.equal(
      resolveBindings('${now-5m} ${bi.apiHost}', () => undefined),
      '${now-5m} ${bi.apiHost}',
    );
  });
});

describe('a broken app is refused with the app, item and problem named', () => {
  const root = mkdtempSync(join(tmpdir(), 'catalog-test-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;

  /** A fresh copy of an app, changed by `edit(path of a JSON file) → new value`. */
  function broken(appId: string, file: string, edit: (json: any) => unknown): string {
    const dir = join(root, String(++n), appId);
    cpSync(join(DEFAULT_CATALOG_DIR, appId), dir, { recursive: true });
    const path = join(dir, file);
    writeFileSync(path, JSON.stringify(edit(JSON.parse(readFileSync(path, 'utf8')))));
    return dir;
  }
  function refuses(dir: string, item: string | undefined, problem: RegExp) {
    assert.throws(
      () => loadApp(dir),
      (err: unknown) => {
        assert.ok(err instanceof CatalogError, String(err));
        assert.equal(err.itemKey, item, err.message);
        assert.match(err.problem, problem);
        assert.match(err.message, new RegExp(`^catalog app '${err.appId}'`));
        return true;
      },
    );
  }

  test('a dangling edge', () => {
    refuses(
      broken('app-casino-analytics', 'app.json', (m) => ({
        ...m,
        edges: [...m.edges, { from: 'kpi-notebook', to: 'ghost-lakehouse', kind: 'feeds' }],
      })),
      undefined,
      /to 'ghost-lakehouse' is not an item of this app/,
    );
  });
  test('an edge of a kind the two types cannot have', () => {
    refuses(
      broken('app-casino-analytics', 'app.json', (m) => ({
        ...m,
        edges: [...m.edges, { from: 'floor-kql', to: 'floor-report', kind: 'runs' }],
      })),
      undefined,
      /a kql-database cannot 'runs' a report/,
    );
  });
  test('a relationship the content implies but the thread lacks', () => {
    refuses(
      broken('app-casino-analytics', 'app.json', (m) => ({ ...m, edges: m.edges.filter((e: any) => e.from !== 'floor-model') })),
      'floor-model',
      /lacks the edge floor-model -reads-from-> floor-lakehouse/,
    );
  });
  test('an activator on a table its KQL database does not have', () => {
    refuses(
      broken('app-casino-analytics', 'items/health-activator.json', (c) => ({ ...c, table: 'CabinetHealth' })),
      'health-activator',
      /table 'CabinetHealth' does not exist in 'floor-kql'/,
    );
  });
  test('an activator comparing a column its table does not have', () => {
    refuses(
      broken('app-iot-realtime', 'items/fault-activator.json', (c) => ({
        ...c,
        triggers: [{ ...c.triggers[0], condition: { column: 'Level', operator: '>', value: 3 } }],
      })),
      'fault-activator',
      /compares column 'Level'/,
    );
  });
  test('an RDL without a Page, in the wrong namespace, or not well-formed', () => {
    const rdlFile = join('reports', 'daily-floor-performance.rdl');
    const cases: [(s: string) => string, RegExp][] = [
      [(s) => s.replace(/<Page>[\s\S]*<\/Page>/, ''), /daily-floor-performance.rdl line \d+, <ReportSection>: Page is required/],
      [(s) => s.replace('2016/01/reportdefinition"', '2010/01/reportdefinition"'), /namespace .* not the 2016\/01/],
      [(s) => s.replace('</DataSets>', ''), /not well-formed XML/],
      [(s) => s.replace('Fields!NetWin.Value', 'Fields!NetWinn.Value'), /Fields!NetWinn/],
      [
        (s) => s.replace("'Machine KPIs'[business_date] &gt;=", "'Machine KPIs'[gaming_day] &gt;="),
        /'Machine KPIs'\[gaming_day\], which semantic model 'floor-model' does not have/,
      ],
    ];
    const original = readFileSync(join(DEFAULT_CATALOG_DIR, 'app-casino-analytics', rdlFile), 'utf8');
    for (const [edit, problem] of cases) {
      const dir = broken('app-casino-analytics', 'items/floor-report.json', (c) => c);
      assert.notEqual(edit(original), original, `the edit for ${problem} changes nothing`);
      writeFileSync(join(dir, rdlFile), edit(original));
      refuses(dir, 'floor-report', problem);
    }
  });
  test('a semantic model over a table its lakehouse does not have', () => {
    refuses(
      broken('app-casino-analytics', 'items/floor-model.json', (c) => {
        c.model.model.tables[0].partitions[0].source.entityName = 'machines';
        return c;
      }),
      'floor-model',
      /reads 'machines', which is not a table of lakehouse 'floor-lakehouse'/,
    );
  });
  test('a KQL seed row with the wrong number of values', () => {
    refuses(
      broken('app-finops-cost', 'items/cost-kql.json', (c) => {
        c.tables[1].seedRows[0].pop();
        return c;
      }),
      'cost-kql',
      /table 'BudgetStatus' seed row 1 has 6 values for 7 columns/,
    );
  });
  test('a search index with two keys, or a document without its key', () => {
    refuses(
      broken('app-data-steward', 'items/glossary-index.json', (c) => {
        c.index.fields[1].key = true;
        return c;
      }),
      'glossary-index',
      /exactly one key field, has 2/,
    );
    refuses(
      broken('app-data-steward', 'items/glossary-index.json', (c) => {
        delete c.documents[2].id;
        return c;
      }),
      'glossary-index',
      /document 3 has no valid key 'id'/,
    );
  });
  test('a pipeline running a notebook the app does not have', () => {
    refuses(
      broken('app-pipeline-designer', 'items/backfill-pipeline.json', (c) => {
        c.activities[0].typeProperties.notebookId = '${item:gold-notebok.id}';
        return c;
      }),
      'backfill-pipeline',
      /refers to 'gold-notebok', which is not an item of this app/,
    );
  });
  test('an eventstream landing in a table its database does not have', () => {
    refuses(
      broken('app-iot-realtime', 'items/telemetry-stream.json', (c) => ({
        ...c,
        destination: { database: 'telemetry-kql', table: 'Readings' },
      })),
      'telemetry-stream',
      /destination table 'Readings'/,
    );
  });
  test('a notebook writing a table its lakehouse does not declare', () => {
    refuses(
      broken('app-pipeline-designer', 'items/gold-notebook.json', (c) => {
        c.cells[2].source = c.cells[2].source.replace('OrdersCurated.daily_sales', 'OrdersCurated.sales_daily');
        return c;
      }),
      'gold-notebook',
      /sales_daily/,
    );
  });
  test('a dbt model ref that does not resolve', () => {
    refuses(
      broken('app-healthcare-popmgt', 'items/popmgt-warehouse.json', (c) => {
        c.models[1].sql = c.models[1].sql.replace("ref('stg_care_gaps')", "ref('stg_gaps')");
        return c;
      }),
      'popmgt-warehouse',
      /refs 'stg_gaps'/,
    );
  });
  test('warehouse DDL a dedicated SQL pool refuses: FOREIGN KEY', () => {
    refuses(
      broken('app-healthcare-popmgt', 'items/popmgt-warehouse.json', (c) => {
        c.ddl.push(
          'ALTER TABLE mart.care_gaps ADD CONSTRAINT fk_gap_patient FOREIGN KEY (patient_id) REFERENCES mart.patient_risk (patient_id)',
        );
        return c;
      }),
      'popmgt-warehouse',
      /FOREIGN KEY, which a dedicated SQL pool does not support/,
    );
  });
  test('manifest faults: a lakehouse name with -, a duplicate key, an unknown type, too few items, bad JSON', () => {
    refuses(
      broken('app-finops-cost', 'app.json', (m) => {
        m.items[1].displayName = 'FinOps-Billing';
        return m;
      }),
      'billing-lakehouse',
      /letters, digits and _/,
    );
    refuses(
      broken('app-finops-cost', 'app.json', (m) => {
        m.items[2].key = m.items[1].key;
        return m;
      }),
      'billing-lakehouse',
      /used by two items/,
    );
    refuses(
      broken('app-finops-cost', 'app.json', (m) => {
        m.items[7].itemType = 'spreadsheet';
        return m;
      }),
      'savings-scorecard',
      /itemType 'spreadsheet' is not an item type/,
    );
    refuses(
      broken('app-lakehouse-inspector', 'app.json', (m) => ({ ...m, items: m.items.slice(0, 7) })),
      undefined,
      /has 7 items; an app has 8 to 12/,
    );
    const dir = broken('app-rag-builder', 'app.json', (m) => m);
    writeFileSync(join(dir, 'items', 'faq-index.json'), '{ "index": ');
    refuses(dir, 'faq-index', /is not valid JSON/);
  });
  test('loadCatalog refuses a folder holding a broken app', () => {
    const dir = broken('app-data-steward', 'items/quality-activator.json', (c) => ({
      ...c,
      source: 'glossary-index',
      table: 'data-asset-catalog',
    }));
    assert.throws(
      () => loadCatalog(join(dir, '..')),
      /app 'app-data-steward', item 'quality-activator': table 'data-asset-catalog' does not exist in 'glossary-index'/,
    );
  });
});
