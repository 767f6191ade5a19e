import type { Item } from '../../api/types';

/** The options of a semantic-model picker: a first line that says what to do (or why there is nothing), then the models. */
export function ModelOptions({ models, loading }: { models: Item[]; loading: boolean }) {
  return (
    <>
      <option value="">{loading ? 'Loading…' : models.length ? 'Choose a semantic model' : 'No semantic models in this workspace'}</option>
      {models.map((m) => (
        <option key={m.id} value={m.id}>
          {m.displayName}
        </option>
      ))}
    </>
  );
}
