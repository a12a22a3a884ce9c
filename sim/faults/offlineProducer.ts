/** `offlineProducer`: a producer seals nothing while the fault lasts (its backups must step in). */
import { type ProducerFaultOf, producerFlagFault } from './producerFault';

export type OfflineProducerFault = ProducerFaultOf<'offlineProducer'>;

export const offlineProducer = producerFlagFault(
  'offlineProducer',
  'offline',
  'a producer seals nothing (its backups must step in)',
);
