/**
 * How economic figures are printed, with their currency, the same way in the CLI, the report, the
 * dashboard and the plots: LCOE in <symbol>/MWh with two decimals ("64.80 €/MWh"), NPV and other
 * sums of money in millions ("−18.71 M€"), costs per metre in <symbol>/m. The currency is the
 * cost model's (EconomicModel.currency: the DTU offshore model's is EUR); a code without a symbol
 * here prints as its code ("64.80 USD/MWh").
 */

const SYMBOLS: Record<string, string> = { EUR: '€', USD: '$', GBP: '£', DKK: 'kr' };

/** The symbol of an ISO 4217 code (€ for EUR), else the code itself. */
export function currencySymbol(code: string): string {
  return SYMBOLS[code] ?? code;
}

/** The unit of an LCOE: "€/MWh". */
export function lcoeUnit(code: string): string {
  return `${currencySymbol(code)}/MWh`;
}

/** The unit of money in millions: "M€". */
export function millionsUnit(code: string): string {
  const s = currencySymbol(code);
  return s.length === 1 ? `M${s}` : `M ${s}`;
}

/** A minus sign, not a hyphen, before negative figures. */
const signed = (text: string): string => text.replace(/^-/, '−');

/** "64.80 €/MWh" (digits: decimals, default 2). */
export function lcoeText(v: number, code: string, digits = 2): string {
  return `${signed(v.toFixed(digits))} ${lcoeUnit(code)}`;
}

/** "−18.71 M€" (digits: decimals of the millions, default 2). */
export function millionsText(v: number, code: string, digits = 2): string {
  return `${signed((v / 1e6).toFixed(digits))} ${millionsUnit(code)}`;
}

/** A cost model's objective value with its unit: LCOE in €/MWh, NPV in M€. */
export function objectiveText(name: 'lcoe' | 'npv', v: number, code: string, digits = 2): string {
  return name === 'lcoe' ? lcoeText(v, code, digits) : millionsText(v, code, digits);
}

/**
 * One item of a cost breakdown (the DTU model's names carry their unit: `…_eur`, `…_eur_per_year`,
 * `…_mwh_per_year`) as "turbines 16.147 M€", "opex 4.573 M€/year", "aep 163 879 MWh/year".
 */
export function costItemText(key: string, v: number, code: string, digits = 3): string {
  const m = /^(.*?)_(eur_per_year|eur|mwh_per_year)$/.exec(key);
  if (!m) return `${key} ${v.toPrecision(6)}`;
  if (m[2] === 'mwh_per_year') return `${m[1]} ${signed(v.toFixed(0))} MWh/year`;
  return `${m[1]} ${millionsText(v, code, digits)}${m[2] === 'eur_per_year' ? '/year' : ''}`;
}
