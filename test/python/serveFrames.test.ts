/**
 * `wflo serve --stdio` under malformed and hostile frames, written byte by byte here (not through
 * the Python package): each gets an error response and the server keeps serving; a header it
 * cannot follow past gets a fatal response and exit code 2; closing stdin ends it with exit 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { CLI, PYTHON, REPO, runWflo } from '../helpers.js';
import { pythonMissing } from './pythonKit.js';

interface Reply {
  header: Record<string, unknown>;
  arrays: Record<string, number[]>;
}

/** Headers sent, to check against the schema. */
const sent: { header: unknown; valid: boolean }[] = [];

function frame(header: unknown, payloads: Buffer[] = []): Buffer {
  if (typeof header !== 'string') sent.push({ header, valid: true });
  const json = Buffer.from(typeof header === 'string' ? header : JSON.stringify(header), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  return Buffer.concat([len, json, ...payloads]);
}

const f64 = (values: number[]) => {
  const b = Buffer.alloc(values.length * 8);
  values.forEach((v, i) => b.writeDoubleLE(v, i * 8));
  return b;
};

/** Every response frame of a stdout, parsed by hand. */
function replies(out: Buffer): Reply[] {
  const list: Reply[] = [];
  let at = 0;
  while (at < out.length) {
    const n = out.readUInt32LE(at);
    const header = JSON.parse(out.subarray(at + 4, at + 4 + n).toString('utf8')) as Record<string, unknown>;
    at += 4 + n;
    const arrays: Record<string, number[]> = {};
    for (const e of (header.arrays ?? []) as { name: string; bytes: number }[]) {
      arrays[e.name] = Array.from({ length: e.bytes / 8 }, (_, i) => out.readDoubleLE(at + 8 * i));
      at += e.bytes;
    }
    list.push({ header, arrays });
  }
  return list;
}

/** Run a server, write `input`, close stdin, collect every response and the exit code. */
function serve(input: Buffer): Promise<{ code: number | null; replies: Reply[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, 'serve', '--stdio'], { cwd: REPO });
    const out: Buffer[] = [];
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => out.push(c));
    p.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, replies: replies(Buffer.concat(out)), stderr }));
    p.stdin.on('error', () => {
      /* the server may stop reading after a fatal frame */
    });
    p.stdin.end(input);
  });
}

test('serve --stdio: malformed requests each get an error response, and the server keeps serving', async () => {
  const cli = JSON.parse(runWflo(['aep', 'iea37-cs1-16', '--json']).stdout) as { aep_mwh: number; per_turbine_mwh: number[] };
  const open = frame({ kind: 'open', id: 1, case: 'iea37-cs1-16' });
  const first = await serve(open);
  assert.equal(first.code, 0, first.stderr);
  const [opened] = first.replies;
  assert.equal(opened.header.ok, true);
  assert.equal(opened.header.handle, 1);
  const x = opened.arrays.x,
    y = opened.arrays.y;
  assert.equal(x.length, 16);
  const xy = (a: number[], b: number[]) => [
    { name: 'x', bytes: a.length * 8 },
    { name: 'y', bytes: b.length * 8 },
  ];
  const bad: [string, Buffer][] = [
    ["kind: unknown request 'aepp'", frame({ kind: 'aepp', id: 2, handle: 1 })],
    ["kind: unknown request 'constructor'", frame({ kind: 'constructor', id: 2, handle: 1 })],
    [
      'aep.x[3]: expected a finite number, got NaN',
      frame({ kind: 'aep', id: 3, handle: 1, arrays: xy(x, y) }, [f64(x.map((v, i) => (i === 3 ? NaN : v))), f64(y)]),
    ],
    ['aep.x: 15 values, the farm has 16 turbines', frame({ kind: 'aep', id: 4, handle: 1, arrays: xy(x.slice(1), y) }, [f64(x.slice(1)), f64(y)])],
    ['x: 7 bytes, not a whole number of float64 values', frame({ kind: 'aep', id: 5, handle: 1, arrays: [{ name: 'x', bytes: 7 }] }, [Buffer.alloc(7)])],
    [
      'x: 8000008 bytes, more than the limit',
      frame(
        {
          kind: 'aep',
          id: 6,
          handle: 1,
          arrays: [
            { name: 'x', bytes: 8_000_008 },
            { name: 'y', bytes: 128 },
          ],
        },
        [Buffer.alloc(8_000_008), f64(y)],
      ),
    ],
    ['aep.handle: no open farm 7', frame({ kind: 'aep', id: 7, handle: 7, arrays: xy(x, y) }, [f64(x), f64(y)])],
    ['aep.radius: unknown field', frame({ kind: 'aep', id: 8, handle: 1, radius: 3 })],
    ["aep: unknown array 'z'", frame({ kind: 'aep', id: 9, handle: 1, arrays: [{ name: 'z', bytes: 8 }] }, [f64([1])])],
    ['id: expected a whole number', frame({ kind: 'aep', id: 1e300 * 10, handle: 1 })],
  ];
  const good = frame({ kind: 'aep', id: 10, handle: 1, arrays: xy(x, y) }, [f64(x), f64(y)]);
  const fatal = frame('{"kind": "aep", "id": 11');
  const after = frame({ kind: 'aep', id: 12, handle: 1, arrays: xy(x, y) }, [f64(x), f64(y)]);
  const run = await serve(Buffer.concat([open, ...bad.map(([, b]) => b), good, fatal, after]));
  assert.equal(run.code, 2, 'a header that is not JSON ends the server with exit code 2');
  assert.equal(run.replies.length, 1 + bad.length + 2, 'nothing is answered after the fatal frame');
  bad.forEach(([message], k) => {
    const h = run.replies[1 + k].header;
    assert.equal(h.ok, false);
    assert.equal(h.exit_code, 2);
    assert.ok(String(h.error).startsWith(message), `${String(h.error)} starts with ${message}`);
  });
  assert.equal(run.replies[3].header.id, 3, 'an error response carries the request id');
  const ok = run.replies[1 + bad.length];
  assert.equal(ok.header.ok, true);
  assert.equal(ok.header.aep_mwh, cli.aep_mwh);
  assert.deepEqual(ok.arrays.per_turbine_mwh, cli.per_turbine_mwh);
  const last = run.replies[2 + bad.length].header;
  assert.equal(last.fatal, true);
  assert.match(String(last.error), /^frame header: not UTF-8 JSON/);
});

test('serve --stdio: a header length beyond the limit is a fatal response, not an allocation', async () => {
  const len = Buffer.alloc(4);
  len.writeUInt32LE(0xffffffff);
  const run = await serve(len);
  assert.equal(run.code, 2);
  assert.equal(run.replies.length, 1);
  assert.match(String(run.replies[0].header.error), /^frame header: 4294967295 bytes, more than the limit/);
});

test('serve --stdio: shutdown answers and exits 0; without --stdio it is a usage error', async () => {
  const run = await serve(Buffer.concat([frame({ kind: 'shutdown', id: 1 }), frame({ kind: 'open', id: 2, case: 'iea37-cs1-16' })]));
  assert.equal(run.code, 0);
  assert.equal(run.replies.length, 1);
  assert.equal(run.replies[0].header.ok, true);
  // A client that sends shutdown and keeps its end of the pipe open: the server still exits.
  const open = spawn(process.execPath, [CLI, 'serve', '--stdio'], { cwd: REPO, stdio: ['pipe', 'pipe', 'inherit'] });
  open.stdin.write(frame({ kind: 'shutdown', id: 2 }));
  const code = await new Promise<number | null>((resolve) => open.on('exit', (c) => resolve(c)));
  assert.equal(code, 0);
  open.stdin.destroy();
  const r = runWflo(['serve']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^wflo: serve: give --stdio/);
});

/** Every header exchanged above, checked by Python's jsonschema against schemas/serve.v1.json. */
const collected: { header: unknown; valid: boolean }[] = [];

test('serve --stdio: the headers exchanged match schemas/serve.v1.json (checked by Python jsonschema); the malformed requests do not', {
  skip: pythonMissing(),
}, async (t) => {
  if (spawnSync(PYTHON, ['-c', 'import jsonschema']).status !== 0) {
    t.skip('python3-jsonschema is not installed');
    return;
  }
  sent.length = 0;
  const x = Array.from({ length: 16 }, (_, i) => 100 * i),
    y = x.map((v) => -v);
  const xy = [
    { name: 'x', bytes: 128 },
    { name: 'y', bytes: 128 },
  ];
  const f64 = (values: number[]) => {
    const b = Buffer.alloc(values.length * 8);
    values.forEach((v, i) => b.writeDoubleLE(v, i * 8));
    return b;
  };
  const good = [
    frame({ kind: 'open', id: 1, case: 'iea37-cs1-16' }),
    frame({ kind: 'aep', id: 2, handle: 1, arrays: xy }, [f64(x), f64(y)]),
    frame({ kind: 'aep_and_gradient', id: 3, handle: 1, arrays: xy }, [f64(x), f64(y)]),
    frame({ kind: 'close', id: 4, handle: 1 }),
  ];
  const goodSent = sent.splice(0);
  const bad = [
    frame({ kind: 'aepp', id: 5, handle: 1 }),
    frame({ kind: 'aep', id: 6, handle: 1, radius: 3 }),
    frame({ kind: 'close', id: 7, handle: 2 }),
    frame({ kind: 'shutdown', id: 8 }),
  ];
  const badSent = sent.splice(0, 2).map((s) => ({ ...s, valid: false }));
  const run = await serve(Buffer.concat([...good, ...bad]));
  assert.equal(run.code, 0);
  assert.equal(run.replies.length, 8);
  collected.push(...goodSent, ...badSent, ...run.replies.map((r) => ({ header: r.header, valid: true })));
  const check = `
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
v = jsonschema.Draft202012Validator(schema)
for item in json.load(sys.stdin):
    print("valid" if v.is_valid(item["header"]) else "invalid")
`;
  const r = spawnSync(PYTHON, ['-c', check, path.join(REPO, 'schemas', 'serve.v1.json')], { input: JSON.stringify(collected), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(
    r.stdout.trim().split('\n'),
    collected.map((c) => (c.valid ? 'valid' : 'invalid')),
    JSON.stringify(collected.map((c) => c.header)),
  );
});
