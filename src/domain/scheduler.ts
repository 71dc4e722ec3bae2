// How domain code asks for later work (3DS expiry, renewals, webhook attempts) without knowing
// Agenda. `key` makes scheduling idempotent: the same key schedules one job.
export interface Scheduler {
  schedule(job: string, at: Date, data: Record<string, unknown>, key?: string): Promise<void>;
}
