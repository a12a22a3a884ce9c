/** The scenario suite, small and medium networks (see suite.ts; the large ones are large.test.ts). */
import { BOTH_PLACEMENTS_FROM_VALIDATORS, describeSuite } from './suite';

describeSuite('scenario suite', (s) => s.validators.length < BOTH_PLACEMENTS_FROM_VALIDATORS);
