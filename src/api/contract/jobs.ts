/** GET /jobs/stats (admin): the job runner's jobs, counted per kind and state. */
export interface JobKindStats {
  kind: string;
  /** Due, waiting for a worker. */
  waiting: number;
  /** Waiting for their time (a delay, or a retry's backoff). */
  delayed: number;
  active: number;
  completed: number;
  failed: number;
  cancelled: number;
}

export interface JobStats {
  /** `embedded` (the app's database) or `bullmq` (Redis, REDIS_URL). */
  adapter: 'embedded' | 'bullmq';
  kinds: JobKindStats[];
}
