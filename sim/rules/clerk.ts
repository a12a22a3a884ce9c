/** Rules of the clerk module: state-sync records relayed from the parent chain. */
import { type Rule } from './rule';

const CLERK = 'src/modules/clerk/msgs.test.ts';

export const CLERK_RULES = [
  {
    id: 'clerk.record.stored',
    rule: "A state-sync record voted through is stored under its id with the event's contract and data and record_time = the block time of its post block.",
    source: 'spec: What the service does 9; reference: heimdall.md §7',
    guard: {
      oracle: 'service-state',
      compares: "the state-sync records the node writes against the model's records from the parent events",
    },
  },
  {
    id: 'clerk.record.id-exists',
    rule: 'A record whose id is already stored is refused at deliver with 5400.',
    source: 'reference: heimdall.md §7 (deliver)',
    guard: { oracle: 'tx-results', compares: "each MsgEventRecord's result code against the model's records" },
  },
  {
    id: 'clerk.record.chain-id',
    rule: 'A record naming another sidechain chain id is refused at deliver with 3506.',
    source: 'reference: heimdall.md §7 (deliver)',
    guard: { oracle: 'tx-results', compares: "each MsgEventRecord's result code against the model's chain id" },
  },
  {
    id: 'clerk.record.replay',
    rule: 'A record for a processed (tx_hash, log_index) is refused with 1401, at deliver (under another id) and at the post handler (two in one block).',
    source: 'reference: heimdall.md §7, §8.3',
    guard: { oracle: 'tx-results', compares: "each MsgEventRecord's result code against the model's processed events" },
  },
  {
    id: 'clerk.record.must-match',
    rule: "Validators vote no on a record whose id, contract, data or event kind differs from the parent chain's StateSynced event at (tx_hash, log_index).",
    source: 'reference: heimdall.md §7 (side)',
    guard: {
      oracle: 'side-tx-results',
      compares: "each record's tally and post result against the model's reading of the event",
    },
  },
  {
    id: 'clerk.record.large-data',
    rule: 'An event with more than 30000 bytes of data is relayed with empty data (and must match otherwise).',
    source: 'reference: heimdall.md §7 (MaxStateSyncSize)',
    guard: {
      unit: CLERK,
      test: 'an event with more than 30000 bytes of data is relayed with empty data; up to 30000 bytes it must match',
      why: 'the workloads emit small state syncs; no scenario sends 30 kB of data',
    },
  },
  {
    id: 'clerk.record.max-size',
    rule: 'A record with more than 100000 bytes of data is refused by its stateless checks with 5403.',
    source: 'reference: heimdall.md §7 (ValidateBasic)',
    guard: {
      oracle: 'tx-results',
      compares:
        "each state-sync record's DeliverTx code against the model's size check (the Byzantine kind stateSyncTooBig sends 100,001 bytes)",
    },
  },
  {
    id: 'clerk.record.time-format',
    rule: 'record_time is written as Go RFC3339Nano in UTC (fractional seconds without trailing zeros).',
    source: 'reference: heimdall.md §7 (EventRecord)',
    guard: {
      unit: CLERK,
      test: 'record_time formatting equals Go RFC3339Nano (UTC) for any time in years 1970..9999',
      why: 'a text format of a query answer',
    },
  },
  {
    id: 'clerk.query.from-id',
    rule: 'The record list: by from-id and to-time, consecutive ids from from-id while record_time < to-time ([] when from-id has no record); by from-time and to-time, records in [from, to) by time then id, paged; otherwise paged over the record keys (the id as decimal text: 10 before 2). At most 50 a page (larger limits clamped); an empty page of the paged ways is null.',
    source: 'reference: heimdall.md §7 (fetch API used by the sidechain; clerk/client/rest/query.go)',
    guard: {
      oracle: 'query-answers',
      compares:
        "the REST client's list queries (from an id up to a time, a time range, plain pages; several limits) against the model's answer from its own records",
    },
  },
] as const satisfies readonly Rule[];
