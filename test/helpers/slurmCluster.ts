/**
 * A private single-node SLURM cluster for tests: this machine (its hostname, its CPUs, most of
 * its memory) as the only node, started as root from Debian's slurm-wlm and munge in a temporary
 * folder. Everything is private to it: a fresh munge key and socket, slurmctld/slurmd on free
 * ports on 127.0.0.1, state, spool, pid and log files in the folder. Every SLURM command must
 * see `SLURM_CONF` (use `env` / `run()`); jobs inherit it from sbatch, which is also how stop()
 * finds their leftover processes.
 *
 * start() waits until `sinfo` shows the node idle. When a daemon dies or the node never comes up
 * it throws with the daemon's own error line (from its log), so a machine where slurmd cannot
 * run fails the test rather than skipping it. stop() cancels the jobs, terminates the daemons'
 * process groups (SIGKILL after a grace period), kills any process still carrying this
 * cluster's SLURM_CONF (slurmstepd and job steps) and removes the folder; call it in after().
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface SlurmCluster {
  dir: string;
  conf: string;
  /** process.env plus SLURM_CONF: pass to every SLURM command and to anything that calls one. */
  env: NodeJS.ProcessEnv;
  nodeName: string;
  cpus: number;
  /** The slurm.conf text used. */
  confText: string;
  run(command: string, args: string[]): SpawnSyncReturns<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The daemon's own reason for failing: the last error/fatal line of its log or stderr. */
function errorLine(...files: string[]): string {
  const lines: string[] = [];
  for (const f of files) {
    try {
      lines.push(
        ...fs
          .readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== ''),
      );
    } catch {
      /* not written yet */
    }
  }
  const errors = lines.filter((l) => /error|fatal|failed|cannot|unable/i.test(l));
  return (errors.pop() ?? lines.pop() ?? '(no output)').trim();
}

function processesWithEnv(entry: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const env = fs.readFileSync(`/proc/${name}/environ`, 'latin1');
      if (env.split('\0').includes(entry)) out.push(Number(name));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startSlurmCluster(): Promise<SlurmCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-slurm-'));
  fs.chmodSync(dir, 0o755);
  const mungeDir = path.join(dir, 'munge');
  fs.mkdirSync(mungeDir, { mode: 0o711 });
  fs.chmodSync(mungeDir, 0o711);
  const keyFile = path.join(mungeDir, 'munge.key');
  fs.writeFileSync(keyFile, crypto.randomBytes(1024), { mode: 0o400 });
  const socket = path.join(mungeDir, 'munge.socket');
  for (const sub of ['state', 'spool', 'log']) fs.mkdirSync(path.join(dir, sub));

  const nodeName = os.hostname().split('.')[0];
  const cpus = os.availableParallelism();
  // Leave room for what the OS needs so slurmd never reports less memory than configured.
  const memoryMb = Math.max(256, Math.floor((os.totalmem() / 1048576) * 0.8));
  const [ctldPort, slurmdPort] = [await freePort(), await freePort()];
  const conf = path.join(dir, 'slurm.conf');
  const log = (name: string): string => path.join(dir, 'log', name);
  const confText = [
    'ClusterName=wflotest',
    'SlurmctldHost=localhost',
    'SlurmUser=root',
    'SlurmdUser=root',
    `SlurmctldPort=${ctldPort}`,
    `SlurmdPort=${slurmdPort}`,
    'AuthType=auth/munge',
    'CredType=cred/munge',
    `AuthInfo=socket=${socket}`,
    `StateSaveLocation=${path.join(dir, 'state')}`,
    `SlurmdSpoolDir=${path.join(dir, 'spool')}`,
    `SlurmctldPidFile=${path.join(dir, 'slurmctld.pid')}`,
    `SlurmdPidFile=${path.join(dir, 'slurmd.pid')}`,
    `SlurmctldLogFile=${log('slurmctld.log')}`,
    `SlurmdLogFile=${log('slurmd.log')}`,
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    'SchedulerType=sched/backfill',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'MpiDefault=none',
    'ReturnToService=2',
    'KillWait=5',
    'SlurmctldTimeout=300',
    'SlurmdTimeout=300', // a loaded test machine must not get its only node marked down
    'InactiveLimit=0',
    'MinJobAge=300',
    `NodeName=${nodeName} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${memoryMb} State=UNKNOWN`,
    `PartitionName=test Nodes=${nodeName} Default=YES MaxTime=INFINITE State=UP`,
    '',
  ].join('\n');
  fs.writeFileSync(conf, confText);
  const env: NodeJS.ProcessEnv = { ...process.env, SLURM_CONF: conf };
  const confEntry = `SLURM_CONF=${conf}`;

  const daemons: { name: string; child: ChildProcess; logs: string[] }[] = [];
  const startDaemon = (name: string, command: string, args: string[], logFile: string): void => {
    const stderrFile = log(`${name}.stderr`);
    const fd = fs.openSync(stderrFile, 'a');
    const child = spawn(command, args, { env, detached: true, stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    child.on('error', () => {
      /* reported by the exit check */
    });
    daemons.push({ name, child, logs: [logFile, stderrFile] });
  };
  const deadDaemon = (): string | null => {
    for (const d of daemons) {
      if (d.child.exitCode !== null || d.child.signalCode !== null) {
        return `${d.name} exited (${d.child.signalCode ?? `code ${d.child.exitCode}`}): ${errorLine(...d.logs)}`;
      }
    }
    return null;
  };

  const stop = async (): Promise<void> => {
    if (daemons.some((d) => d.child.exitCode === null && d.child.signalCode === null)) {
      spawnSync('scancel', ['--quiet', '--user', os.userInfo().username], { env, timeout: 5000 });
    }
    for (const d of [...daemons].reverse()) {
      if (d.child.pid && d.child.exitCode === null && d.child.signalCode === null) {
        try {
          process.kill(-d.child.pid, 'SIGTERM');
        } catch {
          /* already gone */
        }
      }
    }
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && daemons.some((d) => d.child.exitCode === null && d.child.signalCode === null)) await sleep(100);
    for (const d of daemons) {
      if (d.child.pid && d.child.exitCode === null && d.child.signalCode === null) {
        try {
          process.kill(-d.child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }
    // slurmstepd and job processes are not in the daemons' groups: find them by our SLURM_CONF.
    for (let round = 0; round < 3; round++) {
      const left = processesWithEnv(confEntry);
      if (left.length === 0) break;
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      await sleep(200);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    startDaemon(
      'munged',
      'munged',
      [
        '--foreground',
        '--force',
        `--key-file=${keyFile}`,
        `--socket=${socket}`,
        `--pid-file=${path.join(mungeDir, 'munged.pid')}`,
        `--log-file=${log('munged.log')}`,
        `--seed-file=${path.join(mungeDir, 'munged.seed')}`,
      ],
      log('munged.log'),
    );
    for (let i = 0; !fs.existsSync(socket); i++) {
      const dead = deadDaemon();
      if (dead) throw new Error(dead);
      if (i > 100) throw new Error(`munged did not create its socket in 10 s: ${errorLine(log('munged.log'), log('munged.stderr'))}`);
      await sleep(100);
    }
    startDaemon('slurmctld', 'slurmctld', ['-D', '-i', '-f', conf], log('slurmctld.log'));
    startDaemon('slurmd', 'slurmd', ['-D', '-f', conf, '-N', nodeName], log('slurmd.log'));
    const deadline = Date.now() + 30_000;
    let state = '';
    for (;;) {
      const dead = deadDaemon();
      if (dead) throw new Error(dead);
      const r = spawnSync('sinfo', ['-h', '-n', nodeName, '-o', '%T'], { env, encoding: 'utf8', timeout: 5000 });
      state = (r.stdout ?? '').trim();
      if (r.status === 0 && state === 'idle') break;
      if (Date.now() > deadline) {
        throw new Error(
          `the SLURM node never became idle (sinfo: '${state || (r.stderr ?? '').trim()}'); slurmd: ${errorLine(log('slurmd.log'), log('slurmd.stderr'))}; ` +
            `slurmctld: ${errorLine(log('slurmctld.log'), log('slurmctld.stderr'))}`,
        );
      }
      await sleep(200);
    }
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    dir,
    conf,
    env,
    nodeName,
    cpus,
    confText,
    run: (command, args) => spawnSync(command, args, { env, encoding: 'utf8', timeout: 30_000 }),
    stop,
  };
}

export { alive as isAlive };
