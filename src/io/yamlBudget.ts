/**
 * The element budget of a YAML text, checked before it is parsed. The `yaml` package builds a
 * syntax node for every scalar, list entry and mapping entry (about 1 kB of peak memory each while
 * parsing, measured: `node dist/bench/run.js parsing`), so memory follows the number of elements,
 * not the bytes: a 10 MB flat list `x: [1,1,…]` is 5 million elements and would need ~5 GB.
 *
 * The count runs `yaml`'s own lexer (the tokens its parser reads, so it cannot disagree with it)
 * and stops as soon as the budget is exceeded, so a hostile file costs at most the lexing of the
 * budget's worth of tokens. Counted: every scalar (plain, quoted, block; keys too), alias and flow
 * collection, and every empty entry (a `-`, `:`, `?` or flow `,` with no value: a null node).
 * `x: [1, 2, 3]` is 5 elements. Peak memory per element is measured for the costliest shapes
 * (nested `- - -` lists, empty `:` entries): test/io/boundedInputs.test.ts parses each at the cap.
 */
import { CST, Lexer } from 'yaml';

/**
 * Most elements one YAML file may hold. The largest real inputs hold tens of thousands (a
 * 360 × 40 wind rose with its turbulence table: ~30 000; a 5000-turbine layout: 10 000; a year of
 * hourly samples as a YAML time series: 35 000). At the cap a parse peaks near 300 MB (measured);
 * longer time series go in a CSV file (timeSeriesCsv.ts), seeds in `{start, count}`.
 */
export const MAX_YAML_ELEMENTS = 200_000;

/** Tokens that are a node of the syntax tree: scalars (plain, quoted, block), aliases, flow collections. */
const NODE_TOKENS = new Set<string>(['scalar', 'single-quoted-scalar', 'double-quoted-scalar', 'block-scalar-header', 'alias', 'flow-seq-start', 'flow-map-start']);
/** Indicators that make a null node when no node follows them (`-`, `:`, `?`, a flow `,`). */
const ENTRY_TOKENS = new Set<string>(['seq-item-ind', 'map-value-ind', 'explicit-key-ind', 'comma']);
/** Tokens that neither are nor end an entry. */
const NEUTRAL_TOKENS = new Set<string>(['space', 'newline', 'comment', 'anchor', 'tag', 'byte-order-mark', 'doc-mode', 'flow-error-end']);

/**
 * The elements of a YAML text, counted up to the budget: `exceededAt` is the text offset where
 * the budget is exceeded (the count stops there), null when the text is within it.
 * Elements: every node token, and every entry indicator that no node follows (an empty entry).
 * (A plain scalar's lexer token is the SCALAR marker followed by its source; the marker is what
 * `tokenType` names 'scalar', and the source that follows it is no token type.)
 */
export function countYamlElements(text: string, maxElements = MAX_YAML_ELEMENTS): { elements: number; exceededAt: number | null } {
  let elements = 0;
  let offset = 0;
  let emptyEntryPending = false;
  let afterScalarMarker = false;
  for (const token of new Lexer().lex(text)) {
    const type: string | null = afterScalarMarker ? 'scalar-source' : CST.tokenType(token);
    afterScalarMarker = type === 'scalar';
    if (type === 'scalar-source' || type === null || !NEUTRAL_TOKENS.has(type)) {
      const isNode = type !== null && NODE_TOKENS.has(type);
      // An entry indicator followed by anything but a node was an empty entry: a null node.
      if (emptyEntryPending && !isNode && type !== 'scalar-source' && ++elements > maxElements) return { elements, exceededAt: offset };
      if (type !== 'scalar-source') emptyEntryPending = type !== null && ENTRY_TOKENS.has(type);
      if (isNode && ++elements > maxElements) return { elements, exceededAt: offset };
    }
    // Markers (SCALAR, DOCUMENT, FLOW_END) are not text; everything else is.
    if (type !== 'scalar' && type !== 'doc-mode' && type !== 'flow-error-end') offset += token.length;
  }
  if (emptyEntryPending && ++elements > maxElements) return { elements, exceededAt: offset };
  return { elements, exceededAt: null };
}
