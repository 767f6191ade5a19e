import { type Mode, STEP_STATUSES, type StepStatus } from '../install/types.js';

/** The state of an installed app: what its last job left, or the job running on it now. */
export const INSTALLED_APP_STATUSES = ['installed', 'partial', 'upgrading', 'uninstalling', 'failed'] as const;
export type InstalledAppStatus = (typeof INSTALLED_APP_STATUSES)[number];

/** An item's state in its app: its provisioning step's status, `pending` before the step ran, `stored` with nothing live. */
export const APP_ITEM_STATUSES = [...STEP_STATUSES, 'pending', 'stored'] as const;
export type AppItemStatus = StepStatus | 'pending' | 'stored';

/** One item of an installed app, by the app's item key. */
export interface InstalledAppItem {
  key: string;
  itemType: string;
  displayName: string;
  itemId: string;
  resourceId: string | null;
  status: AppItemStatus;
}

/** An installed app as the API shows it. */
export interface InstalledApp {
  appId: string;
  /** The catalog's name of the app (its id when the catalog no longer has it). */
  displayName: string;
  /** The catalog version installed. */
  version: string;
  /** The catalog's current version (null when the catalog no longer has the app): differs from version when an upgrade is available. */
  catalogVersion: string | null;
  mode: Mode;
  status: InstalledAppStatus;
  target: Record<string, string>;
  items: InstalledAppItem[];
  lastJobId: string;
  installedAt: string;
  installedBy: string;
  updatedAt: string;
  updatedBy: string;
}

/** What a job's final write records of its app (installed-apps/app-records.ts). */
export interface InstalledAppRecord {
  tenantId: string;
  workspaceId: string;
  appId: string;
  version: string;
  mode: Mode;
  target: Record<string, string>;
  status: InstalledAppStatus;
  jobId: string;
  by: string;
  items: Array<{
    key: string;
    itemType: string;
    itemId: string;
    resourceId: string | null;
    status: AppItemStatus;
    /** The content the recorded version shipped (an upgrade's merge base); absent: the item's catalog content as stored. */
    baseContent?: unknown;
  }>;
}
