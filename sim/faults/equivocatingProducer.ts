/** `equivocatingProducer`: a producer seals two different blocks per height, one for each half of its peers. */
import { type ProducerFaultOf, producerFlagFault } from './producerFault';

export type EquivocatingProducerFault = ProducerFaultOf<'equivocatingProducer'>;

export const equivocatingProducer = producerFlagFault(
  'equivocatingProducer',
  'equivocate',
  'a producer seals two blocks per height, one for each half of its peers',
);
