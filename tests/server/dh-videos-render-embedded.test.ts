import { defineDhRenderSuite } from './dh-videos-render-suite';

defineDhRenderSuite('embedded');
