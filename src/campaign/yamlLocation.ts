/**
 * Where a field path (['farms', 1, 'n_turbines']) sits in a YAML file, for error messages of
 * the form `campaign.yaml:12: farms[1].n_turbines: …`. The registry of parsed objects and their
 * YAML nodes lives in io/sourceMap.ts (used by every input reader); this re-exports it for the
 * campaign layer.
 */
export { formatFieldPath, locate, errorAt, type FieldPath, type Location } from '../io/sourceMap.js';
