"""Draw the ratio jaxtyped / JAX of every benchmarked workload.

Reads the JSON that the side-by-side benchmarks write with ``--json PATH``
(``benchmarks/side_by_side.py``) and writes, for the performance page of
the docs:

- ``OUT.svg``: one horizontal bar per workload on a logarithmic axis
  centred on 1 (left of the line jaxtyped is faster, right of it JAX is);
- ``OUT.csv``: the same numbers as a table (workload, unit, jaxtyped, JAX,
  ratio), which the page shows under the picture.

The SVG is written by hand, so no plotting library is needed::

    python benchmarks/core_overheads.py --json /tmp/core.json
    python tools/plot_benchmarks.py /tmp/core.json --out docs/_static/benchmark_ratios
"""

import argparse
import csv
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import cast


@dataclass(frozen=True)
class Workload:
    """One measurement both libraries ran."""

    name: str
    unit: str
    jaxtyped: float
    jax: float

    @property
    def ratio(self) -> float:
        return self.jaxtyped / self.jax


def read_workloads(paths: Sequence[Path]) -> list[Workload]:
    """The measurements of the JSON files that have a JAX time (jaxtyped-only
    rows, such as a one-op XLA program, have nothing to compare with)."""
    workloads: list[Workload] = []
    for path in paths:
        document = cast(dict[str, object], json.loads(path.read_text()))
        for entry in cast(list[dict[str, object]], document["results"]):
            ours, theirs = entry.get("jaxtyped"), entry.get("jax")
            if isinstance(ours, (int, float)) and isinstance(theirs, (int, float)) and theirs > 0:
                workloads.append(Workload(str(entry["name"]), str(entry["unit"]), float(ours), float(theirs)))
    return workloads


# Layout of the picture, in SVG user units (pixels).
_LABEL_WIDTH = 330
_PLOT_WIDTH = 420
_VALUE_WIDTH = 60
_ROW = 18
_TOP = 40
_BOTTOM = 36


def _axis_limits(ratios: Sequence[float]) -> tuple[int, int]:
    """Powers of two (as exponents) that enclose every ratio and 1."""
    exponents = [math.log2(r) for r in ratios] + [0.0]
    return math.floor(min(exponents)), max(math.ceil(max(exponents)), math.floor(min(exponents)) + 1)


def render_svg(workloads: Sequence[Workload], title: str) -> str:
    """The bar chart of ``workloads``' ratios as an SVG document."""
    low, high = _axis_limits([w.ratio for w in workloads])
    width = _LABEL_WIDTH + _PLOT_WIDTH + _VALUE_WIDTH
    height = _TOP + _ROW * len(workloads) + _BOTTOM

    def x_of(ratio: float) -> float:
        return _LABEL_WIDTH + (math.log2(ratio) - low) / (high - low) * _PLOT_WIDTH

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="16" text-anchor="middle" font-size="13">{escape(title)}</text>',
        f'<text x="{x_of(1.0) - 6}" y="32" text-anchor="end" fill="#2a7a2a">jaxtyped faster</text>',
        f'<text x="{x_of(1.0) + 6}" y="32" fill="#b35900">JAX faster</text>',
    ]
    bottom = _TOP + _ROW * len(workloads)
    for exponent in range(low, high + 1):
        x = x_of(2.0**exponent)
        stroke = "#333" if exponent == 0 else "#ddd"
        parts.append(f'<line x1="{x:.1f}" y1="{_TOP - 4}" x2="{x:.1f}" y2="{bottom}" stroke="{stroke}"/>')
        label = f"{2.0**exponent:g}x"
        parts.append(f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="middle">{label}</text>')
    parts.append(
        f'<text x="{_LABEL_WIDTH + _PLOT_WIDTH / 2}" y="{bottom + 30}" text-anchor="middle">'
        "time jaxtyped / time JAX (log scale; median of interleaved runs)</text>"
    )
    for row, workload in enumerate(workloads):
        y = _TOP + row * _ROW
        start, end = sorted((x_of(1.0), x_of(workload.ratio)))
        color = "#4caf50" if workload.ratio <= 1.0 else "#ff9800"
        parts.append(f'<text x="{_LABEL_WIDTH - 6}" y="{y + 12}" text-anchor="end">{escape(workload.name)}</text>')
        parts.append(f'<rect x="{start:.1f}" y="{y + 3}" width="{max(end - start, 1.0):.1f}" height="{_ROW - 6}" fill="{color}"/>')
        parts.append(f'<text x="{_LABEL_WIDTH + _PLOT_WIDTH + 6}" y="{y + 12}">{workload.ratio:.2f}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_table(workloads: Sequence[Workload], path: Path) -> None:
    """The numbers behind the picture, as CSV with a header row."""
    with path.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["workload", "unit", "jaxtyped", "JAX", "ratio"])
        for w in workloads:
            writer.writerow([w.name, w.unit, f"{w.jaxtyped:.2f}", f"{w.jax:.2f}", f"{w.ratio:.2f}"])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="+", type=Path, help="files written by a benchmark's --json")
    parser.add_argument("--out", type=Path, default=Path("docs/_static/benchmark_ratios"), help="output path without suffix")
    parser.add_argument("--title", default="jaxtyped / JAX, per workload", help="the picture's title")
    args = parser.parse_args(argv)
    workloads = read_workloads(cast(list[Path], args.json))
    if not workloads:
        parser.error("no measurement with both a jaxtyped and a JAX time in the given files")
    out = cast(Path, args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".svg").write_text(render_svg(workloads, cast(str, args.title)))
    write_table(workloads, out.with_suffix(".csv"))
    print(f"wrote {out.with_suffix('.svg')} and {out.with_suffix('.csv')} ({len(workloads)} workloads)")


if __name__ == "__main__":
    main()
