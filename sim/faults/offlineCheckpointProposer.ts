/**
 * `offlineCheckpointProposer`: the service node of whoever is the checkpoint proposer when the
 * fault fires crashes (and restarts at the end): the others must no-ack after the buffer time.
 */
import { getValidatorSet } from '../../src/modules/staking/keeper';
import { type FaultDef, type FaultTiming, SERVICE_SIDE, mainOf } from './fault';

export type OfflineCheckpointProposerFault = FaultTiming & {
  kind: 'offlineCheckpointProposer';
};

export const offlineCheckpointProposer: FaultDef<OfflineCheckpointProposerFault> = {
  kind: 'offlineCheckpointProposer',
  summary: "the checkpoint proposer's service node crashes (whoever it is when the fault fires)",
  fields: [],
  schema: { properties: {} },
  decode: () => ({}),
  encode: () => ({}),
  sides: () => SERVICE_SIDE,
  fixedSide: 'service',
  apply(_f, site, { start, index }) {
    const c = mainOf(site);
    // Its end restarts the node it took down. A proposer without a node (a validator that joined on
    // the parent chain, never started) is offline already: there is nothing to take down.
    const id = c.resolveAtStart(index, start, () => {
      const proposer = getValidatorSet(c.referenceServiceNode().app.store).proposer.address;
      const v = c.setup.validatorOfSigner.get(proposer);
      return v === undefined ? null : `svc-${v}`;
    });
    if (id === null) return 'a proposer without a node (nothing to take down)';
    c.crashOrRestart(id, start);
    return id;
  },
  swarm: { draw: () => ({}) },
};
