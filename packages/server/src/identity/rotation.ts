/** The rotation workflow of SPEC.md, in order; the old secret is deleted last. */
export const ROTATION_STEPS = ['create-new-secret', 'store-in-vault', 'restart-consumers', 'verify', 'delete-old-secret'] as const;
export type RotationStep = (typeof ROTATION_STEPS)[number];

/** Both secrets stay active this long before the old one may be deleted. */
export const OVERLAP_MS = 24 * 3_600_000;

export type RotationState = 'in-progress' | 'completed' | 'rolled-back';

/** A rotation as the state machine sees it: which steps are done and when. */
export interface RotationProgress {
  state: RotationState;
  done: Partial<Record<RotationStep, string>>;
}

/** The next step to run, or undefined once every step is done. */
export function nextStep(r: RotationProgress): RotationStep | undefined {
  return ROTATION_STEPS.find((s) => !r.done[s]);
}

/**
 * A wait as hours and minutes, rounded up to the whole minute (never sooner than it is), with 60 minutes carried into
 * an hour: "1 h", "23 h 59 min", "24 h", "45 min".
 */
function formatTimeLeft(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `${m} min`;
  return m ? `${h} h ${m} min` : `${h} h`;
}

/** Whether `step` may run now; the reason when it may not (out of order, not verified, overlap not over). */
export function mayRun(r: RotationProgress, step: RotationStep, now: Date): { ok: true } | { ok: false; reason: string; retryAt?: string } {
  if (r.state !== 'in-progress') return { ok: false, reason: `the rotation is ${r.state}` };
  if (r.done[step]) return { ok: false, reason: `${step} is already done` };
  const next = nextStep(r);
  if (step !== next) return { ok: false, reason: `${next} comes first` };
  if (step === 'delete-old-secret') {
    const created = Date.parse(r.done['create-new-secret']!);
    const until = created + OVERLAP_MS;
    if (now.getTime() < until) {
      const left = formatTimeLeft(until - now.getTime());
      return {
        ok: false,
        reason: `both secrets stay active for 24 hours: the old secret may be deleted from ${new Date(until).toISOString()} (${left} from now)`,
        retryAt: new Date(until).toISOString(),
      };
    }
  }
  return { ok: true };
}
