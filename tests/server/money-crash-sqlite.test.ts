import { defineMoneyCrashSuite } from './money-crash-suite';

defineMoneyCrashSuite('sqlite');
