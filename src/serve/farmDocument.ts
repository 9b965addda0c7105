/**
 * The cases a client opens (docs/python.md): a built-in name or a case file, read as `wflo aep` (a
 * layout) or `wflo optimize` (no layout) reads it; or a case document built from the client's
 * values (turbine curves, a wind rose or a time series, a site, model options: the fields of a
 * case file, io/caseFile.ts), resolved by the case-file reader itself, so every check and every
 * message is a case file's (`SOURCE: wind.weibull_a: …`, without a line: there is no file).
 *
 * Long number lists travel as binary arrays: in the document, `{"$array": NAME}` (optionally with
 * `"shape": [rows, columns]`) stands for the request's array NAME, as a list (or a list of rows).
 */
import { resolveAepRequest } from '../io/aepInput.js';
import { caseArgument } from '../io/caseArgument.js';
import { caseFromDocument, loadCase } from '../io/caseFile.js';
import { isReferenceCaseDocument } from '../io/referenceCase.js';
import { parseYamlText, readYamlFile } from '../io/yamlFile.js';
import type { Case } from '../case/case.js';
import { InputError } from '../util/errors.js';
import { oneLineMessage } from '../util/printable.js';

/** A built-in case or a case file: as `wflo aep CASE` reads it, or (no layout) as `wflo optimize CASE` does. */
export function openCase(spec: string): Case {
  const arg = caseArgument(spec);
  if (arg.kind === 'file' && isReferenceCaseDocument(readYamlFile(arg.file))) return resolveAepRequest({ file: spec });
  const c = loadCase(spec);
  return c.layout ? resolveAepRequest({ file: spec }) : c;
}

/** Nesting a case document needs is a few levels; a deeper one is refused before it is walked. */
const MAX_DEPTH = 64;

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The document with every `{"$array": NAME}` replaced by that array's numbers; every array must be used once. */
export function withArrays(doc: unknown, arrays: Map<string, Float64Array>, kind: string): unknown {
  const used = new Set<string>();
  const visit = (v: unknown, at: string, depth = 0): unknown => {
    if (depth > MAX_DEPTH) throw new InputError(`${kind}.${at}: nested more than ${MAX_DEPTH} levels deep`);
    if (Array.isArray(v)) return v.map((e, i) => visit(e, `${at}[${i}]`, depth + 1));
    if (!isMapping(v)) return v;
    if (Object.hasOwn(v, '$array')) {
      const name = v.$array;
      const extra = Object.keys(v).find((k) => k !== '$array' && k !== 'shape');
      if (extra !== undefined) throw new InputError(`${kind}.${at}.${oneLineMessage(extra.slice(0, 40))}: unknown field beside $array (expected shape)`);
      if (typeof name !== 'string' || !arrays.has(name))
        throw new InputError(
          `${kind}.${at}.$array: ${typeof name === 'string' ? `no array '${oneLineMessage(name.slice(0, 40))}' in the request` : 'expected the name of an array of the request'}`,
        );
      if (used.has(name)) throw new InputError(`${kind}.${at}.$array: array '${name}' is used twice`);
      used.add(name);
      const values = Array.from(arrays.get(name)!);
      if (v.shape === undefined) return values;
      const shape = v.shape;
      if (
        !Array.isArray(shape) ||
        shape.length !== 2 ||
        !shape.every((s) => Number.isSafeInteger(s) && (s as number) > 0) ||
        (shape[0] as number) * (shape[1] as number) !== values.length
      ) {
        throw new InputError(`${kind}.${at}.shape: expected [rows, columns] with rows × columns = ${values.length} (the array's length)`);
      }
      const columns = shape[1] as number;
      return Array.from({ length: shape[0] as number }, (_, r) => values.slice(r * columns, (r + 1) * columns));
    }
    return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, visit(e, `${at}.${k}`, depth + 1)]));
  };
  const out = visit(doc, 'document');
  for (const name of arrays.keys()) if (!used.has(name)) throw new InputError(`${kind}: array '${name}' is sent but the document does not use it`);
  return out;
}

/**
 * A case from a client's case document (the fields of a case file), named `source` in messages.
 * The document is read as a file's text is (one line of JSON through the YAML reader, with its
 * budgets and its source map), so its errors have a case file's form, `SOURCE: wind.weibull_k[0]:
 * …`; the line, always 1, is left out.
 */
export function caseFromClientDocument(doc: unknown, arrays: Map<string, Float64Array>, source: string, kind: string): Case {
  if (!isMapping(doc)) throw new InputError(`${kind}.document: expected a mapping of case-file fields (turbine, wind, boundary, layout, …)`);
  const lineOne = `${source}:1: `;
  try {
    return caseFromDocument(parseYamlText(JSON.stringify(withArrays(doc, arrays, kind)), source), source);
  } catch (err) {
    if (err instanceof InputError && err.message.startsWith(lineOne)) throw new InputError(`${source}: ${err.message.slice(lineOne.length)}`);
    throw err;
  }
}
