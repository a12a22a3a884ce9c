/** A sidechain node's settings and identity. */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';

export interface SidechainNodeConfig {
  servicePollMs: number;
  maxHeadersPerAnswer: number;
  /** Clique-style random delay for out-of-turn producers (off by default, as in Bor). */
  jitter: boolean;
}

export const DEFAULT_SIDECHAIN_NODE_CONFIG: SidechainNodeConfig = {
  servicePollMs: 4_000,
  maxHeadersPerAnswer: 256,
  jitter: false,
};

export interface ProducerKey {
  address: Address;
  privateKey: Hex;
}

export interface SidechainIdentity {
  id: string;
  /**
   * Producers have a key; followers do not. `laterKeys` are the signer keys its validator rotates
   * to on the parent chain: the node seals with whichever of its keys the span's producers list,
   * as an operator installs the signer key it registers.
   */
  producer: (ProducerKey & { laterKeys?: readonly ProducerKey[] }) | null;
  peers: string[];
  /** The service node this node asks for spans and records (its local Heimdall). */
  serviceNode: string;
}
