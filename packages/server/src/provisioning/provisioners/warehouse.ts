import { gate, GateRaised } from '../gates.js';
import type { Provisioner } from '../context.js';

/**
 * warehouse: T-SQL over the service identity. Until the T-SQL provisioner lands, an install names the
 * missing configuration as its gate; it never reports a success it did not make.
 */
export const provisionWarehouse: Provisioner = async (ctx) => {
  const t = ctx.target;
  if (!t.warehouseWorkspace || !t.warehousePool) throw new GateRaised(gate('warehouse-not-configured', ctx.profile));
  return { status: 'failed', error: `T-SQL provisioning of ${t.warehouseWorkspace}/${t.warehousePool} is not available in this build` };
};
