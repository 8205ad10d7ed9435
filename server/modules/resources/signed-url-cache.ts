import type { Clock } from '../../platform/lib/clock';
import type { FileStore } from '../../platform/storage/places';
import { READ_URL_SECONDS } from '../../platform/storage/storage';

/** What the cache signs with: the app's files (`ctx.storage`). */
type Signer = Pick<FileStore, 'signedReadUrl'>;

/** A URL is handed out again while it has at least this long to live (half its life). */
const REUSE_MS = (READ_URL_SECONDS * 1000) / 2;
const MAX_URLS = 20_000;

/**
 * Signed read URLs of the library's files and posters, reused while they have at least half
 * their hour to live: a list page signs up to 40 URLs (an HMAC each on local disk, a presigned
 * request on S3: most of a page's cost after its query), and the same URL across reloads lets
 * the browser keep a poster it already has (files are served `private` until the URL expires).
 * A caller still always gets a URL valid for at least 30 minutes.
 */
class SignedUrlCache {
  private readonly urls = new Map<string, { url: string; expiresAt: number }>();

  constructor(
    private readonly storage: Signer,
    private readonly now: Clock,
  ) {}

  /** A URL of the file; `download`: an attachment link saved under that name. */
  async url(key: string, download?: string): Promise<string> {
    const entry = download === undefined ? key : `${key}\n${download}`;
    const hit = this.urls.get(entry);
    if (hit && hit.expiresAt - this.now() >= REUSE_MS) return hit.url;
    const signed = await this.storage.signedReadUrl(
      key,
      undefined,
      download === undefined ? {} : { download },
    );
    this.urls.delete(entry);
    if (this.urls.size >= MAX_URLS) this.urls.delete(this.urls.keys().next().value!);
    this.urls.set(entry, signed);
    return signed.url;
  }
}

const caches = new WeakMap<Signer, SignedUrlCache>();

/** The URL cache of a storage (one per app). */
export function signedUrlsOf(storage: Signer, now: Clock): SignedUrlCache {
  let cache = caches.get(storage);
  if (!cache) caches.set(storage, (cache = new SignedUrlCache(storage, now)));
  return cache;
}
