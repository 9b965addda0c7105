// Writes depth.csv, the made-up sea floor of the cs4 worked example (docs/cost.md): a regular
// 500 m grid over the IEA37 cs4 (Borssele) site, deepening from 18 m at the south-east corner
// (toward the coast) to 38 m at the north-west, with sand banks 3 km apart running SW–NE
// (±4 m), as the Flemish banks do. Invented for the example, not surveyed data: the real
// Borssele zone lies in 14–40 m of water. Run: node examples/offshore-cs4/makeBathymetry.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = ['x,y,depth'];
for (let y = 0; y <= 12000; y += 500) {
  for (let x = 0; x <= 10500; x += 500) {
    const offshore = ((10500 - x) / 10500 + y / 12000) / 2;             // 0 at SE, 1 at NW
    const across = (x * Math.cos(Math.PI / 4) - y * Math.sin(Math.PI / 4)) / 3000;  // across SW–NE banks
    const depth = 18 + 20 * offshore + 4 * Math.sin(2 * Math.PI * across);
    rows.push(`${x},${y},${depth.toFixed(2)}`);
  }
}
fs.writeFileSync(path.join(here, 'depth.csv'), `${rows.join('\n')}\n`);
