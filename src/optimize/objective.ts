/**
 * A smooth objective to minimize: returns f(x) and writes ∇f(x) into `grad` (same length as x).
 */
export type ObjectiveWithGradient = (x: Float64Array, grad: Float64Array) => number;
