"""``jaxtyped.numpy.fft`` against ``jax.numpy.fft``: every function, with
odd and even sizes, padding and cropping through ``n``/``s``, every
``norm``, axes other than the trailing ones and more than 3 of them,
integer/boolean/float16/weak inputs (JAX's promotion), the errors JAX
raises; under ``jit``, ``vmap`` and ``grad``; ``check_grads`` at order 2
in both modes for every transform; and a census that every name of
``jax.numpy.fft`` exists here.

Cases are written once as ``fn(L)`` and compared through the oracle
(values, dtype, weak type, shape; the kind of error where JAX raises);
JAX runs each table in one jit.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.numpy.fft as jfft
from jaxtyped.test_util import check_grads

from oracle import Case, CaseTable, Group, call, host, jax_numpy, jitted, library, unary_fn, vmapped

RNG = np.random.default_rng(41)
NORMS = (None, "backward", "ortho", "forward")


def _complex(dtype: str, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    return host(dtype, RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape))


R8 = host("float32", RNG.standard_normal((8,)))
R7 = host("float32", RNG.standard_normal((7,)))
R345 = host("float32", RNG.standard_normal((3, 4, 5)))
R2345 = host("float32", RNG.standard_normal((2, 3, 4, 5)))
C8 = _complex("complex64", (8,))
C7 = _complex("complex64", (7,))
C345 = _complex("complex64", (3, 4, 5))
C2343 = _complex("complex64", (2, 3, 4, 3))
I6 = host("int32", RNG.integers(-5, 6, (6,)))
B5 = host("bool", [True, False, True, True, False])
H6 = host("float16", RNG.standard_normal((6,)))
BF6 = host("bfloat16", RNG.standard_normal((6,)))

ONE_AXIS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
TWO_AXES = ("fft2", "ifft2", "rfft2", "irfft2")
N_AXES = ("fftn", "ifftn", "rfftn", "irfftn")
REAL_INPUT = ("rfft", "ihfft", "rfft2", "rfftn")


def _input(name: str, real: np.ndarray[Any, Any], cplx: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return real if name in REAL_INPUT else cplx


def _of_weak(name: str, shape: tuple[int, ...]) -> Callable[[Any], Any]:
    """``L.fft.<name>`` of a weakly typed array."""
    return lambda L: getattr(L.fft, name)(L.broadcast_to(1.5, shape))


def _applied(name: str, kwargs: dict[str, Any]) -> Callable[[Any, Any], Any]:
    """``L.fft.<name>(x, **kwargs)`` as a function of ``(L, x)``."""
    return lambda L, x: getattr(L.fft, name)(x, **kwargs)


def one_axis_cases() -> list[Case]:
    cases: list[Case] = []
    for name in ONE_AXIS:
        x8, x7, x3 = _input(name, R8, C8), _input(name, R7, C7), _input(name, R345, C345)
        cases += [
            Case(f"{name}-even", call(f"fft.{name}", x8)),
            Case(f"{name}-odd", call(f"fft.{name}", x7)),
            Case(f"{name}-pad", call(f"fft.{name}", x7, n=11)),
            Case(f"{name}-crop", call(f"fft.{name}", x8, n=5)),
            Case(f"{name}-axis0", call(f"fft.{name}", x3, axis=0)),
            Case(f"{name}-axis1_n", call(f"fft.{name}", x3, n=6, axis=1)),
            Case(f"{name}-int", call(f"fft.{name}", I6)),
            Case(f"{name}-bool", call(f"fft.{name}", B5)),
            Case(f"{name}-weak", _of_weak(name, (4,))),
            Case(f"{name}-python_scalar_input", call(f"fft.{name}", 2.0)),
            # (JAX's ihfft alone accepts a list; jaxtyped's rejects it as every
            # other function does: its parameter is an ArrayLike)
            *([] if name == "ihfft" else [Case(f"{name}-list_input", call(f"fft.{name}", [1.0, 2.0]))]),
            Case(f"{name}-n_zero", call(f"fft.{name}", x8, n=0)),
            Case(f"{name}-n_float", call(f"fft.{name}", x8, n=4.0)),
            Case(f"{name}-axis_out_of_range", call(f"fft.{name}", x8, axis=1)),
            Case(f"{name}-bad_norm", call(f"fft.{name}", x8, norm="unitary")),
            Case(f"{name}-float16", call(f"fft.{name}", H6), rtol=1e-2, atol=1e-2),
            Case(f"{name}-bfloat16", call(f"fft.{name}", BF6), rtol=1e-2, atol=1e-2),
        ]
        cases += [Case(f"{name}-norm_{norm}", call(f"fft.{name}", x7, n=9, norm=norm)) for norm in NORMS]
    cases += [
        Case("rfft-complex_input", call("fft.rfft", C8)),
        Case("ihfft-complex_input", call("fft.ihfft", C8)),
        Case("irfft-n1", call("fft.irfft", C8, n=1)),
        Case("irfft-n2_of_length1", call("fft.irfft", C8[:1], n=2)),
        Case("irfft-default_n_of_length1", call("fft.irfft", C8[:1])),
        Case("fft-float64_without_x64", call("fft.fft", R8.astype(np.float64))),
        Case("rfft-float64_without_x64", call("fft.rfft", R8.astype(np.float64))),
        Case("ifft-complex128_without_x64", call("fft.ifft", C8.astype(np.complex128))),
        Case("fft2-scalar", call("fft.fft2", 2.0)),
        Case("fftn-scalar", call("fft.fftn", 2.0)),
        Case("rfftn-scalar", call("fft.rfftn", 2.0)),
    ]
    return cases


def multi_axis_cases() -> list[Case]:
    cases: list[Case] = []
    for name in TWO_AXES + N_AXES:
        x3, x4 = _input(name, R345, C345), _input(name, R2345, C2343)
        cases += [
            Case(f"{name}-default", call(f"fft.{name}", x3)),
            Case(f"{name}-axes_leading", call(f"fft.{name}", x3, axes=(0, 1))),
            Case(f"{name}-axes_reversed", call(f"fft.{name}", x3, axes=(2, 0))),
            Case(f"{name}-axes_negative", call(f"fft.{name}", x3, axes=(-1, -3))),
            Case(f"{name}-s_pad_crop", call(f"fft.{name}", x3, s=(6, 3), axes=(1, 2))),
            Case(f"{name}-s_odd", call(f"fft.{name}", x3, s=(5, 7), axes=(0, 2))),
            Case(f"{name}-4d", call(f"fft.{name}", x4, axes=(0, 1, 2, 3) if name in N_AXES else (-2, -1))),
            Case(f"{name}-repeated_axes", call(f"fft.{name}", x3, axes=(1, 1))),
            Case(f"{name}-axes_out_of_range", call(f"fft.{name}", x3, axes=(0, 3))),
            Case(f"{name}-s_axes_mismatch", call(f"fft.{name}", x3, s=(4, 4, 4), axes=(0, 1))),
            Case(f"{name}-s_negative", call(f"fft.{name}", x3, s=(4, -1))),
            Case(f"{name}-int", call(f"fft.{name}", I6.reshape(2, 3))),
            Case(f"{name}-weak", _of_weak(name, (2, 4))),
            Case(f"{name}-1d_input", call(f"fft.{name}", _input(name, R8, C8))),
        ]
        cases += [Case(f"{name}-norm_{norm}", call(f"fft.{name}", x3, s=(3, 5), norm=norm)) for norm in NORMS]
    for name in N_AXES:
        x3, x4 = _input(name, R345, C345), _input(name, R2345, C2343)
        cases += [
            Case(f"{name}-s_only", call(f"fft.{name}", x3, s=(3, 6))),
            Case(f"{name}-s_longer_than_ndim", call(f"fft.{name}", x3, s=(2, 3, 4, 5))),
            Case(f"{name}-4d_default", call(f"fft.{name}", x4)),
            Case(f"{name}-4d_permuted_s", call(f"fft.{name}", x4, s=(4, 3, 5, 7), axes=(3, 1, 0, 2))),
            Case(f"{name}-4d_ortho", call(f"fft.{name}", x4, norm="ortho")),
            Case(f"{name}-empty_axes", call(f"fft.{name}", x3, axes=())),
        ]
    return cases


def freq_and_shift_cases() -> list[Case]:
    return [
        Case("fftfreq-even", call("fft.fftfreq", 8)),
        Case("fftfreq-odd_spacing", call("fft.fftfreq", 7, 0.3)),
        Case("fftfreq-one", call("fft.fftfreq", 1)),
        Case("fftfreq-zero", call("fft.fftfreq", 0)),
        Case("fftfreq-int_spacing", call("fft.fftfreq", 5, 2)),
        Case("fftfreq-array_spacing", lambda L: L.fft.fftfreq(6, L.asarray(host("float32", 0.25)))),
        Case("fftfreq-dtype_float16", call("fft.fftfreq", 6, 0.5, dtype=jnp.float16), rtol=1e-3),
        Case("fftfreq-dtype_int", call("fft.fftfreq", 5, dtype=jnp.int32)),
        Case("fftfreq-dtype_complex", call("fft.fftfreq", 5, 0.5, dtype=jnp.complex64)),
        Case("rfftfreq-even", call("fft.rfftfreq", 8)),
        Case("rfftfreq-odd_spacing", call("fft.rfftfreq", 9, 0.3)),
        Case("rfftfreq-dtype", call("fft.rfftfreq", 9, 0.3, dtype=jnp.float32)),
        Case("fftshift-all_even_odd", call("fft.fftshift", R345)),
        Case("fftshift-axis", call("fft.fftshift", R345, axes=1)),
        Case("fftshift-axes", call("fft.fftshift", C345, axes=(0, 2))),
        Case("fftshift-int", call("fft.fftshift", I6)),
        Case("fftshift-scalar", call("fft.fftshift", 3)),
        Case("fftshift-weak", lambda L: L.fft.fftshift(L.broadcast_to(1.5, (5,)))),
        Case("fftshift-axis_out_of_range", call("fft.fftshift", R8, axes=2)),
        Case("fftshift-list_input", call("fft.fftshift", [1, 2, 3])),
        Case("ifftshift-all_even_odd", call("fft.ifftshift", R345)),
        Case("ifftshift-axes", call("fft.ifftshift", I6, axes=(0,))),
        Case("ifftshift-undoes_fftshift", lambda L: L.fft.ifftshift(L.fft.fftshift(L.asarray(R345), (1, 2)), (1, 2))),
    ]


def _weighted(name: str, weights: np.ndarray[Any, Any], **kwargs: Any) -> Callable[[Any, Any], Any]:
    """``sum(Re(w * f(x)) + Im(w * f(x)) / 2)``: a real loss that sees every
    output (a plain sum would hide permuted cotangents)."""

    def loss(L: Any, x: Any) -> Any:
        y = getattr(L.fft, name)(x, **kwargs) * weights
        return L.sum(L.real(y) + 0.5 * L.imag(y)) if L.iscomplexobj(y) else L.sum(y)

    return loss


def _grad(name: str, x: np.ndarray[Any, Any], weights: np.ndarray[Any, Any], **kwargs: Any) -> Callable[[Any], Any]:
    loss = _weighted(name, weights, **kwargs)
    return lambda L: library(L).api.grad(unary_fn(lambda a: loss(L, a)))(L.asarray(x))


# (name, input, keyword arguments): every transform, with shape-changing n/s.
GRAD_POINTS: list[tuple[str, np.ndarray[Any, Any], dict[str, Any]]] = [
    ("fft", C7, {"n": 9}),
    ("ifft", C8, {"n": 5, "norm": "ortho"}),
    ("rfft", R7, {}),
    ("irfft", C7, {"n": 11}),
    ("hfft", C7, {"n": 12, "norm": "forward"}),
    ("ihfft", R8, {"norm": "ortho"}),
    ("fft2", C345, {"s": (3, 6)}),
    ("ifft2", C345, {"axes": (0, 2)}),
    ("rfft2", R345, {"s": (4, 7)}),
    ("irfft2", C345, {"s": (4, 7)}),
    ("fftn", C2343, {}),
    ("ifftn", C345, {"norm": "forward"}),
    ("rfftn", R2345, {"axes": (3, 1, 0, 2)}),
    ("irfftn", C2343, {"s": (2, 3, 4, 5)}),
]


def _output_shape(name: str, x: np.ndarray[Any, Any], kwargs: dict[str, Any]) -> tuple[int, ...]:
    return tuple(getattr(jax_numpy.fft, name)(x, **kwargs).shape)


def transformation_cases() -> list[Case]:
    cases: list[Case] = []
    for name, x, kwargs in GRAD_POINTS:
        shape = _output_shape(name, x, kwargs)
        weights = host("complex64" if name not in ("irfft", "hfft", "irfft2", "irfftn") else "float32",
                       RNG.standard_normal(shape) + (0 if name in ("irfft", "hfft", "irfft2", "irfftn") else 1j) * RNG.standard_normal(shape))  # fmt: skip
        cases += [
            Case(f"grad_{name}-weighted", _grad(name, x, weights, **kwargs), rtol=1e-4, atol=1e-4),
            Case(f"jit_{name}-traced", jitted(_applied(name, kwargs), x)),
        ]
    cases += [
        Case("vmap_fft-rows", vmapped(lambda L, row: L.fft.fft(row, n=6), C345)),
        Case("vmap_rfft2-rows", vmapped(lambda L, row: L.fft.rfft2(row, axes=(1, 0)), R2345)),
        Case("vmap_irfftn-rows", vmapped(lambda L, row: L.fft.irfftn(row, s=(3, 4, 5)), C2343)),
        Case("vmap_fftshift-rows", vmapped(lambda L, row: L.fft.fftshift(row), R345)),
        Case("jit_fftfreq-traced_spacing", jitted(lambda L, d: L.fft.fftfreq(8, d), host("float32", 0.1))),
        Case("grad_fftfreq-spacing", lambda L: library(L).api.grad(unary_fn(lambda d: L.sum(L.fft.fftfreq(8, d) ** 2)))(
            L.asarray(host("float32", 0.5)))),
        Case("grad_fftshift-weighted", lambda L: library(L).api.grad(
            unary_fn(lambda a: L.sum(L.fft.fftshift(a) * L.asarray(R345))))(L.asarray(R345))),
    ]  # fmt: skip
    return cases


def x64_cases() -> list[Case]:
    r64 = host("float64", RNG.standard_normal((6,)))
    c128 = _complex("complex128", (6,))
    tight = {"rtol": 1e-12, "atol": 1e-12}
    return [
        Case("fft-x64_float64", call("fft.fft", r64), **tight),
        Case("fft-x64_int64", call("fft.fft", I6.astype(np.int64)), **tight),
        Case("fft-x64_int32", call("fft.fft", I6)),
        Case("rfft-x64_int16", call("fft.rfft", I6.astype(np.int16))),
        Case("rfft-x64_float64", call("fft.rfft", r64, n=9, norm="ortho"), **tight),
        Case("irfftn-x64_complex128", call("fft.irfftn", c128, s=(10,)), **tight),
        Case("hfft-x64_complex128", call("fft.hfft", c128), **tight),
        Case("fftfreq-x64_default", call("fft.fftfreq", 7, 0.3), **tight),
        Case("rfftfreq-x64_float32_spacing", lambda L: L.fft.rfftfreq(7, L.asarray(host("float32", 0.3))), **tight),
        Case("grad_irfft-x64", _grad("irfft", c128, host("float64", RNG.standard_normal((10,)))), **tight),
    ]


TABLES = {
    "one_axis": CaseTable("jnp_fft_one_axis", one_axis_cases),
    "multi_axis": CaseTable("jnp_fft_multi_axis", multi_axis_cases),
    "freq_shift": CaseTable("jnp_fft_freq_shift", freq_and_shift_cases),
    "transformations": CaseTable("jnp_fft_transformations", transformation_cases),
    "x64": CaseTable("jnp_fft_x64", x64_cases, x64=True),
}


@pytest.mark.parametrize(
    ("table", "group"),
    [pytest.param(name, p.values[0], id=f"{name}-{p.id}") for name, table in TABLES.items() for p in table.params()],
)
def test_matches_jax(table: str, group: Group) -> None:
    TABLES[table].check(group)


# === derivatives against finite differences, eager against jit ===


@pytest.mark.parametrize(("name", "x", "kwargs"), [pytest.param(*p, id=p[0]) for p in GRAD_POINTS])
def test_check_grads_order_2(name: str, x: np.ndarray[Any, Any], kwargs: dict[str, Any], x64: None) -> None:
    wide = jnp.asarray(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
    check_grads(unary_fn(lambda a: getattr(jfft, name)(a, **kwargs)), (wide,), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize(("name", "x", "kwargs"), [pytest.param(*p, id=p[0]) for p in GRAD_POINTS])
def test_eager_equals_jit(name: str, x: np.ndarray[Any, Any], kwargs: dict[str, Any]) -> None:
    def f(a: jt.Array) -> jt.Array:
        result: jt.Array = getattr(jfft, name)(a, **kwargs)
        return result

    eager, compiled = f(jnp.asarray(x)), jt.jit(f)(jnp.asarray(x))
    assert eager.dtype == compiled.dtype and eager.shape == compiled.shape
    np.testing.assert_allclose(np.asarray(eager), np.asarray(compiled), rtol=1e-6, atol=1e-6)


def test_vmap_equals_a_loop() -> None:
    def f(a: jt.Array) -> jt.Array:
        return jfft.irfft2(a, s=(3, 6), axes=(0, 1))

    batched = jt.vmap(f, in_axes=2, out_axes=1)(jnp.asarray(C2343))
    expected = jnp.stack([f(jnp.asarray(C2343[:, :, i])) for i in range(C2343.shape[2])], axis=1)
    assert batched.dtype == expected.dtype and batched.shape == expected.shape
    np.testing.assert_allclose(np.asarray(batched), np.asarray(expected), rtol=1e-6, atol=1e-6)


def test_roundtrips() -> None:
    np.testing.assert_allclose(np.asarray(jfft.irfftn(jfft.rfftn(R2345), s=R2345.shape)), R2345, atol=1e-5)
    np.testing.assert_allclose(np.asarray(jfft.ifft(jfft.fft(C7, norm="ortho"), norm="ortho")), C7, atol=1e-5)
    hermitian_half = C7.copy()
    hermitian_half[0] = hermitian_half[0].real  # hfft ignores the DC term's imaginary part
    np.testing.assert_allclose(np.asarray(jfft.ihfft(jfft.hfft(hermitian_half, n=13), n=13)), hermitian_half, atol=1e-5)


def test_fftfreq_on_a_device() -> None:
    device = jt.devices()[0]
    out = jfft.fftfreq(4, device=device)
    np.testing.assert_allclose(np.asarray(out), [0.0, 0.25, -0.5, -0.25])


# === census ===


def test_every_jax_numpy_fft_name_exists() -> None:
    theirs = {name for name in dir(jax_numpy.fft) if not name.startswith("_")}
    assert {"fft", "rfftn", "fftshift"} <= theirs  # the census cannot pass vacuously
    assert sorted(theirs - set(jfft.__all__)) == []
    assert all(callable(getattr(jfft, name)) for name in jfft.__all__)
