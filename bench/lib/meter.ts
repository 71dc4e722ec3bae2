// Counters read before and after a measured window: CPU of the gateway and of PostgreSQL (/proc)
// and the statements PostgreSQL ran (pg_stat_statements), plus this process's own CPU.
import { SqlCounter, type SqlDelta, type SqlSample } from './pg-counters.ts';
import { sampleCpu, type CpuSample } from './proc-cpu.ts';

interface Sample {
  cpu: CpuSample;
  sql: SqlSample;
  benchMs: number;
}

export interface Usage {
  gatewayCpuMs: number;
  postgresCpuMs: number;
  /** The benchmark process itself (load generator, bare-pg baseline, receiver). */
  benchCpuMs: number;
  sql: SqlDelta;
}

/** The server whose CPU is measured (the gateway, or the floor server) and its database. */
export interface Measured {
  readonly pid: number;
  postgresPid(): number | null;
}

export class Meter {
  private before: Sample | null = null;

  constructor(
    private readonly gateway: Measured,
    private readonly sql: SqlCounter,
  ) {}

  private async sample(): Promise<Sample> {
    const sql = await this.sql.sample();
    const { user, system } = process.cpuUsage();
    return { sql, cpu: sampleCpu(this.gateway.pid, this.gateway.postgresPid()), benchMs: (user + system) / 1000 };
  }

  async start(): Promise<void> {
    await this.sql.reset();
    this.before = await this.sample();
  }

  async stop(): Promise<Usage> {
    if (!this.before) throw new Error('Meter.stop() before start()');
    const after = await this.sample();
    const b = this.before;
    this.before = null;
    return {
      gatewayCpuMs: after.cpu.gatewayMs - b.cpu.gatewayMs,
      postgresCpuMs: after.cpu.postgresMs - b.cpu.postgresMs,
      benchCpuMs: after.benchMs - b.benchMs,
      sql: SqlCounter.delta(b.sql, after.sql),
    };
  }
}
