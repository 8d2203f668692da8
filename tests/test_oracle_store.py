"""The store of JAX's case-table results shared by ``tools/test.sh``'s two
runs (``tests/support/oracle_store.py``): what the second run loads is
what the first computed, dtypes, weak types and error kinds included, and
nothing is stored or loaded without the run's directory."""

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import oracle_store
from oracle import Case, CaseTable, Raised, assert_same, jax, jax_numpy


def _counting_table(name: str, calls: list[str], *, x64: bool = False) -> CaseTable:
    """A table whose JAX side records each case it runs."""

    def weak_sum(L: Any) -> Any:
        if L is jax_numpy:
            calls.append("weak_sum")
        return L.sin(L.asarray(2.0)) * 3  # a weakly typed result

    def wide(L: Any) -> Any:
        if L is jax_numpy:
            calls.append("wide")
        return L.asarray(np.array([0.1, 0.2], dtype=np.float64)) + 1

    def refused(L: Any) -> Any:
        if L is jax_numpy:
            calls.append("refused")
        return L.reshape(L.ones(6), (4, 2))

    return CaseTable(name, lambda: [Case("weak_sum", weak_sum), Case("wide", wide), Case("refused", refused)], x64=x64, eager=True)


def test_second_run_loads_what_the_first_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAXTYPED_TEST_CACHE_DIR", str(tmp_path))
    first_calls: list[str] = []
    first = _counting_table("store_roundtrip", first_calls, x64=True).jax_results
    assert sorted(first_calls) == ["refused", "weak_sum", "wide"]
    assert len(list((tmp_path / "oracle").glob("store_roundtrip-*.pickle"))) == 1

    second_calls: list[str] = []
    table = _counting_table("store_roundtrip", second_calls, x64=True)
    second = table.jax_results
    assert second_calls == []  # loaded, not run
    assert second.keys() == first.keys()
    for key in ("weak_sum", "wide"):
        assert_same(second[key], first[key], 0.0, 0.0, key, kind=jax.Array)
    assert second["wide"].dtype == np.float64  # put on the device under the table's x64 setting
    assert second["weak_sum"].weak_type
    error = second["refused"]
    assert isinstance(error, Raised) and isinstance(first["refused"], Raised)
    assert type(error.error) is TypeError and isinstance(first["refused"].error, TypeError)
    assert str(error.error) == str(first["refused"].error)
    table.check(table.cases)  # jaxtyped against the loaded results


def test_a_changed_table_or_setting_is_computed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAXTYPED_TEST_CACHE_DIR", str(tmp_path))
    _ = _counting_table("store_keys", [], x64=True).jax_results
    calls: list[str] = []
    _ = _counting_table("store_keys", calls, x64=False).jax_results
    assert sorted(calls) == ["refused", "weak_sum", "wide"]
    assert oracle_store.load("store_keys", True, ["weak_sum", "wide"]) is None  # other case ids
    assert oracle_store.load("store_keys", True, ["weak_sum", "wide", "refused"]) is not None


def test_nothing_is_stored_without_the_runs_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAXTYPED_TEST_CACHE_DIR", raising=False)
    calls: list[str] = []
    _ = _counting_table("store_off", calls).jax_results
    again: list[str] = []
    _ = _counting_table("store_off", again).jax_results
    assert sorted(again) == ["refused", "weak_sum", "wide"]
    assert oracle_store.load("store_off", False, ["weak_sum", "wide", "refused"]) is None


def test_an_unpicklable_result_is_left_to_be_computed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAXTYPED_TEST_CACHE_DIR", str(tmp_path))
    oracle_store.save("store_lambda", False, ["f"], {"f": lambda: None})
    assert oracle_store.load("store_lambda", False, ["f"]) is None
    assert not (tmp_path / "oracle").exists() or not list((tmp_path / "oracle").iterdir())
