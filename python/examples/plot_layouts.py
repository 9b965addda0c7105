"""A campaign's output in xarray, plotted with matplotlib: the best layout of every farm x farm
type, and the AEP of every seed.

    PYTHONPATH=python python3 python/examples/plot_layouts.py out/demo -o layouts.png

Prints the table of the best AEP per farm and farm type (xarray's groupby); draws the figure
when matplotlib is importable (Debian: python3-matplotlib). Without xarray or matplotlib it says
which is missing and skips what needs it.
"""
import argparse
import os

import wflo

parser = argparse.ArgumentParser()
parser.add_argument("output", help="a campaign's output folder (or its layouts.h5)")
parser.add_argument("-o", "--out", default="layouts.png", help="the figure (PNG, SVG, PDF: by its extension)")
args = parser.parse_args()

path = args.output if args.output.endswith(".h5") else os.path.join(args.output, "layouts.h5")
try:
    import xarray  # noqa: F401  (read_layouts gives NumPy arrays without it; this example is about xarray)
except ImportError:
    print("xarray is not installed (Debian: apt-get install python3-xarray): nothing to show")
    raise SystemExit(0)
ds = wflo.read_layouts(path)  # an xarray.Dataset on (task, turbine, coordinate)

# The best task of every (farm, farm type): one row per group.
ds = ds.assign_coords(group=("task", [f"{f}/{t}" for f, t in zip(ds.farm_id.values, ds.farm_type.values)]))
best = ds.aep.groupby("group").max()
print(f"{ds.attrs['campaign_name']}: {ds.sizes['task']} layouts, complete={ds.attrs['complete']}")
print("farm/type  best AEP (MWh)  seeds")
for group in best.group.values:
    print(f"{group:>9}  {float(best.sel(group=group)):14.3f}  {int((ds.group == group).sum()):5d}")

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed (Debian: apt-get install python3-matplotlib): no figure")
    raise SystemExit(0)

groups = list(best.group.values)
fig, axes = plt.subplots(1, len(groups) + 1, figsize=(4 * (len(groups) + 1), 4))
for ax, group in zip(axes, groups):
    rows = ds.where(ds.group == group, drop=True)
    top = rows.isel(task=int(rows.aep.argmax()))
    xy = top.layout.values[: int(top.n_turbines)]
    ax.scatter(xy[:, 0], xy[:, 1], s=18)
    ax.set_title(f"farm/type {group}: {float(top.aep):.0f} MWh", fontsize=9)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
ax = axes[-1]
for group in groups:
    rows = ds.where(ds.group == group, drop=True)
    ax.plot(rows.seed.values, rows.aep.values / 1e3, "o-", label=group)
ax.set_xlabel("seed")
ax.set_ylabel("AEP (GWh)")
ax.legend(title="farm/type", fontsize=8)
fig.tight_layout()
fig.savefig(args.out)
print(f"wrote {args.out}")
