/**
 * Plots of farms with several turbine models and neighbours: each model has its own marker shape
 * (circle, square, …) and key row, each marker says its model (`data-model`), neighbours are grey
 * crossed circles at their coordinates (never coloured by the farm's wake loss), the title names
 * the fleet; a campaign's stored rows plot with the models the row holds, from the ledger and from
 * layouts.h5 alike.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { runWflo, tempDir } from './viewsTestKit.js';
import { loadCase } from '../../src/io/caseFile.js';

const MIXED = path.join(REPO, 'examples', 'mixed-farm.yaml');

function turbineMarkers(svg: string): { tag: string; model: number; x: number; y: number }[] {
  return [...svg.matchAll(/<(circle|rect|polygon) class="turbine"([^>]*)>/g)].map((m) => {
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(m[2])?.[1] ?? '';
    return { tag: m[1], model: Number(attr('data-model')), x: Number(attr('data-x')), y: Number(attr('data-y')) };
  });
}

test('a case of two models beside neighbours: a shape per model, neighbours as grey crossed circles, key rows, fleet in the title', () => {
  const dir = tempDir('wflo-mixed-plot-');
  const file = path.join(dir, 'mixed.svg');
  const r = runWflo(['plot', MIXED, '-o', file]);
  assert.equal(r.status, 0, r.stderr);
  const svg = fs.readFileSync(file, 'utf8');
  const c = loadCase(MIXED);
  const markers = turbineMarkers(svg);
  assert.equal(markers.length, 16);
  markers.forEach((m, i) => {
    assert.equal(m.model, c.turbines!.typeOf[i], `turbine ${i}`);
    assert.equal(m.tag, m.model === 0 ? 'circle' : 'rect', `turbine ${i}: model ${m.model} drawn as ${m.tag}`);
    assert.equal(m.x, c.layout!.x[i]);
    assert.equal(m.y, c.layout!.y[i]);
  });
  const neighbours = [...svg.matchAll(/<g class="neighbour" data-x="([^"]*)" data-y="([^"]*)" data-model="([^"]*)">/g)];
  assert.deepEqual(
    neighbours.map((m) => [Number(m[1]), Number(m[2]), m[3]]),
    [
      [-2200, -600, 'iea37-3.35mw'],
      [-2200, 0, 'iea37-3.35mw'],
      [-2200, 600, 'v80'],
    ],
  );
  assert.match(svg, /<g class="neighbours" fill="#d9d9d9"/);
  assert.match(svg, /iea37-3\.35mw \(D 130 m\)/);
  assert.match(svg, /v80 \(D 80 m\)/);
  assert.match(svg, /neighbour \(fixed\)/);
  assert.match(svg, /10 × iea37-3\.35mw \+ 6 × v80 · 3 neighbours/);
});
