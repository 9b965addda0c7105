/**
 * README.md's benchmark table names every section bench/run.ts knows (bench/sections.ts), says
 * which ones `npm run bench` runs (the quick ones) and how long the others take, as the sections
 * themselves say (the README once named 10 of 14 and none as long).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { DEFAULT_SECTIONS, SECTIONS } from '../../bench/sections.js';

test('the README lists every benchmark section, the quick ones as run by npm run bench, the long ones with their duration', () => {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const part = readme.slice(readme.indexOf('## Benchmarks'), readme.indexOf('\n## ', readme.indexOf('## Benchmarks') + 3));
  const rows = new Map([...part.matchAll(/^\| `([a-z]+)` \| [^|]+ \| ([^|]+) \|$/gm)].map((m) => [m[1], m[2].trim()]));
  assert.deepEqual([...rows.keys()].sort(), Object.keys(SECTIONS).sort());
  for (const [name, section] of Object.entries(SECTIONS)) {
    assert.equal(rows.get(name), section.long ? `long: ${section.long.replace(/ \(.*\)$/, '')}` : 'yes', name);
  }
  assert.ok(DEFAULT_SECTIONS.length >= 3 && DEFAULT_SECTIONS.length < Object.keys(SECTIONS).length);
  assert.ok(!DEFAULT_SECTIONS.includes('quality'), 'the hours-long section is never run by default');
});
