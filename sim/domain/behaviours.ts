/**
 * The Byzantine behaviours in force in a run (sim/faults: each fault that bends validators sets
 * one), and the service-node hooks that ask them: a validator's node asks every behaviour in
 * force for it, in the order the faults started.
 */
import { type ServiceNodeHooks } from '../../src/node/service/config';
import { type ValidatorBehaviour } from '../faults/targets';

export class Behaviours {
  private readonly byFault = new Map<string, { validators: ReadonlySet<number>; behaviour: ValidatorBehaviour }>();

  /** Make validators behave as a fault says (`key` names the fault; null ends it). */
  set(key: string, validators: readonly number[], behaviour: ValidatorBehaviour | null): void {
    if (behaviour === null) this.byFault.delete(key);
    else this.byFault.set(key, { validators: new Set(validators), behaviour });
  }

  /** The behaviours in force for validator `v`, in the order their faults started. */
  of(v: number): ValidatorBehaviour[] {
    const out: ValidatorBehaviour[] = [];
    for (const { validators, behaviour } of this.byFault.values()) if (validators.has(v)) out.push(behaviour);
    return out;
  }

  /** Validator `v`'s node's hooks that ask the behaviours: the first that answers decides. */
  hooksOf(v: number): Required<Pick<ServiceNodeHooks, 'onOwnVote' | 'byzantineRoutes' | 'bridgeActions' | 'blockTxs'>> {
    return {
      onOwnVote: (vote, sign) => {
        const extra = [];
        for (const b of this.of(v)) if (b.onOwnVote) extra.push(...b.onOwnVote(vote, sign));
        return extra;
      },
      byzantineRoutes: (_node, msg, tools) => {
        for (const b of this.of(v)) {
          const routes = b.routes?.(msg, tools) ?? null;
          if (routes) return routes;
        }
        return null;
      },
      bridgeActions: (node, actions, tools) => {
        for (const b of this.of(v)) {
          const out = b.bridgeActions?.(node, actions, tools) ?? null;
          if (out) return out;
        }
        return null;
      },
      blockTxs: (node, reaped, block) => {
        for (const b of this.of(v)) {
          const txs = b.blockTxs?.(node, reaped, block) ?? null;
          if (txs) return txs;
        }
        return null;
      },
    };
  }
}
