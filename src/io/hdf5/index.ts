/**
 * Public API of wflo's HDF5 layer: the `layouts.h5` writer, reader and verifier, plus the
 * h5wasm runtime helpers other layers (shards/) build on.
 */
export { writeLayoutsFile, type LayoutsFileMeta, type LayoutBatches, type WriteLayoutsOptions, type WriteLayoutsResult } from './layoutsWriter.js';
export { LayoutsFileReader, readLayoutsFile, streamLayoutsFile, inspectLayoutsStructure, type LayoutsFileInfo } from './layoutsReader.js';
export { verifyLayoutsFile, type LayoutsVerifyReport, type LayoutsVerifyExpectations } from './layoutsVerify.js';
export { LAYOUT_COLUMNS, LAYOUTS_FORMAT_NAME, LAYOUTS_FORMAT_VERSION, ROOT_ATTRIBUTES, TASK_ID_WIDTH, type ColumnSpec } from './layoutsSchema.js';
export { definitionEntries, type DefinitionSet } from './definitionGroups.js';
export { acquireWriterLock, isProcessAlive, type WriterLock } from './writerLock.js';
export {
  loadH5,
  openH5,
  openH5Sync,
  withHdf5Diagnostics,
  hdf5Call,
  Hdf5Error,
  summarizeHdf5Diagnostics,
  hdf5ErrorReason,
  closeQuietly,
} from './h5wasmRuntime.js';
