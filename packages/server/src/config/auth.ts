import { int, pattern, type Section } from './setting.js';

const TOKEN_FORMAT = /^svc_pat_[a-z0-9]{8,32}_[A-Za-z0-9]{32,64}$/;

/** Tokens and sessions: the bootstrap token, session lifetime, the cache of verified tokens and workspace roles. */
export const AUTH = {
  bootstrapToken: pattern(
    'SVC_BOOTSTRAP_TOKEN',
    TOKEN_FORMAT,
    'must look like svc_pat_<id>_<secret>: id 8-32 lowercase letters and digits, secret 32-64 letters and digits',
    {
      meaning:
        "`svc_pat_<id>_<secret>`: seeds a token of the default tenant's first admin with every scope, the deployment's `operator` and `metrics` among them, if that id is absent",
    },
  ),
  sessionHours: int('SVC_SESSION_HOURS', 12, 1, 24 * 30, 'console session lifetime (never beyond the token it was opened with)'),
  tokenCacheSeconds: int(
    'SVC_AUTH_CACHE_SECONDS',
    30,
    0,
    3600,
    "how long a process keeps a verified token and a caller's workspace roles: a revocation, a role assignment's change or a workspace's deletion drops them at once in every process (PostgreSQL NOTIFY; while a process's listening connection is down it keeps none), so this only bounds what a lost notification could leave; `0` turns both caches off",
  ),
} satisfies Section;
