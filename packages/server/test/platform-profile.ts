import { selectCloud } from '../src/cloud/profiles.js';

/** A cloud with the data platform: every type on its primary backend (what the sandbox's default profile chooses too). */
export const PLATFORM_PROFILE = selectCloud({ name: 'commercial', overrides: {} });
