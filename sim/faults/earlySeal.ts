/** `earlySeal`: a backup producer seals as if it were in turn, before its delay (honest nodes must refuse its blocks). */
import { type ProducerFaultOf, producerFlagFault } from './producerFault';

export type EarlySealFault = ProducerFaultOf<'earlySeal'>;

export const earlySeal = producerFlagFault(
  'earlySeal',
  'earlySeal',
  'a backup seals before its delay, as if in turn (its blocks must be refused)',
);
