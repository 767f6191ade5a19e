import { useSyncExternalStore } from 'react';

/** An install this browser started: followed in the background until it ends, then notified once. */
export interface TrackedJob {
  jobId: string;
  appId: string;
  appName: string;
  workspaceId: string;
  startedAt: string;
  notified?: boolean;
}

const KEY = 'svc.trackedJobs';
const listeners = new Set<() => void>();
let cache: TrackedJob[] = read();

function read(): TrackedJob[] {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '[]') as TrackedJob[];
  } catch {
    return [];
  }
}

function write(next: TrackedJob[]) {
  cache = next.slice(0, 20);
  localStorage.setItem(KEY, JSON.stringify(cache));
  for (const l of listeners) l();
}

export const trackJob = (job: TrackedJob) => write([job, ...cache.filter((j) => j.jobId !== job.jobId)]);
const OWNER_KEY = 'svc.trackedJobs.owner';

/** Makes the followed jobs the signed-in user's: another user's (a session that ended without sign-out) are forgotten. */
export const claimTrackedJobs = (owner: string) => {
  if (localStorage.getItem(OWNER_KEY) !== owner && cache.length) forgetTrackedJobs();
  localStorage.setItem(OWNER_KEY, owner);
};

/** Forgets every followed job (sign-out): the next user of this browser is neither shown nor notified of them. */
export const forgetTrackedJobs = () => {
  localStorage.removeItem(KEY);
  cache = [];
  for (const l of listeners) l();
};
export const markNotified = (jobId: string) => write(cache.map((j) => (j.jobId === jobId ? { ...j, notified: true } : j)));

/** The tracked jobs, newest first. */
export const useTrackedJobs = () =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => cache,
  );
