// The console decides which workspace actions to offer from the caller's role and scopes (packages/console/src/api/access.ts).
// These tests hold its table to the service's: the same role order, and for each action the role and scope the
// operation it calls declares in the OpenAPI document (x-required-role, x-required-scope), so an action the console
// offers is one the service allows, and one it withholds is one the service would refuse.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ACTIONS, can, grantableRoles, ROLES } from '../../console/src/api/roles.js';
import { WORKSPACE_ROLES } from '../src/access/roles.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const doc = JSON.parse(fs.readFileSync(path.join(ROOT, 'openapi/openapi.json'), 'utf8'));
const operations = new Map<string, Record<string, unknown>>();
for (const methods of Object.values(doc.paths) as Array<Record<string, Record<string, unknown>>>)
  for (const op of Object.values(methods)) if (op && typeof op === 'object' && op.operationId) operations.set(String(op.operationId), op);

test('the console ranks the roles in the service’s order', () => {
  assert.deepEqual([...ROLES], [...WORKSPACE_ROLES]);
});

test('each console action needs the role and scope its operation declares', () => {
  for (const [action, a] of Object.entries(ACTIONS)) {
    const op = operations.get(a.op);
    assert.ok(op, `${action}: the document has ${a.op}`);
    assert.equal(a.role, op['x-required-role'], `${action}: role of ${a.op}`);
    // Binding a platform workspace is the one place the service asks more than the route's scope: admin.
    const scope = action === 'workspace.bind' ? 'admin' : op['x-required-scope'];
    assert.equal(a.scope, scope, `${action}: scope of ${a.op}`);
  }
});

test('can() withholds an action below its role or without its scope, and says why', () => {
  const all = ['read', 'write', 'install', 'reports'];
  assert.deepEqual(can('Viewer', all, 'item.create'), {
    ok: false,
    reason: 'Viewers cannot create items (it needs the Contributor role)',
  });
  assert.equal(can('Contributor', all, 'item.create').ok, true);
  assert.equal(can('Contributor', ['read', 'write'], 'app.install').ok, false);
  assert.match(String(can('Contributor', ['read', 'write'], 'app.install').reason), /lacks the 'install' scope/);
  assert.equal(can('Member', all, 'workspace.delete').ok, false);
  assert.equal(can('Admin', all, 'workspace.delete').ok, true);
  assert.equal(can('Admin', all, 'workspace.bind').ok, false, 'binding needs the admin scope');
  assert.equal(can('Admin', ['admin'], 'workspace.bind').ok, true, 'admin implies the tenant scopes');
});

test('a Member grants Contributor and Viewer only; an Admin every role; lower roles none', () => {
  assert.deepEqual(grantableRoles('Member'), ['Contributor', 'Viewer']);
  assert.deepEqual(grantableRoles('Admin'), ['Admin', 'Member', 'Contributor', 'Viewer']);
  assert.deepEqual(grantableRoles('Contributor'), []);
  assert.deepEqual(grantableRoles('Viewer'), []);
});
