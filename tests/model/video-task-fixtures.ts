import type { Resource } from '../../src/api/contract/resources';

/** A video resource of the caller's, as the library lists it (the video task form tests). */
export const clipResource = (id: number, name: string, duration: number): Resource => ({
  id,
  type: 'video',
  name,
  group_id: null,
  url: `/api/v1/files/${id}?sig=s`,
  cover: `/api/v1/files/${id}-poster?sig=s`,
  content_type: 'video/mp4',
  size: 1024,
  duration,
  width: 1280,
  height: 720,
  codec: 'h264',
  created_at: 0,
});
