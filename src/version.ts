/** wflo's version, stamped into outputs and spec hashes. Keep in step with package.json. */
export const VERSION = '0.1.0';
/** Bumped whenever a change to the physics or optimizers can change a result bit. */
export const ENGINE_VERSION = 'engine-6';
