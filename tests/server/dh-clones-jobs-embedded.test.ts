import { defineCloneJobSuite } from './dh-clones-jobs-suite';

defineCloneJobSuite('embedded');
