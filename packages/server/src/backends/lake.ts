import type { CloudProfile } from '../cloud/profiles.js';
import { DfsFilesystem } from './dfs.js';
import { backingPath, type BackingPipeline } from './http-pipeline.js';

/** A storage account name: 3-24 lowercase letters and digits. */
const ACCOUNT = /^[a-z0-9]{3,24}$/;

/**
 * The storage account a lake setting names: the account name itself (SVC_LAKE_ACCOUNT=`contosolake`) or its host
 * (`contosolake.dfs.core.usgovcloudapi.net`, as a tenant's lake target is assigned), whose first label is the name.
 */
export function lakeAccountName(setting: string): string {
  const name = setting
    .replace(/^https?:\/\//i, '')
    .split(/[./:]/)[0]!
    .toLowerCase();
  if (!ACCOUNT.test(name)) throw new Error(`'${setting}' names no storage account (3-24 lowercase letters and digits)`);
  return name;
}

/**
 * The lake's storage accounts (Data Lake Storage Gen2): each account's DFS endpoint is `https://<account>.dfs<storage
 * suffix>` of the cloud, or path-style `<SVC_LAKE_DFS_URL>/<account>` where one is set (the sandbox, or an emulator).
 * The calls are the shared DFS client's (backends/dfs.ts), which OneLake's client uses too.
 */
export class LakeClient {
  constructor(
    private readonly pipeline: BackingPipeline,
    private readonly profile: Pick<CloudProfile, 'lakeDfsUrl' | 'storageSuffix' | 'storageAudience'>,
  ) {}

  /** The account's DFS endpoint. */
  endpoint(account: string): string {
    const name = lakeAccountName(account);
    return this.profile.lakeDfsUrl
      ? `${this.profile.lakeDfsUrl.replace(/\/+$/, '')}${backingPath`/${name}`}`
      : `https://${name}.dfs${this.profile.storageSuffix}`;
  }

  /** The account's DFS host as abfss:// addresses name it (a SQL pool's external data source): `<account>.dfs<suffix>`. */
  host(account: string): string {
    return `${lakeAccountName(account)}.dfs${this.profile.storageSuffix}`;
  }

  /** A container (filesystem) of an account. */
  filesystem(account: string, container: string): DfsFilesystem {
    return new DfsFilesystem(this.pipeline, `${this.endpoint(account)}${backingPath`/${container}`}`, this.profile.storageAudience);
  }

  /** The same client over another pipeline (a probe acting as another identity). */
  through(pipeline: BackingPipeline): LakeClient {
    return new LakeClient(pipeline, this.profile);
  }
}
