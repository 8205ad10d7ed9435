import { definePreviewSuite } from './video-preview-suite';

definePreviewSuite('embedded', true);
