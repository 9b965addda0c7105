/**
 * The collection system (cable routing) in one import: the input and its checks, the router
 * (Esau–Williams and sweep starts, subtree re-attachment and node swaps, an iterated local search), the network, its validity check, and the
 * exact gradient of the cable cost for a fixed topology.
 */
export type { CableType } from './cableCatalogue.js';
export { cableChoice, type CableChoice } from './cableCatalogue.js';
export { checkCollectionInput, type CollectionInput } from './collectionInput.js';
export { networkOf, subtreeLoads, type CollectionEdge, type CollectionNetwork } from './collectionNetwork.js';
export { routeCollection, kickCount, ROUTING_LAMBDAS, SWEEP_STARTS, KICKS, KICK_MOVES, KICK_WORK, KICK_ACCEPT } from './routeCollection.js';
export { prepareRouting, NEIGHBOURS, type RoutingProblem } from './routingProblem.js';
export { esauWilliams } from './esauWilliams.js';
export { improveBySubtreeReattach } from './subtreeReattach.js';
export { improveByNodeSwap } from './nodeSwap.js';
export { sweepGroups } from './sweepGroups.js';
export { kick, KickRandom } from './perturbation.js';
export { cableCostGradient, type CableCostGradient } from './cableCostGradient.js';
export { checkNetwork } from './checkNetwork.js';
export { edgesCross, segmentsCross, CROSSING_TOLERANCE_M } from './segmentCrossing.js';
export { blockingZone, insidePolygon } from './exclusionBlock.js';
export { diagnoseUncablable, turbineList, UncablableLayout, type CablingDiagnosis } from './uncablable.js';
