import { defineMatrixCrashSuite } from './matrix-publish-crash-suite';

defineMatrixCrashSuite('embedded');
