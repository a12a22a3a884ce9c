/** The scenario suite's large networks, in both placements (see suite.ts). */
import { BOTH_PLACEMENTS_FROM_VALIDATORS, describeSuite } from './suite';

describeSuite('scenario suite, large networks', (s) => s.validators.length >= BOTH_PLACEMENTS_FROM_VALIDATORS);
