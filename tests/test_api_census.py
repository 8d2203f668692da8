"""The public names of ``jax.numpy``, ``jax.Array``, ``jax.lax``, the
linear-algebra, FFT and random namespaces (``jax.numpy.linalg``,
``jax.numpy.fft``, ``jax.lax.linalg``, ``jax.scipy.linalg``, ``jax.random``,
``jax.nn.initializers``), the top-level ``jax`` namespace, ``jax.tree_util``,
``jax.tree``, ``jax.scipy.special``, ``jax.scipy.stats``, ``jax.debug``, ``jax.sharding`` and
``jax.custom_batching``, ``jax.dtypes``, ``jax.ops``, ``jax.dlpack``, ``jax.monitoring``, ``jax.profiler``, ``jax.image`` against ours (JEP 18137's scope
for ``jax.numpy``).

Every public name of JAX's namespace must exist in ours, or be listed with
a reason on the docs page ``docs/jax_compatibility.rst`` (under a heading
naming the namespace). A listed name that exists is a stale entry and fails
too, so the page stays true.
"""

import fnmatch
import importlib
import re
from pathlib import Path
from typing import Any

import pytest

import jaxtyped as jt
import jaxtyped.scipy.linalg
import jaxtyped.scipy.special
import jaxtyped.scipy.stats
import jaxtyped.scipy.stats.norm
import jaxtyped.lax as lax
import jaxtyped.numpy as jnp

from oracle import jax_numpy

PAGE = Path(__file__).resolve().parents[1] / "docs" / "jax_compatibility.rst"
SECTIONS = (
    "jax.numpy", "jax.Array", "jax.lax", "jax.numpy.linalg", "jax.numpy.fft", "jax.lax.linalg", "jax.scipy.linalg",
    "jax.random", "jax.nn.initializers",
    # breadth: the top level, pytrees, scipy.special and scipy.stats
    "jax", "jax.tree_util", "jax.tree", "jax.scipy.special", "jax.scipy.stats", "jax.scipy.stats.norm",
    "jax.debug", "jax.sharding", "jax.custom_batching", "jax.dtypes", "jax.ops", "jax.dlpack", "jax.monitoring",
    "jax.profiler", "jax.image", "jax.export", "jax.custom_derivatives", "jax.flatten_util",
)  # fmt: skip


def listed_names() -> dict[str, dict[str, str]]:
    """``{section: {name: reason}}`` from the docs page: under a heading
    ````jax.numpy```` (underlined), bullets ``- ``a``, ``b``: reason``."""
    listed: dict[str, dict[str, str]] = {section: {} for section in SECTIONS}
    section: str | None = None
    lines = PAGE.read_text().splitlines()
    for i, line in enumerate(lines):
        heading = re.fullmatch(r"``([\w.]+)``", line.strip())
        if heading and i + 1 < len(lines) and re.fullmatch(r"[~^-]{3,}", lines[i + 1].strip()):
            section = heading.group(1) if heading.group(1) in SECTIONS else None
            continue
        bullet = re.match(r"- ((?:``[\w.*]+``(?:, )?)+): (.+)", line.strip())
        if bullet and section is not None:
            for name in re.findall(r"``([\w.*]+)``", bullet.group(1)):
                listed[section][name] = bullet.group(2).strip()
    return listed


def public(names: list[str]) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def jax_names(section: str) -> set[str]:
    if section == "jax.Array":
        return public(dir(jax_numpy.ones((2, 2))))
    return public(dir(importlib.import_module(section)))


def has_name(section: str, name: str) -> bool:
    target: Any = {
        "jax.numpy": jnp,
        "jax.lax": lax,
        "jax.Array": jnp.ones((2, 2)),
        "jax.numpy.linalg": jnp.linalg,
        "jax.numpy.fft": jnp.fft,
        "jax.lax.linalg": lax.linalg,
        "jax.scipy.linalg": jaxtyped.scipy.linalg,
        "jax.random": jt.random,
        "jax.nn.initializers": jt.nn.initializers,
        "jax": jt,
        "jax.tree_util": jt.tree_util,
        "jax.tree": jt.tree,
        "jax.scipy.special": jaxtyped.scipy.special,
        "jax.scipy.stats": jaxtyped.scipy.stats,
        "jax.scipy.stats.norm": jaxtyped.scipy.stats.norm,
        "jax.debug": jt.debug,
        "jax.sharding": jt.sharding,
        "jax.custom_batching": jt.custom_batching,
        "jax.dtypes": jt.dtypes,
        "jax.ops": jt.ops,
        "jax.dlpack": jt.dlpack,
        "jax.monitoring": jt.monitoring,
        "jax.profiler": jt.profiler,
        "jax.image": jt.image,
        "jax.export": jt.export,
        "jax.custom_derivatives": jt.custom_derivatives,
        "jax.flatten_util": jt.flatten_util,
    }[section]
    try:
        getattr(target, name)
    except AttributeError:
        return False
    except NotImplementedError:
        return True  # defined to raise, as JAX's (``Array.flat``)
    return True


def test_the_page_parses() -> None:
    listed = listed_names()
    assert "ragged_all_to_all" in listed["jax.lax"]  # a known entry: the census cannot pass vacuously


@pytest.mark.parametrize("section", SECTIONS)
def test_every_jax_name_exists_or_is_listed_with_a_reason(section: str) -> None:
    listed = listed_names()[section]
    missing = sorted(
        n for n in jax_names(section) if not has_name(section, n) and not any(fnmatch.fnmatchcase(n, p) for p in listed)
    )
    assert not missing, f"{section}: implement these or list them with a reason in {PAGE.name}: {missing}"


@pytest.mark.parametrize("section", SECTIONS)
def test_listed_names_are_really_missing(section: str) -> None:
    listed = listed_names()[section]
    stale = sorted(n for n in listed if "*" not in n and has_name(section, n))
    assert not stale, f"{section}: these exist now; remove them from {PAGE.name}: {stale}"
    unknown = sorted(n for n in listed if not fnmatch.filter(jax_names(section), n))
    assert not unknown, f"{section}: not JAX names: {unknown}"


def test_numpy_names_are_in_all() -> None:
    """Every public name we export is in ``__all__`` (the docs and the
    type checkers read it)."""
    exported = set(jnp.__all__)
    extra = sorted(n for n in public(dir(jnp)) if n not in exported and not isinstance(getattr(jnp, n), type(jt)))
    assert not extra, f"public names missing from jaxtyped.numpy.__all__: {extra}"
