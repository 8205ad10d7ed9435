import { defineCrashSuite } from './video-tasks-crash-suite';

defineCrashSuite('embedded');
