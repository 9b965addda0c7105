/**
 * The element budget of a YAML text, checked before it is parsed. The `yaml` package builds a
 * syntax node for every scalar, list entry and mapping entry (about 1.4 kB of peak memory each while
 * parsing, measured: `node dist/bench/run.js parsing`), so memory follows the number of elements,
 * not the bytes: a 10 MB flat list `x: [1,1,…]` is 5 million elements and would need ~7 GB.
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
 * hourly samples as a YAML time series: 35 000). At the cap `wflo validate` peaks near 280 MB
 * (measured for a flow list of decimals and for nested lists, the costliest shapes found); longer
 * time series go in a CSV file (timeSeriesCsv.ts), seeds in `{start, count}`.
 */
export const MAX_YAML_ELEMENTS = 150_000;

/** Tokens that are a node of the syntax tree: scalars (plain, quoted, block), aliases, flow collections. */
const NODE_TOKENS = new Set<string>([
  'scalar',
  'single-quoted-scalar',
  'double-quoted-scalar',
  'block-scalar-header',
  'alias',
  'flow-seq-start',
  'flow-map-start',
]);
/** Indicators that make a null node when no node follows them (`-`, `:`, `?`, a flow `,`). */
const ENTRY_TOKENS = new Set<string>(['seq-item-ind', 'map-value-ind', 'explicit-key-ind', 'comma']);
/** Tokens that neither are nor end an entry. */
const NEUTRAL_TOKENS = new Set<string>(['space', 'newline', 'comment', 'anchor', 'tag', 'byte-order-mark', 'doc-mode', 'flow-error-end']);

/**
 * Deepest nesting read: flow collections inside each other, and the column where a block
 * collection's entry may start (each block level is indented at least one column more). Real
 * files nest under 20 levels; the `yaml` package runs out of stack near 900.
 */
export const MAX_YAML_NESTING = 200;

export interface YamlBudget {
  elements: number;
  /** Text offset where a limit was exceeded (the count stops there); null when within both. */
  exceededAt: number | null;
  /** Which limit: the element count or the nesting. */
  exceeded: 'elements' | 'nesting' | null;
}

/**
 * The elements of a YAML text, counted up to the budget, and its nesting.
 * Elements: every node token, and every entry indicator that no node follows (an empty entry).
 * (A plain scalar's lexer token is the SCALAR marker followed by its source; the marker is what
 * `tokenType` names 'scalar', and the source that follows it is no token type.)
 */
export function countYamlElements(text: string, maxElements = MAX_YAML_ELEMENTS): YamlBudget {
  let elements = 0;
  let offset = 0;
  let lineStart = 0;
  let flowDepth = 0;
  let emptyEntryPending = false;
  let afterScalarMarker = false;
  const over = (exceeded: 'elements' | 'nesting'): YamlBudget => ({ elements, exceededAt: offset, exceeded });
  for (const token of new Lexer().lex(text)) {
    const type: string | null = afterScalarMarker ? 'scalar-source' : CST.tokenType(token);
    afterScalarMarker = type === 'scalar';
    if (type === 'scalar-source' || type === null || !NEUTRAL_TOKENS.has(type)) {
      const isNode = type !== null && NODE_TOKENS.has(type);
      // An entry indicator followed by anything but a node was an empty entry: a null node.
      if (emptyEntryPending && !isNode && type !== 'scalar-source' && ++elements > maxElements) return over('elements');
      if (type !== 'scalar-source') emptyEntryPending = type !== null && ENTRY_TOKENS.has(type);
      if (isNode && ++elements > maxElements) return over('elements');
      if (flowDepth === 0 && (isNode || emptyEntryPending) && offset - lineStart > MAX_YAML_NESTING) return over('nesting');
      if (type === 'flow-seq-start' || type === 'flow-map-start') {
        if (++flowDepth > MAX_YAML_NESTING) return over('nesting');
      } else if ((type === 'flow-seq-end' || type === 'flow-map-end') && flowDepth > 0) flowDepth--;
    }
    // Markers (SCALAR, DOCUMENT, FLOW_END) are not text; everything else is.
    if (type !== 'scalar' && type !== 'doc-mode' && type !== 'flow-error-end') {
      const newline = token.lastIndexOf('\n');
      if (newline >= 0) lineStart = offset + newline + 1;
      offset += token.length;
    }
  }
  if (emptyEntryPending && ++elements > maxElements) return over('elements');
  return { elements, exceededAt: null, exceeded: null };
}
