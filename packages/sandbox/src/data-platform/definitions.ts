import { ServiceError } from '../http/errors.js';
import { fabricError, invalidInput } from './errors.js';
import type { ItemTypeRule } from './item-types.js';

export interface DefinitionPart {
  path: string;
  payload: string;
  payloadType: 'InlineBase64';
}

export interface Definition {
  format?: string;
  parts: DefinitionPart[];
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const decode = (p: DefinitionPart) => Buffer.from(p.payload, 'base64').toString('utf8');

/** Checks a definition's structure (400 errors at request time) and returns it normalised. */
export function checkDefinitionShape(value: unknown, rule: ItemTypeRule): Definition {
  const def = value as Partial<Definition> | null;
  if (!def || typeof def !== 'object' || !Array.isArray(def.parts))
    throw invalidInput('definition.parts', 'The definition must have a parts array');
  if (def.format !== undefined && def.format !== null) {
    if (typeof def.format !== 'string') throw invalidInput('definition.format', 'must be a string');
    if (rule.formats && !rule.formats.some((f) => f.toLowerCase() === def.format!.toLowerCase())) {
      throw fabricError(
        400,
        'InvalidDefinitionFormat',
        `The definition format '${def.format}' is not supported for item type ${rule.type}. Supported formats: ${rule.formats.join(', ')}`,
      );
    }
  }
  const seen = new Set<string>();
  const parts: DefinitionPart[] = [];
  for (const [i, raw] of def.parts.entries()) {
    const p = raw as Partial<DefinitionPart> | null;
    if (!p || typeof p.path !== 'string' || !p.path) throw invalidInput(`definition.parts[${i}].path`, 'is required');
    if (typeof p.payload !== 'string') throw invalidInput(`definition.parts[${i}].payload`, 'is required');
    if (p.payloadType !== 'InlineBase64') {
      throw fabricError(
        400,
        'UnsupportedPayloadType',
        `The payload type '${p.payloadType ?? ''}' of part '${p.path}' is not supported. Supported payload types: InlineBase64`,
      );
    }
    const payload = p.payload.replace(/\s+/g, '');
    if (payload.length % 4 !== 0 || !BASE64.test(payload))
      throw fabricError(
        400,
        'CorruptedPayload',
        `The payload of the definition part '${p.path}' is corrupted: it is not a valid Base64 string`,
      );
    const path = p.path.replace(/^\/+/, '');
    if (seen.has(path.toLowerCase()))
      throw fabricError(400, 'InvalidDefinitionParts', `The definition contains the part '${path}' more than once`);
    seen.add(path.toLowerCase());
    parts.push({ path, payload, payloadType: 'InlineBase64' });
  }
  return { ...(def.format ? { format: def.format } : {}), parts };
}

/** Checks the parts a type needs and accepts, and their content; returns the error (a 400, or an operation's failure when async). */
export function checkDefinitionContent(def: Definition, rule: ItemTypeRule): ServiceError | undefined {
  const paths = def.parts.map((p) => p.path);
  const content = paths.filter((p) => p !== '.platform');
  if (rule.allowedParts) {
    const unknown = content.filter((p) => !rule.allowedParts!.some((re) => re.test(p)));
    if (unknown.length)
      return fabricError(
        400,
        'InvalidDefinitionParts',
        `The definition part(s) ${unknown.map((u) => `'${u}'`).join(', ')} are not supported for item type ${rule.type}`,
      );
  }
  const missing = (rule.requiredParts ?? []).filter((group) => !content.some((p) => group.some((re) => re.test(p))));
  if (missing.length) {
    return fabricError(
      400,
      'MissingDefinitionParts',
      `The definition of item type ${rule.type} is missing required part(s): ${missing.map((g) => g.map((re) => re.source.replace(/[\\^$]/g, '')).join(' or ')).join(', ')}`,
    );
  }
  if (rule.type === 'SemanticModel') {
    const tmsl = paths.includes('model.bim');
    const tmdl = paths.some((p) => p.endsWith('.tmdl'));
    if (tmsl && tmdl)
      return fabricError(
        400,
        'InvalidDefinitionParts',
        'A semantic model definition holds either TMSL (model.bim) or TMDL (definition/*.tmdl) parts, not both',
      );
    if (def.format?.toUpperCase() === 'TMSL' && !tmsl)
      return fabricError(400, 'MissingDefinitionParts', 'The TMSL format requires the part model.bim');
  }
  if (rule.type === 'Notebook' && def.format?.toLowerCase() === 'ipynb' && !paths.includes('notebook-content.ipynb')) {
    return fabricError(400, 'MissingDefinitionParts', "The ipynb format requires the part 'notebook-content.ipynb'");
  }
  for (const p of def.parts) {
    const isJson = p.path === '.platform' || (rule.jsonParts ?? []).some((re) => re.test(p.path));
    if (!isJson) continue;
    try {
      JSON.parse(decode(p));
    } catch (err) {
      return fabricError(
        400,
        p.path === '.platform' ? 'InvalidPlatformFile' : 'InvalidDefinitionParts',
        `Failed to parse the part '${p.path}': ${(err as Error).message}`,
      );
    }
  }
  const platform = def.parts.find((p) => p.path === '.platform');
  if (platform) {
    const meta = JSON.parse(decode(platform))?.metadata;
    if (!meta || typeof meta !== 'object') return fabricError(400, 'InvalidPlatformFile', "The .platform part has no 'metadata' object");
    if (meta.type && String(meta.type).toLowerCase() !== rule.type.toLowerCase()) {
      return fabricError(400, 'InvalidPlatformFile', `The .platform part declares type '${meta.type}' but the item is a ${rule.type}`);
    }
  }
  return undefined;
}

/** The metadata (displayName, description) a definition's .platform carries. */
export function platformMetadata(def: Definition): { displayName?: string; description?: string; logicalId?: string } {
  const platform = def.parts.find((p) => p.path === '.platform');
  if (!platform) return {};
  const doc = JSON.parse(decode(platform));
  return { displayName: doc?.metadata?.displayName, description: doc?.metadata?.description, logicalId: doc?.config?.logicalId };
}

/** The .platform part getDefinition always returns, with the item's current metadata. */
export function platformPart(item: { type: string; displayName: string; description: string }, logicalId: string): DefinitionPart {
  const doc = {
    $schema: 'https://developer.microsoft.com/json-schemas/fabric/gitIntegration/platformProperties/2.0.0/schema.json',
    metadata: { type: item.type, displayName: item.displayName, ...(item.description ? { description: item.description } : {}) },
    config: { version: '2.0', logicalId },
  };
  return { path: '.platform', payload: Buffer.from(JSON.stringify(doc, null, 2)).toString('base64'), payloadType: 'InlineBase64' };
}

const part = (path: string, text: string): DefinitionPart => ({
  path,
  payload: Buffer.from(text).toString('base64'),
  payloadType: 'InlineBase64',
});
const tmdlName = (n: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(n) ? n : `'${n.replace(/'/g, "''")}'`);

/** TMSL → TMDL, the default format getDefinition returns for semantic models. */
export function tmslToTmdl(parts: DefinitionPart[]): DefinitionPart[] {
  const bim = JSON.parse(decode(parts.find((p) => p.path === 'model.bim')!));
  const model = bim.model ?? {};
  const tables: any[] = model.tables ?? [];
  const out = [part('definition/database.tmdl', `database\n\tcompatibilityLevel: ${bim.compatibilityLevel ?? 1604}\n`)];
  out.push(
    part(
      'definition/model.tmdl',
      `model Model\n\tculture: ${model.culture ?? 'en-US'}\n\tdefaultPowerBIDataSourceVersion: powerBI_V3\n\n${tables.map((t) => `ref table ${tmdlName(t.name)}`).join('\n')}\n`,
    ),
  );
  for (const t of tables) {
    const cols = (t.columns ?? []).map(
      (c: any) =>
        `\tcolumn ${tmdlName(c.name)}\n\t\tdataType: ${c.dataType ?? 'string'}\n${c.sourceColumn ? `\t\tsourceColumn: ${c.sourceColumn}\n` : ''}`,
    );
    const measures = (t.measures ?? []).map(
      (m: any) => `\tmeasure ${tmdlName(m.name)} = ${Array.isArray(m.expression) ? m.expression.join(' ') : m.expression}\n`,
    );
    out.push(part(`definition/tables/${t.name}.tmdl`, `table ${tmdlName(t.name)}\n\n${[...measures, ...cols].join('\n')}`));
  }
  const rels: any[] = model.relationships ?? [];
  if (rels.length) {
    out.push(
      part(
        'definition/relationships.tmdl',
        rels
          .map(
            (r) =>
              `relationship ${r.name ?? `${r.fromTable}_${r.toTable}`}\n\tfromColumn: ${tmdlName(r.fromTable)}.${tmdlName(r.fromColumn)}\n\ttoColumn: ${tmdlName(r.toTable)}.${tmdlName(r.toColumn)}\n`,
          )
          .join('\n'),
      ),
    );
  }
  return [...out, ...parts.filter((p) => p.path !== 'model.bim')];
}

/** TMDL → TMSL (tables and columns), for ?format=TMSL on a model stored as TMDL. */
export function tmdlToTmsl(parts: DefinitionPart[]): DefinitionPart[] {
  const tables: any[] = [];
  for (const p of parts.filter((x) => /^definition\/tables\/.+\.tmdl$/.test(x.path))) {
    let table: any;
    let column: any;
    for (const line of decode(p).split(/\r?\n/)) {
      const unq = (s: string) =>
        s
          .trim()
          .replace(/^'(.*)'$/, '$1')
          .replace(/''/g, "'");
      let m: RegExpExecArray | null;
      if ((m = /^table\s+(.+)$/.exec(line))) tables.push((table = { name: unq(m[1]!), columns: [] }));
      else if ((m = /^\tcolumn\s+(.+)$/.exec(line)) && table) table.columns.push((column = { name: unq(m[1]!), dataType: 'string' }));
      else if ((m = /^\t\tdataType:\s*(\S+)/.exec(line)) && column) column.dataType = m[1];
      else if ((m = /^\t\tsourceColumn:\s*(.+)$/.exec(line)) && column) column.sourceColumn = m[1]!.trim();
    }
  }
  const bim = { compatibilityLevel: 1604, model: { culture: 'en-US', tables } };
  return [part('model.bim', JSON.stringify(bim, null, 2)), ...parts.filter((p) => !p.path.startsWith('definition/'))];
}
