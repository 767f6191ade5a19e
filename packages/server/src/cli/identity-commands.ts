import { firewall, grant, rollback } from './identity/access-changes.js';
import { diagnose, inspectToken, probe } from './identity/diagnosis.js';
import { incident } from './identity/incident.js';
import type { Command } from './identity/options.js';
import { secrets } from './identity/secrets.js';

/** The `svc identity` commands by name (one file per group under identity/). */
export const IDENTITY_COMMANDS: Record<string, Command> = {
  diagnose,
  'inspect-token': inspectToken,
  probe,
  firewall,
  grant,
  rollback,
  secrets,
  incident,
};

export const IDENTITY_USAGE = `svc identity <command> [options]   (SVC_BASE_URL, SVC_TOKEN; --json for raw output)

  diagnose       --status N --code C --body TEXT|@file --identity-type T --service S
  inspect-token  --token-stdin | --token-env VAR  [--app-id --object-id --tenant-id --roles a,b --wids a,b]
  probe          --workspace WS [--client-id ID (--secret-env VAR | --secret-stdin | --refresh-token-env VAR)] [--pipeline P] [--lakehouse L --table T]
  firewall       list|check|add|remove --workspace WS [--ip IP] [--name N --start IP --end IP] [--rule ID] [--incident ID]
  grant          --workspace WS --principal OID [--role Contributor] [--type ServicePrincipal] [--incident ID] | --list
  rollback       <changeId> | --list [--incident ID]
  secrets        list | alerts | register --name --client-id --key-id --expires [--vault-secret --consumers] | rotate <credId> | rotation <rotId> | step <rotId> <step> | rollback <rotId>
  incident       list | open --title [--identity-type --principals --production-pipeline-halted ...] | show|events|close <id> | approve <id> --kind --approver [--verbal]
                 | change-request <id> <approvalId> --cr CR | snapshot <id> --policy P --file F | change <id> --kind --summary [--policy] | verify <id> --workspace --pipeline [identity options]

Exit codes: 0 ok, 1 a check found a problem, 2 usage, 3 refused by the service (4xx), 4 service unavailable (5xx, unreachable)`;
