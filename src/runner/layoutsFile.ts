/**
 * The name of the layouts file the exporter keeps in a campaign's output folder. A file of its own
 * so that the modules which only name it (the scheduler, recovery, dry runs) do not load the
 * exporter and with it h5wasm: the coordinator of `wflo run` never loads HDF5 (exporterProcess.ts).
 */
export const LAYOUTS_FILE = 'layouts.h5';
