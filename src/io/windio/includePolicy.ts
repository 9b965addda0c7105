/**
 * Where a windIO `!include` may reach, and how much it may bring in. A plant is a folder
 * (windIO's layout: `plant/wind_energy_system/system.yaml` includes `../plant_energy_site/…`,
 * which includes `../plant_energy_resource/…`), so an include must resolve, symbolic links
 * followed, inside the plant folder: the folder above the top file's folder. An include that
 * leaves it (`!include ../../../../etc/passwd`) is refused unread, unless the user allows it with
 * `--allow-include-outside` (the CLI sets WFLO_ALLOW_INCLUDE_OUTSIDE=1, which child processes
 * such as SLURM jobs inherit).
 *
 * Sizes are counted over the plant as it expands, each include counted every time it is used
 * (that is what a reader walks): a fan-out of includes (10 per file, 8 levels: 10⁸ copies) is
 * refused after its first few thousand, though each file is read and parsed once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MAX_YAML_BYTES } from '../yamlFile.js';
import { filesMayLeaveFolder } from '../fileDoor.js';

/** Nested includes deeper than this are refused (windIO's examples nest 3). */
export const MAX_INCLUDE_DEPTH = 16;
/**
 * Elements of the expanded plant (yamlBudget.ts counts them): twice one file's budget. The files
 * of a plant stay parsed while it is read (~250 bytes per element once parsed, measured), so
 * this also bounds what they hold: ~75 MB beside the peak of parsing the largest one.
 */
export const MAX_PLANT_ELEMENTS = 300_000;
/** Bytes of the expanded plant: every included file's size, each time it is included (4 files at the YAML cap). */
export const MAX_PLANT_BYTES = 4 * MAX_YAML_BYTES;

export { ALLOW_OUTSIDE_ENV, ALLOW_OUTSIDE_OPTION, isInside } from '../fileDoor.js';

export const includesMayLeavePlant = filesMayLeaveFolder;

/** The plant folder of a top file (real path): the folder above the file's own folder. */
export function plantFolderOf(topFile: string): string {
  return path.dirname(path.dirname(fs.realpathSync(topFile)));
}
