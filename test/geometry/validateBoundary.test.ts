/** validateBoundary, normalizeBoundary and prepareBoundary: what is accepted, what is refused and how it is said. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateBoundary } from '../../src/geometry/validateBoundary.js';
import { normalizeBoundary } from '../../src/geometry/normalizeBoundary.js';
import { prepareBoundary } from '../../src/geometry/preparedBoundary.js';
import type { Boundary, Point } from '../../src/geometry/boundary.js';
import { InputError } from '../../src/util/errors.js';
import { cs3Boundary, cs4Boundary, iea37BoundaryParts } from './fixtures.js';

const square: Point[] = [
  [0, 0],
  [100, 0],
  [100, 100],
  [0, 100],
];

/** Shoelace area written out here, independent of the code under test. */
function shoelace(vertices: readonly Point[]): number {
  let twice = 0;
  for (let i = 0; i < vertices.length; i++) {
    const [ax, ay] = vertices[i]!;
    const [bx, by] = vertices[(i + 1) % vertices.length]!;
    twice += ax * by - bx * ay;
  }
  return twice / 2;
}

test('the IEA37 cs3 and cs4 boundary files are valid as published', () => {
  assert.equal(validateBoundary(cs3Boundary()), null);
  assert.equal(validateBoundary(cs4Boundary()), null);
  // Each cs4 part alone is a valid polygon too.
  for (const [name, vertices] of Object.entries(iea37BoundaryParts('cs4'))) {
    assert.equal(validateBoundary({ kind: 'polygon', vertices }), null, name);
  }
});

test('cs3 keeps its 10 m step near [9361.5, 126.9] -> [9361.3, 137.1] (not a duplicate, not a self-intersection)', () => {
  const normalized = normalizeBoundary(cs3Boundary());
  assert.equal(normalized.kind, 'polygon');
  if (normalized.kind !== 'polygon') return;
  assert.equal(normalized.vertices.length, 18);
  assert.ok(normalized.vertices.some(([x, y]) => x === 9361.5 && y === 126.9));
  assert.ok(normalized.vertices.some(([x, y]) => x === 9361.3 && y === 137.1));
});

test('a closed ring (first vertex repeated at the end) and repeated consecutive vertices are accepted and dropped', () => {
  const closed: Boundary = { kind: 'polygon', vertices: [...square, [0, 0]] };
  const repeated: Boundary = {
    kind: 'polygon',
    vertices: [
      [0, 0],
      [100, 0],
      [100, 0],
      [100, 100],
      [0, 100],
      [0, 100],
    ],
  };
  assert.equal(validateBoundary(closed), null);
  assert.equal(validateBoundary(repeated), null);
  for (const boundary of [closed, repeated]) {
    const normalized = normalizeBoundary(boundary);
    assert.deepEqual(normalized, { kind: 'polygon', vertices: square });
  }
});

test('normalizeBoundary turns clockwise polygons counter-clockwise and leaves the input alone', () => {
  const cs3 = cs3Boundary();
  if (cs3.kind !== 'polygon') throw new Error('fixture');
  const before = JSON.stringify(cs3);
  assert.ok(shoelace(cs3.vertices) < 0, 'the published IIIa ring is clockwise');
  const normalized = normalizeBoundary(cs3);
  if (normalized.kind !== 'polygon') throw new Error('kind changed');
  assert.ok(Math.abs(shoelace(normalized.vertices) - -shoelace(cs3.vertices)) < 1e-6);
  assert.deepEqual(normalized.vertices, cs3.vertices.slice().reverse());
  assert.equal(JSON.stringify(cs3), before);
  const multi = normalizeBoundary(cs4Boundary());
  if (multi.kind !== 'multipolygon') throw new Error('kind changed');
  assert.equal(multi.polygons.length, 5);
  for (const part of multi.polygons) assert.ok(shoelace(part) > 0);
  assert.deepEqual(normalizeBoundary({ kind: 'circle', center: [1, 2], radius: 3 }), { kind: 'circle', center: [1, 2], radius: 3 });
});

test('a bowtie is refused as self-intersecting, naming the crossing edges', () => {
  const problem = validateBoundary({
    kind: 'polygon',
    vertices: [
      [0, 0],
      [100, 100],
      [100, 0],
      [0, 100],
    ],
  });
  assert.equal(problem, 'polygon is self-intersecting: edge 0→1 meets edge 2→3 (0-based vertex indices)');
  // A figure-eight with a longer ring: edge 1→2 crosses edge 4→5.
  const eight = validateBoundary({
    kind: 'polygon',
    vertices: [
      [0, 0],
      [200, 0],
      [200, 100],
      [300, 100],
      [300, 50],
      [100, 50],
      [0, 50],
    ],
  });
  assert.match(eight ?? '', /self-intersecting: edge 1→2 meets edge 4→5/);
});

test('a polygon touching itself at a vertex, and a zero-width spike, are self-intersecting', () => {
  // Vertex 4 (50, 0) lies on edge 0→1.
  const pinched = validateBoundary({
    kind: 'polygon',
    vertices: [
      [0, 0],
      [100, 0],
      [100, 100],
      [50, 100],
      [50, 0],
      [0, 100],
    ],
  });
  assert.match(pinched ?? '', /self-intersecting/);
  // Goes out to (200, 50) and straight back: zero-width spike.
  const spike = validateBoundary({
    kind: 'polygon',
    vertices: [
      [0, 0],
      [100, 0],
      [100, 50],
      [200, 50],
      [100, 50],
      [100, 100],
      [0, 100],
    ],
  });
  assert.match(spike ?? '', /self-intersecting: edge 2→3 runs back over edge 3→4/);
});

test('fewer than 3 distinct vertices, zero area and near-zero area are refused', () => {
  assert.equal(
    validateBoundary({
      kind: 'polygon',
      vertices: [
        [0, 0],
        [1, 0],
      ],
    }),
    'polygon has 2 distinct vertices; at least 3 are needed',
  );
  assert.equal(
    validateBoundary({
      kind: 'polygon',
      vertices: [
        [0, 0],
        [1, 0],
        [1, 0],
        [0, 0],
      ],
    }),
    'polygon has 2 distinct vertices; at least 3 are needed',
  );
  assert.equal(validateBoundary({ kind: 'polygon', vertices: [] }), 'polygon has 0 distinct vertices; at least 3 are needed');
  assert.equal(
    validateBoundary({
      kind: 'polygon',
      vertices: [
        [0, 0],
        [100, 0],
        [250, 0],
      ],
    }),
    'polygon has zero area: all its vertices lie on one line',
  );
  // 10 km by 50 micrometres (wider than the 10 micrometre repeated-vertex tolerance at this extent).
  assert.match(
    validateBoundary({
      kind: 'polygon',
      vertices: [
        [0, 0],
        [10000, 0],
        [10000, 5e-5],
        [0, 5e-5],
      ],
    }) ?? '',
    /^polygon area 0\.500 m² is near zero for its 1\.00e\+4 m extent$/,
  );
});

test('non-finite and malformed coordinates are refused, naming the vertex', () => {
  assert.equal(
    validateBoundary({
      kind: 'polygon',
      vertices: [
        [0, 0],
        [NaN, 0],
        [0, 1],
      ],
    }),
    'polygon vertex 1 must be two finite numbers [x, y], got [NaN, 0]',
  );
  assert.equal(
    validateBoundary({
      kind: 'polygon',
      vertices: [
        [0, 0],
        [1, 0],
        [0, Infinity],
      ],
    }),
    'polygon vertex 2 must be two finite numbers [x, y], got [0, Infinity]',
  );
  assert.match(
    validateBoundary({
      kind: 'polygon',
      vertices: [
        [0, 0],
        [1, 0, 5],
        [0, 1],
      ] as unknown as Point[],
    }) ?? '',
    /vertex 1 must be two finite numbers/,
  );
  assert.match(validateBoundary({ kind: 'polygon', vertices: 'square' as unknown as Point[] }) ?? '', /polygon vertices must be a list of \[x, y\] points/);
  assert.match(validateBoundary({ kind: 'hexagon' } as unknown as Boundary) ?? '', /unknown boundary kind "hexagon"/);
});

test('circles need a positive finite radius and a finite centre', () => {
  assert.equal(validateBoundary({ kind: 'circle', center: [0, 0], radius: 1300 }), null);
  for (const radius of [0, -5, NaN, Infinity]) {
    assert.equal(validateBoundary({ kind: 'circle', center: [0, 0], radius }), `circle radius must be a positive finite number of metres, got ${radius}`);
  }
  assert.equal(validateBoundary({ kind: 'circle', center: [NaN, 0], radius: 5 }), 'circle center must be two finite numbers [x, y], got [NaN, 0]');
});

test('multipolygon parts must be valid, disjoint and not nested', () => {
  const shifted = (dx: number, dy: number): Point[] => square.map(([x, y]) => [x + dx, y + dy] as Point);
  assert.equal(validateBoundary({ kind: 'multipolygon', polygons: [square, shifted(300, 0)] }), null);
  assert.match(
    validateBoundary({ kind: 'multipolygon', polygons: [square, shifted(50, 50)] }) ?? '',
    /^multipolygon parts 0 and 1 overlap or touch: edge \d→\d of part 0 meets edge \d→\d of part 1/,
  );
  // Sharing a border counts as touching.
  assert.match(validateBoundary({ kind: 'multipolygon', polygons: [square, shifted(100, 0)] }) ?? '', /parts 0 and 1 overlap or touch/);
  const inner: Point[] = [
    [25, 25],
    [75, 25],
    [75, 75],
    [25, 75],
  ];
  assert.equal(validateBoundary({ kind: 'multipolygon', polygons: [square, inner] }), 'multipolygon part 1 lies inside part 0');
  assert.equal(validateBoundary({ kind: 'multipolygon', polygons: [inner, square] }), 'multipolygon part 0 lies inside part 1');
  assert.match(
    validateBoundary({
      kind: 'multipolygon',
      polygons: [
        square,
        [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
        ],
      ],
    }) ?? '',
    /^multipolygon part 1 is self-intersecting/,
  );
  assert.match(validateBoundary({ kind: 'multipolygon', polygons: [] }) ?? '', /non-empty list of polygons/);
});

test('prepareBoundary throws InputError with the validation sentence', () => {
  assert.throws(
    () =>
      prepareBoundary({
        kind: 'polygon',
        vertices: [
          [0, 0],
          [100, 100],
          [100, 0],
          [0, 100],
        ],
      }),
    (error: unknown) =>
      error instanceof InputError && error.message === 'invalid boundary: polygon is self-intersecting: edge 0→1 meets edge 2→3 (0-based vertex indices)',
  );
  const prepared = prepareBoundary(cs4Boundary());
  assert.equal(prepareBoundary(prepared), prepared, 'a prepared boundary is passed through');
  assert.equal(prepared.partCount, 5);
  assert.equal(prepared.edgeCount, 18 + 8 + 6 + 3 + 5);
});
