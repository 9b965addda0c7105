/**
 * The benchmark sections `npm run bench` (bench/run.ts) knows: each a module exporting one async
 * function, what it measures, and, for the long ones, roughly how long it takes on 2 cores (those
 * run only when named, or with `all`). README.md ("Benchmarks") lists every one;
 * test/cli/benchSections.test.ts keeps the two in step.
 */
export interface Section {
  module: string;
  fn: string;
  /** What it measures, one line (printed with the list of sections left out). */
  what: string;
  /** Roughly how long it takes on 2 cores; a section with `long` is run only when named (or with all). */
  long?: string;
}

// Each section is a module exporting one async function; loaded by name so that one missing or
// failing section does not stop the others.
export const SECTIONS: Record<string, Section> = {
  aep: { module: './aep.js', fn: 'benchAep', what: 'AEP engine: IEA37 cs1, the V80 grid with every reference model, 500 turbines' },
  runner: { module: './runner.js', fn: 'benchRunner', what: 'runner overhead (no-op tasks/s), export of 3000 rows, coordinator memory on 100 000 tasks' },
  startup: {
    module: './startup.js',
    fn: 'benchStartup',
    what: 'one wflo process start to exit: --help, validate, aep, status, run of the demo campaign fresh and resumed',
  },
  inputs: { module: './inputs.js', fn: 'benchInputs', what: 'run --dry-run of a 10⁶-task campaign, with and without a ledger' },
  parsing: {
    module: './inputParsing.js',
    fn: 'benchInputParsing',
    what: 'wflo validate on generated inputs: YAML lists, a 360 × 40 rose, time series as YAML and CSV (10⁵, 10⁶ rows)',
    long: 'a few minutes',
  },
  cables: { module: './cables.js', fn: 'benchCables', what: 'collection-system routing of 200 turbines on one core (target ≤ 1 s)' },
  declared: { module: './declaredSizes.js', fn: 'benchDeclaredSizes', what: 'files declaring 10¹² rows refused (shards check, run --adopt); needs h5py' },
  site: {
    module: './site.js',
    fn: 'benchSite',
    what: 'AEP and AEP + gradient on a speed-up hill (100 V80, 360 × 23); PyWake XRSite beside it when PYWAKE_PYTHONPATH is set',
    long: 'a few minutes',
  },
  hub: {
    module: './hub.js',
    fn: 'benchHub',
    what: 'hub height under shear: AEP + ∂(x, y, h) and a whole hub-height optimization, JavaScript vs native kernel',
  },
  python: {
    module: './python.js',
    fn: 'benchPython',
    what: "one aep_and_gradient call from Python (python/wflo) beyond the engine's own time: cs1-16 (target ≤ 50 µs), 100 V80 × 360 × 23 (≤ 2 %)",
  },
  pybatch: {
    module: './pythonBatch.js',
    fn: 'benchPythonBatch',
    what: 'k layouts of cs1-16 in one farm.aep_batch call from Python vs k farm.aep calls, per layout (k = 1, 10, 100, 1000)',
  },
  command: {
    module: './command.js',
    fn: 'benchCommand',
    what: 'own-optimizer tasks: per-task overhead, tasks/s per-task and persistent',
    long: 'a few minutes',
  },
  optimize: { module: './optimize.js', fn: 'benchOptimize', what: 'gradient method on cs1-16/64; global on cs1-16 over 20 seeds', long: 'about 5 minutes' },
  shards: {
    module: './shardsMerge.js',
    fn: 'benchShardsMerge',
    what: 'shards merge of 3000 worker files (and 3000 × 10 × 64), with and without --expect',
    long: '10 minutes or more',
  },
  collect: { module: './collect.js', fn: 'benchCollect', what: 'collect of 100 shard folders holding 100 000 results', long: '10 minutes or more' },
  views: { module: './views.js', fn: 'benchViews', what: 'report of 3000- and 100 000-task campaigns, dashboard first data', long: '10 minutes or more' },
  queue: { module: './queue.js', fn: 'benchQueue', what: 'Redis queue throughput and memory (needs redis-server)', long: '10 minutes or more' },
  gate: { module: './gate.js', fn: 'benchGate', what: 'what the verification gate costs per task and per campaign', long: '10 minutes or more' },
  trust: {
    module: './trust.js',
    fn: 'benchTrust',
    what: 'adoption of 3000 records, recovery after a lost ledger, memory on 10⁶ tasks',
    long: '20 minutes or more',
  },
  inflow: {
    module: './inflow.js',
    fn: 'benchInflow',
    what: 'native kernel vs JavaScript: a 10⁵-sample time series, a .wrg per-point Weibull site, TI per bin (AEP and AEP + gradient, 100 V80)',
    long: 'a few minutes',
  },
  realfarms: {
    module: './realFarms.js',
    fn: 'benchRealFarms',
    what: 'time series (10⁵ samples × 100 turbines) and blockage; PyWake beside them when PYWAKE_PYTHONPATH is set',
    long: '10 minutes or more (longer with PyWake)',
  },
  restart: {
    module: './restartStage.js',
    fn: 'benchRestartStage',
    what: 'gradient method: AEP and CPU s of the closing restart stage on cs1-16, cs1-36, cs3 over 5 seeds',
    long: 'about 10 minutes',
  },
  rotorground: {
    module: './rotorGround.js',
    fn: 'benchRotorGround',
    what: 'ground mirror, rotor averages, turbulence ct2a: native vs JavaScript kernel, 100 V80 × 72 × 23 (and native on 360 × 23)',
    long: 'a few minutes',
  },
  blockage: {
    module: './rotorGround.js',
    fn: 'benchBlockage',
    what: 'blockage (JavaScript) vs the waked solve on each kernel, 16, 49, 100 V80 × 72 × 23',
    long: 'a few minutes',
  },
  crash: {
    module: './crashSafety.js',
    fn: 'benchCrashSafety',
    what: 'crash safety: 40 random SIGKILLs of a site + LCOE campaign, rows bit-identical to an uninterrupted run (WFLO_CRASH_KILLS)',
    long: 'about 4 minutes',
  },
  quality: {
    module: './optimizeQuality.js',
    fn: 'benchOptimizeQuality',
    what: 'best AEP after 60 and 600 CPU s per case and method (WFLO_QPS_* to narrow it)',
    long: 'hours (3 cases × 4 methods × 600 CPU s)',
  },
};

export const DEFAULT_SECTIONS = Object.keys(SECTIONS).filter((name) => !SECTIONS[name].long);
