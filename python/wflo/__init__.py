"""wflo from Python: the wind farm AEP engine (exact gradients) through a ``wflo serve --stdio`` process.

>>> import wflo
>>> with wflo.Engine() as engine:
...     farm = engine.farm("iea37-cs1-16")
...     r = farm.aep_and_gradient(*farm.baseline)   # r.aep_mwh, r.grad_x, r.grad_y, r.per_turbine_mwh

See docs/python.md of the repository for the API and the protocol.
"""
from ._engine import Engine, Farm, WfloError, AepResult, AepGradientResult
from ._farm_values import case_document, time_series, turbine, wind_rose
from ._results import AepDetails, Constraints, Feasibility, FlowMap, OptimizeResult
from ._economics import CablesResult, CostResult

__all__ = ["Engine", "Farm", "WfloError", "AepResult", "AepGradientResult"]
__all__ += ["case_document", "time_series", "turbine", "wind_rose", "AepDetails", "Constraints", "Feasibility", "FlowMap", "OptimizeResult"]
__all__ += ["CablesResult", "CostResult"]
__version__ = "0.1.0"

from ._locate import engine_command  # noqa: E402
from ._batch import AepBatchResult  # noqa: E402
from ._history import History, OptimizeProgress  # noqa: E402
__all__ += ["engine_command", "AepBatchResult", "History", "OptimizeProgress"]

from .campaign import Campaign, CampaignRun, Progress, RunFailed, load_campaign, validate_campaign, run_campaign, start_run, campaign_status  # noqa: E402
__all__ += ["Campaign", "CampaignRun", "Progress", "RunFailed", "load_campaign", "validate_campaign", "run_campaign", "start_run", "campaign_status"]
from .layouts import read_layouts, LayoutsArrays  # noqa: E402
__all__ += ["read_layouts", "LayoutsArrays"]
from .program import program, Program, Task, Result, Wind, Permanent  # noqa: E402
__all__ += ["program", "Program", "Task", "Result", "Wind", "Permanent"]
