/**
 * StateSender: the parent chain's end of state sync (spec item 9). `syncState` emits
 * StateSynced(id, receiver, data) with ids from 1; the service's validators relay each one and the
 * sidechain commits it at a sprint start.
 *
 * Polygon's StateSender only accepts senders registered for the receiver; the spec says nothing of
 * registration, so any sender may sync to any receiver here. No size limit either: the service's
 * clerk enforces its own (heimdall.md §7).
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { canonicalJson } from '../../core/canonicalJson';
import { encodeLog } from '../abi';
import { PARENT_CONTRACTS } from './addresses';
import { type CallResult, argAddress, argHex, execute } from './callResult';

export class StateSender {
  readonly address: Address;
  /** The id of the last StateSynced (0 before the first). */
  private counter = 0n;

  constructor(options: { address?: Address } = {}) {
    this.address = options.address ?? PARENT_CONTRACTS.stateSender;
  }

  get lastStateId(): bigint {
    return this.counter;
  }

  /** Everything the contract stores, as canonical JSON (for state digests and tests). */
  stateJson(): string {
    return canonicalJson({ counter: this.counter });
  }

  syncState(from: Address, receiver: Address, data: Hex): CallResult {
    return execute(() => {
      argAddress(from, 'sender');
      const contractAddress = argAddress(receiver, 'receiver');
      const payload = argHex(data, 'data');

      this.counter += 1n;
      return [
        { address: this.address, ...encodeLog('StateSynced', { id: this.counter, contractAddress, data: payload }) },
      ];
    });
  }
}
