"""wflo from Python: the wind farm AEP engine (exact gradients) through a ``wflo serve --stdio`` process.

>>> import wflo
>>> with wflo.Engine() as engine:
...     farm = engine.farm("iea37-cs1-16")
...     aep, dx, dy = farm.aep_and_gradient(*farm.baseline)

See docs/python.md of the repository for the API and the protocol.
"""
from ._engine import Engine, Farm, WfloError, AepResult, AepGradientResult

__all__ = ["Engine", "Farm", "WfloError", "AepResult", "AepGradientResult"]
__version__ = "0.1.0"
