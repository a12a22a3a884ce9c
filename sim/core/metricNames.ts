/**
 * The names of the per-run metrics, in the order of their table (sim/metrics/metrics.ts defines
 * each): the vocabulary that scenario files (`expect.metrics`) and sweep files name them in. A
 * metric's name is typed by this list, so the table cannot define a name the files cannot use.
 */
export const METRIC_NAMES = [
  'reorgDepth',
  'reorgDepthHealthy',
  'reorgDepthMean',
  'reorgs',
  'backupBlocks',
  'checkpointLatencyMedianS',
  'checkpointLatencyMaxS',
  'checkpointGapMaxS',
  'noAcks',
  'stateSyncLatencyMedianS',
  'stateSyncLatencyMaxS',
  'serviceBlockIntervalMeanS',
  'roundsPerHeightMean',
  'serviceBlocks',
  'sidechainBlocks',
  'sidechainTransfers',
  'spans',
  'checkpointsAcked',
] as const;

export type MetricName = (typeof METRIC_NAMES)[number];
