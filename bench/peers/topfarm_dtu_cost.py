#!/usr/bin/python3
"""Reference figures of the DTU offshore wind cost model, computed by TOPFARM2's own code.

Runs TOPFARM2's `economic_evaluation` class (topfarm/cost_models/economic_models/dtu_wind_cm_main.py,
Skrzypinski 2018 after S. O. Lind; pure numpy + numpy_financial) on the inputs of TOPFARM's own
tests (topfarm/tests/test_dtu_cost_model/test_dtu_cm.py) and on varied farms drawn here from a
fixed seed, and writes every input and output at full precision (JSON floats are Python repr, so
they round-trip exactly). wflo does not depend on this script, TOPFARM or numpy_financial: the
paths are given on the command line, outside the repository.

Per case it records TOPFARM's NPV (calculate_npv), IRR (calculate_irr, in %, as TOPFARM returns
it), DEVEX, CAPEX, OPEX, ABEX (project_costs_sums after the call) and an LCOE. TOPFARM's DTU model
has no LCOE output: the LCOE written here is the standard levelised cost computed from the model's
own cost streams with numpy_financial.npv at the model's discount rate,
  LCOE = npv(r, [DEVEX+CAPEX, OPEX, ..., OPEX, OPEX+ABEX]) / npv(r, [0, AEP, ..., AEP])
(EUR per kWh, as TOPFARM's energy price).

Usage:
  /usr/bin/python3 bench/peers/topfarm_dtu_cost.py --topfarm DIR_WITH_dtu_wind_cm_main.py \
      --numpy-financial DIR_WITH_numpy_financial_PACKAGE --write test/data/cost/dtu_offshore_reference.json
"""
import argparse
import json
import sys
import warnings

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--topfarm', required=True, help='folder holding dtu_wind_cm_main.py')
    ap.add_argument('--numpy-financial', required=True, help='folder holding the numpy_financial package')
    ap.add_argument('--write', required=True)
    a = ap.parse_args()
    sys.path[:0] = [a.numpy_financial, a.topfarm]
    import numpy_financial as npf
    from dtu_wind_cm_main import economic_evaluation

    cases = []

    def add(name, origin, dist, price, years, rate, rpm, D, P, H, wd, aep, cabling=None):
        kw = {} if rate is None else {'discount_rate': rate}
        args = [list(map(float, v)) for v in (rpm, D, P, H, wd, aep)]
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            e = economic_evaluation(dist, price, years, **kw)
            npv = e.calculate_npv(*args, cabling_cost=cabling)
            sums = dict(e.project_costs_sums)
            e2 = economic_evaluation(dist, price, years, **kw)
            irr = e2.calculate_irr(*args, cabling_cost=cabling)
        r = e.discount_rate
        cost = [sums['DEVEX'] + sums['CAPEX']] + [sums['OPEX']] * (years - 1) + [sums['OPEX'] + sums['ABEX']]
        energy = [0.0] + [float(np.sum(args[5]))] * years
        lcoe = npf.npv(r, cost) / npf.npv(r, energy)
        cases.append({
            'name': name, 'origin': origin,
            'inputs': {'distance_from_shore_km': float(dist), 'energy_price_eur_per_kwh': float(price),
                       'project_duration_years': int(years), 'discount_rate': float(r),
                       'rated_rpm': args[0], 'rotor_diameter_m': args[1], 'rated_power_mw': args[2],
                       'hub_height_m': args[3], 'water_depth_m': args[4], 'aep_kwh': args[5],
                       'cabling_cost_eur': None if cabling is None else float(cabling)},
            'outputs': {'npv_eur': float(npv), 'irr_percent': float(irr), 'lcoe_eur_per_kwh': float(lcoe),
                        'devex_eur': float(sums['DEVEX']), 'capex_eur': float(sums['CAPEX']),
                        'opex_eur_per_year': float(sums['OPEX']), 'abex_eur': float(sums['ABEX'])},
        })

    n = 10
    t = 'topfarm/tests/test_dtu_cost_model/test_dtu_cm.py'
    add('topfarm-test-irr', t + ' test_dtu_cm_irr (and _capex, _devex, _opex: same farm)', 10, 0.2, 20, None,
        [10.0] * n, [100.0] * n, [10.0] * n, [100.0] * n, [15.0] * n, [8.0e6] * n)
    add('topfarm-test-npv', t + ' test_dtu_cm_npv (discount rate = the IRR: NPV near zero)', 10, 0.2, 20, 0.062860816,
        [10.0] * n, [100.0] * n, [10.0] * n, [100.0] * n, [15.0] * n, [8.0e6] * n)
    m = 16
    add('topfarm-example5-iea37-16', 'examples/scripts/example_5_integrated_opt_with_dtu_cost_model.py farm '
        '(16 IEA37 3.35 MW, D 130 m, hub 110 m, 12 rpm, 15 m deep, 10 km, 0.1 EUR/kWh, 20 y); '
        'AEP 14.5 GWh per turbine chosen here (the example takes it from a wake model)',
        10, 0.1, 20, None, [12.0] * m, [130.0] * m, [3.35] * m, [110.0] * m, [15.0] * m, [14.5e6] * m)

    rng = np.random.default_rng(20181)
    for k, nwt in enumerate([1, 3, 7, 25, 74]):
        types = [(3.35, 130.0, 110.0, 12.0), (8.0, 164.0, 105.0, 10.5), (10.0, 178.3, 119.0, 9.6),
                 (15.0, 240.0, 150.0, 7.56)]
        pick = rng.integers(0, len(types), nwt)
        P = [types[j][0] for j in pick]
        D = [types[j][1] for j in pick]
        H = [types[j][2] for j in pick]
        rpm = [types[j][3] for j in pick]
        wd = list(rng.uniform(8.0, 55.0, nwt))
        cf = rng.uniform(0.35, 0.52, nwt)
        aep = [float(p * 1000.0 * 8766.0 * c) for p, c in zip(P, cf)]
        dist = float(rng.uniform(5.0, 80.0))
        price = float(rng.uniform(0.05, 0.12))
        years = int([25, 30, 20, 27, 25][k])
        rate = None if k == 2 else float(rng.uniform(0.03, 0.09))
        cabling = None if k % 2 == 0 else float(rng.uniform(2.5e5, 4.0e5) * nwt)
        add(f'varied-{nwt}wt', 'drawn here (numpy default_rng(20181)): mixed 3.35/8/10/15 MW types, depths 8-55 m, '
            'capacity factors 0.35-0.52', dist, price, years, rate, rpm, D, P, H, wd, aep, cabling)

    with open(a.write, 'w') as f:
        json.dump({'generator': 'bench/peers/topfarm_dtu_cost.py', 'cases': cases}, f, indent=1)
        f.write('\n')
    for c in cases:
        o = c['outputs']
        print(c['name'], repr(o['npv_eur']), repr(o['irr_percent']), repr(o['lcoe_eur_per_kwh']))


main()
