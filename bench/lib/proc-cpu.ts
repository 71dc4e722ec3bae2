// CPU time of process trees from /proc, so the gateway needs no endpoint for it. A process's
// ticks (utime+stime) plus those of its children it has reaped (cutime+cstime) are counted, so a
// PostgreSQL backend that exits moves its time to the postmaster instead of losing it.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  ppid: number;
  ticks: number;
}

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // exited between listing and reading
  }
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' do not.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // f[0] is field 3 (state): ppid is field 4, utime..cstime fields 14-17.
  return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
}

function snapshot(): Map<number, ProcStat> {
  const all = new Map<number, ProcStat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) all.set(Number(name), stat);
  }
  return all;
}

function subtree(all: Map<number, ProcStat>, root: number): Set<number> {
  const members = new Set<number>(all.has(root) ? [root] : []);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, stat] of all) {
      if (!members.has(pid) && members.has(stat.ppid)) {
        members.add(pid);
        grew = true;
      }
    }
  }
  return members;
}

export interface CpuSample {
  /** CPU milliseconds of the gateway process and its descendants, PostgreSQL's excluded. */
  gatewayMs: number;
  /** CPU milliseconds of the PostgreSQL server (postmaster and every backend). */
  postgresMs: number;
}

/** `postgresPid` is the postmaster; pass null when the database is not a descendant worth separating. */
export function sampleCpu(gatewayPid: number, postgresPid: number | null): CpuSample {
  const all = snapshot();
  const pg = postgresPid === null ? new Set<number>() : subtree(all, postgresPid);
  const gateway = subtree(all, gatewayPid);
  const toMs = (pids: Set<number>, skip: Set<number>) => {
    let ticks = 0;
    for (const pid of pids) if (!skip.has(pid)) ticks += all.get(pid)!.ticks;
    return (ticks * 1000) / clockTicks();
  };
  return { gatewayMs: toMs(gateway, pg), postgresMs: toMs(pg, new Set()) };
}
