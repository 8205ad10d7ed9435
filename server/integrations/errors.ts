/**
 * How a call to an outside service failed; the kind, never the message, decides what the caller
 * does next (docs/architecture.md §Integrations):
 * - `transient`: the service is down, slow or busy (network, timeout, 5xx, 408, 429): try again
 *   later — the job runner retries with backoff, a request asks the person to try again.
 * - `permanent`: the same request will fail again (refused input, a failed vendor job): fail the
 *   work now and give back what it held (refund).
 * - `reauthorize`: our credentials no longer work (a wrong or missing API key, a revoked or expired
 *   token): never retried blind; whoever owns them must authorise again (an admin sets the key,
 *   a merchant reconnects the account). Fails the work like `permanent`.
 */
export type IntegrationErrorKind = 'transient' | 'permanent' | 'reauthorize';

/** A failure of an outside service. `reasonId` is a server message id shown to the person. */
export class IntegrationError extends Error {
  constructor(
    message: string,
    readonly kind: IntegrationErrorKind,
    readonly reasonId: string,
    readonly reasonParams: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = 'IntegrationError';
  }

  /** Not worth retrying (permanent or reauthorize). */
  get permanent(): boolean {
    return this.kind !== 'transient';
  }
}
