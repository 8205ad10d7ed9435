import { defineRenderSuite } from './video-tasks-render-suite';

defineRenderSuite('embedded');
