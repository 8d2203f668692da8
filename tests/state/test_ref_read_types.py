"""A ref's reads are typed by the ref: one made from a Python scalar reads
back weakly typed after any write (eager or under jit, whole or indexed),
as JAX's reads do, while its repr shows the stored value."""

from collections.abc import Callable
from typing import Any

import pytest
from oracle import assert_same, jax

import jaxtyped as jt


def _write_whole(lib: Any, r: Any) -> None:
    r[...] = lib.numpy.float32(2.0)


def _write_in_jit(lib: Any, r: Any) -> None:
    def body(x: Any) -> None:
        r[...] = x

    lib.jit(body)(lib.numpy.float32(3.0))


def _add_in_jit(lib: Any, r: Any) -> None:
    def body() -> None:
        r[...] += 1.0

    lib.jit(body)()


WRITES: dict[str, Callable[[Any, Any], None]] = {
    "eager_whole": _write_whole,
    "jit_write": _write_in_jit,
    "jit_add": _add_in_jit,
}


@pytest.mark.parametrize("init", [0.0, 0, 1.5])
@pytest.mark.parametrize("write", list(WRITES))
def test_reads_keep_the_refs_weak_type(init: float, write: str) -> None:
    refs: list[Any] = []
    for lib in (jt, jax):
        r = lib.new_ref(init)
        if isinstance(init, int):
            r[...] = 4  # an int ref takes no float32
        else:
            WRITES[write](lib, r)
        refs.append(r)
    ours, theirs = refs
    assert_same(ours[...], theirs[...])  # weak types compared too
    assert_same(ours[()], theirs[()])


def test_strong_refs_read_strongly_typed() -> None:
    ours, theirs = jt.new_ref(jt.numpy.zeros(3)), jax.new_ref(jax.numpy.zeros(3))
    ours[1] = 2.0
    theirs[1] = 2.0
    assert_same(ours[...], theirs[...])
    assert_same(ours[1], theirs[1])
    assert not ours[...].weak_type
