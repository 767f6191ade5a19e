/** Per item type: its typed collection, definition parts, creation payload, name rule and job types (reference §1, §4, §7). */
export interface ItemTypeRule {
  type: string;
  collection?: string;
  /** undefined: definitions not supported at all; 'optional' | 'required' at create. */
  definitionAtCreate?: 'optional' | 'required' | 'unsupported';
  formats?: string[];
  /** Part paths (regexes) that must be present (any one of each group). */
  requiredParts?: RegExp[][];
  /** Part paths accepted besides .platform; undefined = anything. */
  allowedParts?: RegExp[];
  /** Parts whose payload must be JSON. */
  jsonParts?: RegExp[];
  creationPayload?: 'none' | 'optional' | 'required';
  /** Display name rule and what it says when broken. */
  name?: { re: RegExp; says: string };
  jobTypes?: string[];
  /** Creates of this type answer 202 in the default (auto) async mode. */
  asyncByDefault?: boolean;
  /** A 201 from the typed create carries `Location`, the new item's URL (the published description says so). */
  locationOnCreate?: boolean;
}

const LETTERS_DIGITS_UNDERSCORE = {
  re: /^[A-Za-z][A-Za-z0-9_]{0,255}$/,
  says: 'must start with a letter and contain only letters, numbers and underscores',
};
const KUSTO_NAME = { re: /^[A-Za-z0-9_.\- ]{1,256}$/, says: 'may contain only letters, numbers, underscores, periods, hyphens and spaces' };

const RULES: ItemTypeRule[] = [
  {
    type: 'Notebook',
    collection: 'notebooks',
    definitionAtCreate: 'optional',
    formats: ['fabricGitSource', 'ipynb'],
    requiredParts: [[/^notebook-content\.(py|sql|scala|r|ipynb)$/]],
    allowedParts: [/^notebook-content\.(py|sql|scala|r|ipynb)$/, /^\.pbi\//],
    jsonParts: [/\.ipynb$/],
    creationPayload: 'none',
    jobTypes: ['RunNotebook'],
  },
  {
    type: 'Lakehouse',
    collection: 'lakehouses',
    definitionAtCreate: 'optional',
    formats: ['LakehouseDefinitionV1'],
    allowedParts: [/^lakehouse\.metadata\.json$/, /^shortcuts\.metadata\.json$/, /^data-access-roles\.json$/, /^alm\.settings\.json$/],
    jsonParts: [/\.json$/],
    creationPayload: 'optional',
    name: LETTERS_DIGITS_UNDERSCORE,
    jobTypes: ['TableMaintenance', 'RefreshMaterializedLakeViews'],
  },
  {
    type: 'SemanticModel',
    collection: 'semanticModels',
    definitionAtCreate: 'required',
    formats: ['TMSL', 'TMDL'],
    requiredParts: [[/^definition\.pbism$/], [/^model\.bim$/, /^definition\/model\.tmdl$/]],
    allowedParts: [/^model\.bim$/, /^definition\.pbism$/, /^diagramLayout\.json$/, /^definition\/.+\.tmdl$/, /^\.pbi\//],
    jsonParts: [/\.bim$/, /\.pbism$/],
    creationPayload: 'none',
    asyncByDefault: true,
    jobTypes: [],
  },
  {
    type: 'Reflex',
    collection: 'reflexes',
    definitionAtCreate: 'optional',
    formats: ['json'],
    requiredParts: [[/^ReflexEntities\.json$/]],
    allowedParts: [/^ReflexEntities\.json$/],
    jsonParts: [/\.json$/],
    creationPayload: 'none',
  },
  {
    type: 'DataPipeline',
    collection: 'dataPipelines',
    definitionAtCreate: 'optional',
    requiredParts: [[/^pipeline-content\.json$/]],
    allowedParts: [/^pipeline-content\.json$/],
    jsonParts: [/\.json$/],
    creationPayload: 'none',
    jobTypes: ['Pipeline'],
  },
  {
    type: 'Eventstream',
    collection: 'eventstreams',
    definitionAtCreate: 'optional',
    formats: ['eventstream'],
    requiredParts: [[/^eventstream\.json$/]],
    allowedParts: [/^eventstream\.json$/, /^eventstreamProperties\.json$/],
    jsonParts: [/\.json$/],
    creationPayload: 'none',
  },
  {
    type: 'Eventhouse',
    collection: 'eventhouses',
    definitionAtCreate: 'optional',
    allowedParts: [/^EventhouseProperties\.json$/],
    jsonParts: [/\.json$/],
    creationPayload: 'optional',
    name: KUSTO_NAME,
    asyncByDefault: true,
  },
  {
    type: 'KQLDatabase',
    collection: 'kqlDatabases',
    definitionAtCreate: 'optional',
    requiredParts: [[/^DatabaseProperties\.json$/]],
    allowedParts: [/^DatabaseProperties\.json$/, /^DatabaseSchema\.kql$/],
    jsonParts: [/\.json$/],
    creationPayload: 'required',
    name: KUSTO_NAME,
    asyncByDefault: true,
  },
  {
    type: 'KQLDashboard',
    collection: 'kqlDashboards',
    definitionAtCreate: 'optional',
    requiredParts: [[/^RealTimeDashboard\.json$/]],
    allowedParts: [/^RealTimeDashboard\.json$/],
    jsonParts: [/\.json$/],
    creationPayload: 'none',
    locationOnCreate: true,
  },
  {
    type: 'KQLQueryset',
    collection: 'kqlQuerysets',
    definitionAtCreate: 'optional',
    requiredParts: [[/^RealTimeQueryset\.json$/]],
    allowedParts: [/^RealTimeQueryset\.json$/],
    jsonParts: [/\.json$/],
    creationPayload: 'none',
  },
  { type: 'Warehouse', collection: 'warehouses', definitionAtCreate: 'unsupported', creationPayload: 'optional', asyncByDefault: true },
  {
    type: 'MirroredDatabase',
    collection: 'mirroredDatabases',
    definitionAtCreate: 'required',
    requiredParts: [[/^mirroring\.json$/]],
    allowedParts: [/^mirroring\.json$/],
    jsonParts: [/\.json$/],
    creationPayload: 'none',
  },
  {
    type: 'PaginatedReport',
    collection: 'paginatedReports',
    definitionAtCreate: 'required',
    requiredParts: [[/\.rdl$/]],
    creationPayload: 'none',
  },
  {
    type: 'VariableLibrary',
    collection: 'variableLibraries',
    definitionAtCreate: 'optional',
    requiredParts: [[/^variables\.json$/]],
    allowedParts: [/^variables\.json$/, /^settings\.json$/, /^valueSets\/[^/]+\.json$/],
    jsonParts: [/\.json$/],
    creationPayload: 'none',
  },
  { type: 'DataAgent', collection: 'dataAgents', definitionAtCreate: 'optional', creationPayload: 'none' },
  { type: 'Report', definitionAtCreate: 'required', requiredParts: [[/^definition\.pbir$/]], creationPayload: 'none' },
  { type: 'Environment', collection: 'environments', definitionAtCreate: 'optional', creationPayload: 'none' },
  {
    type: 'SparkJobDefinition',
    collection: 'sparkJobDefinitions',
    definitionAtCreate: 'optional',
    creationPayload: 'none',
    jobTypes: ['sparkjob'],
  },
];

/** Every ItemType value of the published enum (common/definitions.json). */
const ITEM_TYPES = [
  'Dashboard',
  'Report',
  'SemanticModel',
  'PaginatedReport',
  'Datamart',
  'Lakehouse',
  'Eventhouse',
  'Environment',
  'KQLDatabase',
  'KQLQueryset',
  'KQLDashboard',
  'DataPipeline',
  'Notebook',
  'SparkJobDefinition',
  'MLExperiment',
  'MLModel',
  'Warehouse',
  'Eventstream',
  'SQLEndpoint',
  'MirroredWarehouse',
  'MirroredDatabase',
  'Reflex',
  'GraphQLApi',
  'MountedDataFactory',
  'SQLDatabase',
  'CopyJob',
  'VariableLibrary',
  'Dataflow',
  'ApacheAirflowJob',
  'WarehouseSnapshot',
  'DigitalTwinBuilder',
  'DigitalTwinBuilderFlow',
  'MirroredAzureDatabricksCatalog',
  'Map',
  'AnomalyDetector',
  'UserDataFunction',
  'GraphModel',
  'GraphQuerySet',
  'SnowflakeDatabase',
  'OperationsAgent',
  'CosmosDBDatabase',
  'Ontology',
  'EventSchemaSet',
  'DataAgent',
  'MirroredCatalog',
  'AppBackend',
  'OrgApp',
  'OrgAppAudience',
  'DataBuildToolJob',
  'AzureDatabricksStorage',
  'Plan',
];

/** Types that cannot be created through the public API (system-managed). */
const NOT_CREATABLE = new Set(['Dashboard', 'SQLEndpoint', 'Datamart', 'MirroredWarehouse']);

const BY_TYPE = new Map(RULES.map((r) => [r.type.toLowerCase(), r]));
const BY_COLLECTION = new Map(RULES.filter((r) => r.collection).map((r) => [r.collection!.toLowerCase(), r]));

/** The published spelling of an item type (case-insensitive lookup), or undefined. */
export function canonicalType(type: string): string | undefined {
  return ITEM_TYPES.find((t) => t.toLowerCase() === type.toLowerCase());
}

export function ruleFor(type: string): ItemTypeRule {
  return BY_TYPE.get(type.toLowerCase()) ?? { type, definitionAtCreate: 'optional', creationPayload: 'none' };
}

export function ruleForCollection(collection: string): ItemTypeRule | undefined {
  return BY_COLLECTION.get(collection.toLowerCase());
}

export function creatable(type: string): boolean {
  return !NOT_CREATABLE.has(type);
}

/** The job type an item accepts (jobType names are case-insensitive). */
export function acceptsJob(type: string, jobType: string): boolean {
  const r = ruleFor(type);
  const jt = jobType.toLowerCase();
  return jt === 'defaultjob' || (r.jobTypes ?? []).some((j) => j.toLowerCase() === jt);
}
