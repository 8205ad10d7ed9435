import { defineDhCrashSuite } from './dh-videos-crash-suite';

defineDhCrashSuite('embedded');
