import type { Resource, ResourceType } from '../../../src/api/contract/resources';
import type { AppContext } from '../../context';
import type { ResourceRow } from './repo';
import { signedUrlsOf } from './signed-url-cache';

const num = (v: number | null) => (v === null ? null : Number(v));

/**
 * A resource as the library shows it: signed URLs of its file and poster (valid at least 30
 * minutes, Range works; never the session token) and its duration in seconds.
 */
export async function toResource(
  ctx: Pick<AppContext, 'storage' | 'now'>,
  row: ResourceRow,
): Promise<Resource> {
  const urls = signedUrlsOf(ctx.storage, ctx.now);
  const [url, cover] = await Promise.all([
    urls.url(row.storage_key),
    row.poster_key ? urls.url(row.poster_key) : null,
  ]);
  const durationMs = num(row.duration_ms);
  return {
    id: Number(row.id),
    type: row.type as ResourceType,
    name: row.name,
    group_id: num(row.group_id),
    url,
    cover,
    content_type: row.content_type,
    size: Number(row.size),
    duration: durationMs === null ? null : Math.round(durationMs / 10) / 100,
    width: num(row.width),
    height: num(row.height),
    codec: row.codec,
    created_at: Number(row.created_at),
  };
}
