// Types of build.mjs for the TypeScript that imports it (tests, bench/start).
export type TargetName = 'sandbox' | 'server' | 'console' | 'client';
export const root: string;
export const SERVICE_ENTRY: string;
export const SERVICE_NODE_OPTIONS: string[];
export const TARGETS: Record<TargetName, { dir: string; inputs: string[]; output: string; tool: 'esbuild' | 'npm' }>;
export function isStale(name: TargetName): boolean;
export function build(names: TargetName[]): Promise<void>;
