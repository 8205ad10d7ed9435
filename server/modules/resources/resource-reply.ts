import type { Resource, ResourceType } from '../../../src/api/contract/resources';
import type { FileStorage } from '../../storage/storage';
import type { ResourceRow } from './repo';

const num = (v: number | null) => (v === null ? null : Number(v));

/**
 * A resource as the library shows it: signed URLs of its file and poster (1 hour, Range works;
 * never the session token) and its duration in seconds.
 */
export async function toResource(storage: FileStorage, row: ResourceRow): Promise<Resource> {
  const [file, poster] = await Promise.all([
    storage.signedReadUrl(row.storage_key),
    row.poster_key ? storage.signedReadUrl(row.poster_key) : undefined,
  ]);
  const durationMs = num(row.duration_ms);
  return {
    id: Number(row.id),
    type: row.type as ResourceType,
    name: row.name,
    group_id: num(row.group_id),
    url: file.url,
    cover: poster?.url ?? null,
    content_type: row.content_type,
    size: Number(row.size),
    duration: durationMs === null ? null : Math.round(durationMs / 10) / 100,
    width: num(row.width),
    height: num(row.height),
    codec: row.codec,
    created_at: Number(row.created_at),
  };
}
