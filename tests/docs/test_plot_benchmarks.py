"""``tools/plot_benchmarks.py`` draws the performance page's picture from a
benchmark's ``--json`` output, and the committed picture matches its table."""

import csv
import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def plot_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("plot_benchmarks", ROOT / "tools" / "plot_benchmarks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tool_draws_one_bar_per_workload_with_a_jax_time(tmp_path: Path) -> None:
    results = [
        {"name": "fast op", "unit": "us", "jaxtyped": 5.0, "jax": 10.0, "ratio": 0.5},
        {"name": "slow op", "unit": "ms", "jaxtyped": 30.0, "jax": 10.0, "ratio": 3.0},
        {"name": "ours only", "unit": "us", "jaxtyped": 1.0, "jax": None, "ratio": None},
    ]
    source = tmp_path / "run.json"
    source.write_text(json.dumps({"script": "x.py", "results": results}))
    plot_tool().main([str(source), "--out", str(tmp_path / "plot")])
    svg = (tmp_path / "plot.svg").read_text()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "fast op" in svg and "slow op" in svg and "ours only" not in svg
    # One bar per workload: green left of 1x (jaxtyped faster), orange right of it.
    assert svg.count('fill="#4caf50"') == 1 and svg.count('fill="#ff9800"') == 1
    assert ">0.50<" in svg and ">3.00<" in svg
    rows = list(csv.reader((tmp_path / "plot.csv").read_text().splitlines()))
    assert rows == [
        ["workload", "unit", "jaxtyped", "JAX", "ratio"],
        ["fast op", "us", "5.00", "10.00", "0.50"],
        ["slow op", "ms", "30.00", "10.00", "3.00"],
    ]


def test_the_committed_picture_matches_its_table() -> None:
    static = ROOT / "docs" / "_static"
    svg = (static / "benchmark_ratios.svg").read_text()
    rows = list(csv.reader((static / "benchmark_ratios.csv").read_text().splitlines()))[1:]
    assert rows, "the performance page has numbers"
    bars = re.findall(r'<rect x="[^"]+" y="[^"]+" width="[^"]+" height="[^"]+" fill="#(?:4caf50|ff9800)"/>', svg)
    assert len(bars) == len(rows)
    for workload, _unit, _ours, _theirs, ratio in rows:
        assert f">{workload}<" in svg and f">{ratio}<" in svg
