"""The op table names each op's module and options Struct; every name must resolve."""

from __future__ import annotations

import inspect

import msgspec
import pytest

from i18nprune.ops.engine.registry import OPS, OpSpec


@pytest.mark.parametrize("spec", list(OPS.values()), ids=list(OPS))
def test_every_op_names_its_module_run_and_options(spec: OpSpec) -> None:
    assert issubclass(spec.options, msgspec.Struct)
    assert inspect.iscoroutinefunction(spec.run)
