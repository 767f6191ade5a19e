import type { CloudProfile } from '../cloud/profiles.js';
import type { BackendId, LiveBackend, StoredBackend } from './descriptor.js';
import type { AnyLiveItemType } from './index.js';

/** One backend of a live type, its content erased. */
export type AnyBackend = LiveBackend<unknown> | StoredBackend;

/** Every backend a live type can run on: its primary first, then its alternatives. */
export function backendsOf(type: AnyLiveItemType): AnyBackend[] {
  return [type, ...(type.alternatives ?? [])];
}

/** The ids of a live type's backends, primary first (what SVC_BACKEND_<TYPE> may name). */
export function backendIdsOf(type: AnyLiveItemType): BackendId[] {
  return backendsOf(type).map((b) => b.backing);
}

/**
 * The backend a type's items are provisioned on in this cloud: SVC_BACKEND_<TYPE> when set; else the primary, unless it
 * is the data platform and the cloud has none (GCC-High and DoD today, or the sandbox started without it), where the
 * first alternative is (the Azure-native service). A type with no alternative keeps its primary, whose gate then says
 * what is missing.
 */
export function chooseBackend(type: AnyLiveItemType, profile: CloudProfile): AnyBackend {
  const named = profile.backendOverrides[type.id];
  if (named) {
    const found = backendsOf(type).find((b) => b.backing === named);
    if (!found) throw new Error(`SVC_BACKEND_${settingSuffix(type.id)}=${named} names no backend of ${type.id}`);
    return found;
  }
  const alternative = type.alternatives?.[0];
  if (type.backing === 'data-platform' && !profile.dataPlatformApiUrl && alternative) return alternative;
  return type;
}

/**
 * The backend an item runs on: the one its live record names (what provisioned it, so that drift and uninstall reach the
 * same service even after the choice changed), else the cloud's choice.
 */
export function backendFor(type: AnyLiveItemType, profile: CloudProfile, recorded?: string): AnyBackend {
  if (!recorded) return chooseBackend(type, profile);
  if (recorded === type.backing) return type;
  return type.alternatives?.find((b) => b.backing === recorded) ?? chooseBackend(type, profile);
}

/** The setting name's suffix of a type: `data-pipeline` → `DATA_PIPELINE`. */
export const settingSuffix = (typeId: string) => typeId.toUpperCase().replace(/-/g, '_');

/** True for a backend that provisions (not the stored-only fallback). */
export const isLiveBackend = (b: AnyBackend): b is LiveBackend<unknown> => b.backing !== 'stored';
