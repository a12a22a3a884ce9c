/** The proposer-priority algorithm lives in core (the sidechain's snapshots use it too). */
export * from '../../core/validatorSet';
