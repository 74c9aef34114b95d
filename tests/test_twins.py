"""Every rule of the reference engine has its compiled twin, found by name.

The differential tests (tests/test_compiled.py) hold the compiled core to the engine's results
on random games; these hold its structure to the engine's: a rule method added to ``State``, a
scoring function added to ``fh_env.contracts`` or a field added to ``State`` fails here until
the compiled core has its twin (or the addition is declared as needing none, with the reason).
"""

from __future__ import annotations

import inspect
import types

from numba.core.registry import CPUDispatcher

import fh_env.contracts as contracts
from fh_env.compiled import contracts as fast_contracts
from fh_env.compiled import engine as fast_engine
from fh_env.compiled.games import SPECIAL_FIELDS
from fh_env.compiled.rules import RULES_DTYPE
from fh_env import engine
from fh_env.compiled.engine import GAME_DTYPE
from fh_env.engine import State

_METHOD_TYPES = (types.FunctionType, property, classmethod, staticmethod)


def _state_methods() -> list[str]:
    return [name for name, value in vars(State).items() if isinstance(value, _METHOD_TYPES)]


def twin_of(name: str, module: types.ModuleType, twins: dict) -> object | None:
    """The compiled twin of a reference function: declared in ``twins``, else the function of
    the same name without its leading underscore."""
    return twins[name] if name in twins else getattr(module, name.lstrip("_"), None)


def test_every_rule_method_of_state_has_a_compiled_twin() -> None:
    missing = []
    for name in _state_methods():
        if name in fast_engine.NOT_RULES:
            continue
        twin = twin_of(name, fast_engine, fast_engine.TWINS)
        if not isinstance(twin, CPUDispatcher):
            missing.append(name)
    assert not missing, (
        f"State methods with no compiled twin in fh_env.compiled.engine: {missing}; write the "
        "kernel (same name without the leading underscore, or declared in TWINS), or list the "
        "method in NOT_RULES with the reason it is not rule logic")


def test_twin_declarations_name_real_methods() -> None:
    methods = set(_state_methods())
    assert set(fast_engine.TWINS) <= methods, set(fast_engine.TWINS) - methods
    assert set(fast_engine.NOT_RULES) <= methods, set(fast_engine.NOT_RULES) - methods
    assert not set(fast_engine.TWINS) & set(fast_engine.NOT_RULES)
    assert all(isinstance(t, CPUDispatcher) for t in fast_engine.TWINS.values())
    assert all(reason for reason in fast_engine.NOT_RULES.values())


def _contract_functions() -> list[str]:
    return [name for name, value in vars(contracts).items()
            if (inspect.isfunction(value) or inspect.isclass(value))
            and value.__module__ == contracts.__name__]


def test_every_scoring_function_has_a_twin_or_is_precomputed() -> None:
    missing = []
    for name in _contract_functions():
        if name in fast_contracts.PRECOMPUTED:
            assert set(fast_contracts.PRECOMPUTED[name]) <= set(RULES_DTYPE.names), name
        elif name in fast_contracts.NOT_COMPILED:
            continue
        elif not isinstance(twin_of(name, fast_contracts, {}), CPUDispatcher):
            missing.append(name)
    assert not missing, (
        f"fh_env.contracts functions with no twin in fh_env.compiled.contracts: {missing}; "
        "write the kernel, or precompute it into the rules record and list it in PRECOMPUTED")
    assert set(fast_contracts.PRECOMPUTED) <= set(_contract_functions())


def test_the_engine_uses_only_scoring_functions_with_twins_or_tables() -> None:
    # What the engine calls from fh_env.contracts at play time is covered above; this pins that
    # the engine's imports from contracts are among those functions.
    used = [name for name, value in vars(engine).items()
            if getattr(value, "__module__", None) == contracts.__name__]
    assert used and set(used) <= set(_contract_functions())


def test_every_state_field_is_in_the_game_record() -> None:
    unmapped = [name for name in State.FIELDS
                if name not in SPECIAL_FIELDS and name not in GAME_DTYPE.names]
    assert not unmapped, (
        f"State fields the game record lacks: {unmapped}; add them to GAME_DTYPE (and the "
        "kernels), or to SPECIAL_FIELDS of fh_env.compiled.games with their conversion")
    assert set(SPECIAL_FIELDS) <= set(State.FIELDS), set(SPECIAL_FIELDS) - set(State.FIELDS)


def test_compiled_in_codes_are_current() -> None:
    """numba's cache keeps constants from other modules (phases, option codes) as compiled; a
    change to fh_env/rules.py or fh_env/engine.py does not recompile. Clear the cache
    (fh_env/compiled/__pycache__) if this fails."""
    for module in (fast_engine, fast_contracts):
        assert module.compiled_codes() == module.compiled_codes.py_func(), module.__name__
