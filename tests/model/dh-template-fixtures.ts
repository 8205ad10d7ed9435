/**
 * Video templates as the templates area's endpoints answer them (the templates page's view tests,
 * the create-video form's template cards): a platform template, one of the merchant's own, a
 * picture of its library, and read-only endpoints over a list.
 */
import type { DhTemplate, DhTemplateListQuery } from '../../src/api/contract/dh-templates';
import type { Resource } from '../../src/api/contract/resources';
import type { DhTemplatesEndpoints } from '../../src/app/actors/digital-human-templates';

const LAYOUT = {
  avatar: { x: 0.6, y: 0.05, width: 0.35, height: 0.95 },
  subtitle: { y: 0.85, size: 0.045, color: '#FFFFFF' },
  background: '#1F3A5F',
};
const template = (patch: Partial<DhTemplate>): DhTemplate => ({
  id: 2,
  name: 'Landscape 16:9',
  scope: 'platform',
  builtin: true,
  default: false,
  editable: false,
  ratio: '16:9',
  width: 1280,
  height: 720,
  layout: LAYOUT,
  background_image: null,
  cover_image: null,
  demo: null,
  music: null,
  cover: null,
  created_at: null,
  ...patch,
});
export const PLATFORM = template({});
/** The default (a video without a template uses it). */
export const PORTRAIT = template({
  id: 1,
  name: 'Portrait 9:16',
  default: true,
  ratio: '9:16',
  width: 720,
  height: 1280,
  layout: { ...LAYOUT, avatar: { x: 0, y: 0, width: 1, height: 1 }, background: '#000000' },
});
export const MINE = template({
  id: 7,
  name: 'My studio',
  scope: 'mine',
  builtin: false,
  editable: true,
  ratio: '9:16',
  width: 720,
  height: 1280,
  music: { resource_id: 31, image_url: null, name: 'calm.mp3', url: '/f/31', poster: null },
  demo: { resource_id: 30, image_url: null, name: 'demo.mp4', url: '/f/30', poster: '/f/30p' },
  cover: '/f/30p',
});
export const PICTURE: Resource = {
  id: 44,
  type: 'image',
  name: 'beach.png',
  group_id: null,
  url: '/f/44',
  cover: '/f/44p',
  content_type: 'image/png',
  size: 100,
  duration: null,
  width: 64,
  height: 64,
  codec: null,
  created_at: 0,
};

/**
 * The templates area's endpoints over `list`: the list call filters it (each query kept in
 * `queries`), the library offers PICTURE; the calls that change something never answer.
 */
export function templatesEndpoints(
  list: readonly DhTemplate[],
  queries: DhTemplateListQuery[] = [],
): DhTemplatesEndpoints {
  const never = () => new Promise<never>(() => {});
  return {
    getDhTemplates: async (query = {}) => {
      queries.push(query);
      return {
        list: list.filter(
          (x) =>
            (!query.scope || x.scope === query.scope) && (!query.ratio || x.ratio === query.ratio),
        ),
      };
    },
    addDhTemplate: never,
    editDhTemplate: never,
    deleteDhTemplates: never,
    addDhTemplateFromVideo: never,
    getResources: async () => ({ list: [PICTURE], total: 1 }),
    getGroups: async () => ({ list: [], ungrouped: 0 }),
    uploadPlatformImage: never,
  };
}
