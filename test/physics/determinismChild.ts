/**
 * A separate process for the determinism test (as the local pool's forked workers are): prints the
 * fingerprints of determinismCases.ts as JSON. `node dist/test/physics/determinismChild.js [isa]`.
 */
import { fingerprints } from './determinismCases.js';
import type { IsaChoice } from '../../src/physics/nativeKernel.js';

process.stdout.write(JSON.stringify(fingerprints((process.argv[2] ?? 'best') as IsaChoice)) + '\n');
