/**
 * The IEA37 case-study files of test/data/iea37/ are exactly what test/writeIea37Files.ts writes
 * from the facts (facts.yaml, sources in SOURCE.md), so no committed file drifts from the facts;
 * and the derived 360-direction rose keeps the cs3 rose at the cs3 directions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IEA37 } from '../helpers.js';
import { derivedRose, iea37Files, readIea37Facts } from '../writeIea37Files.js';

test('every committed case-study file is what the writer makes of facts.yaml', () => {
  const files = iea37Files(readIea37Facts());
  assert.ok(files.size >= 12);
  for (const [rel, text] of files) {
    const committed = path.join(IEA37, rel);
    assert.ok(fs.existsSync(committed), `${rel} missing: run node dist/test/writeIea37Files.js`);
    assert.equal(fs.readFileSync(committed, 'utf8'), text, `${rel} differs from what test/writeIea37Files.ts writes`);
  }
  // Nothing else in the case-study folders (an unlisted file would not be covered by SOURCE.md).
  for (const sub of ['cs1-2', 'cs3-4']) {
    for (const f of fs.readdirSync(path.join(IEA37, sub))) assert.ok(files.has(`${sub}/${f}`), `${sub}/${f} is not written by the writer`);
  }
});

test('the 360-direction rose: frequencies sum to 1, and at every 18° it is the cs3 rose', () => {
  const facts = readIea37Facts();
  const cs3 = facts.winds.cs3;
  const d = derivedRose(cs3, facts.winds['cs4-360']);
  assert.equal(d.directions.length, 360);
  assert.ok(Math.abs(d.directionFrequency.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  const cs3Total = cs3.direction_frequency.reduce((a, b) => a + b, 0);
  cs3.directions_deg.forEach((dir, k) => {
    assert.deepEqual(
      d.speedFrequency[dir],
      cs3.speed_frequency[k].map((v) => Math.round(v * 1e10) / 1e10),
    );
    // Direction frequency per degree ∝ the cs3 frequency of that 18° bin.
    assert.ok(Math.abs(d.directionFrequency[dir] * 18 * cs3Total - cs3.direction_frequency[k]) < 1e-6);
  });
});
