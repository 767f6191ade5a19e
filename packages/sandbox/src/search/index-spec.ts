import path from 'node:path';
import { check } from '../conformance/schema.js';
import { specsAvailable, specsDir } from '../conformance/specs.js';
import { DESCRIBED_VERSION } from './api-version.js';
import { invalid } from './index-schema.js';

/** The service's own names for the description's definitions (OData types of the Microsoft.Azure.Search.Vyyyy_mm_dd model). */
const TYPE_NAMES: Record<string, string> = {
  SearchIndex: 'Index',
  SearchField: 'Field',
  SemanticSettings: 'SemanticSearch',
  PrioritizedFields: 'SemanticPrioritizedFields',
};

/**
 * Checks an index definition against the published description of the api-version it came with (when that is the one the
 * sandbox holds and the descriptions are at hand): a property the model does not have is refused as OData refuses it.
 */
export function checkAgainstDescription(body: unknown, apiVersion: string): void {
  if (apiVersion !== DESCRIBED_VERSION || !specsAvailable()) return;
  const file = path.join(specsDir(), `search/data-plane/Azure.Search/stable/${DESCRIBED_VERSION}/searchservice.json`);
  const model = `Microsoft.Azure.Search.V${DESCRIBED_VERSION.replace(/-/g, '_')}`;
  const errors = check(body, { $ref: '#/definitions/SearchIndex' }, file, 'definition', [], {
    undeclared: (key, definition) =>
      `The property '${key}' does not exist on type '${model}.${TYPE_NAMES[definition] ?? definition}'. Make sure to only use property names that are defined by the type.`,
  });
  if (errors.length) throw invalid(`definition : ${errors[0]}`);
}
