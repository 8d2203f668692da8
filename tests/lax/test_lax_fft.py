"""``lax.fft`` (the ``fft`` primitive) against ``jax.lax.fft``: the four
transform kinds over 1 to 3 trailing axes, odd and even lengths, batched
leading dimensions, dtype conversions, errors; under ``jit``, ``vmap``,
``jvp``, ``vjp`` (the transposes) and ``grad``; the staged equation and its
StableHLO.

Value cases are written once against ``library(L)`` (jaxtyped's or JAX's
``api``, ``lax`` and ``np``) and compared with :func:`oracle.assert_same`
(values, dtypes, weak types); JAX runs every case of a table in one jit.
"""

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import errors, lax
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.lax.fft import Fft, FftType
from jaxtyped.test_util import check_grads

from oracle import Case, CaseTable, Group, host, jax, unary_fn, library_case as case

RNG = np.random.default_rng(14)


def _complex(dtype: str, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    return host(dtype, RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape))


R234 = host("float32", RNG.standard_normal((2, 3, 4)))
R27 = host("float32", RNG.standard_normal((2, 7)))
R2345 = host("float32", RNG.standard_normal((2, 3, 4, 5)))
C234 = _complex("complex64", (2, 3, 4))
C25 = _complex("complex64", (2, 5))
C2343 = _complex("complex64", (2, 3, 4, 3))
I6 = host("int32", RNG.integers(-5, 6, (6,)))
B4 = host("bool", [True, False, True, True])
F16 = host("float16", RNG.standard_normal((2, 4)))

# (id, operand, fft_type, fft_lengths): every kind, 1-3 axes, odd and even.
TRANSFORMS: list[tuple[str, np.ndarray[Any, Any], Any, tuple[int, ...]]] = [
    ("fft_1d", C25, "fft", (5,)),
    ("fft_2d", C234, FftType.FFT, (3, 4)),
    ("fft_3d", C234, "FFT", (2, 3, 4)),
    ("ifft_1d", C25, "ifft", (5,)),
    ("ifft_3d_batched", C2343, FftType.IFFT, (3, 4, 3)),
    ("rfft_even", R234, "rfft", (4,)),
    ("rfft_odd", R27, "rfft", (7,)),
    ("rfft_2d", R234, FftType.RFFT, (3, 4)),
    ("rfft_3d_batched", R2345, "rfft", (3, 4, 5)),
    ("irfft_even", C234, "irfft", (6,)),
    ("irfft_odd", C234, "irfft", (7,)),
    ("irfft_2d", C234, FftType.IRFFT, (3, 6)),
    ("irfft_3d_odd", C2343, "irfft", (3, 4, 5)),
]


def _jax_type(kind: Any, m: Any) -> Any:
    """The same fft_type for JAX: strings as they are, enums by name."""
    return getattr(m.lax.FftType, kind.name) if isinstance(kind, FftType) else kind


def _transform(x: np.ndarray[Any, Any], kind: Any, n: tuple[int, ...]) -> Callable[[Any], Any]:
    return lambda m: m.lax.fft(x, _jax_type(kind, m), n)


def value_cases() -> list[Case]:
    cases = [
        case(f"value-{id_}", _transform(x, k, n)) for id_, x, k, n in TRANSFORMS
    ]
    cases += [
        case("convert-real_to_complex", lambda m: m.lax.fft(R234, "fft", (4,))),
        case("convert-int_fft", lambda m: m.lax.fft(I6, "fft", (6,))),
        case("convert-int_rfft", lambda m: m.lax.fft(I6, "rfft", (6,))),
        case("convert-bool_rfft", lambda m: m.lax.fft(B4, "rfft", (4,))),
        case("convert-float16_fft", lambda m: m.lax.fft(F16, "fft", (4,)), rtol=1e-2, atol=1e-2),
        case("convert-float16_irfft", lambda m: m.lax.fft(F16, "irfft", (6,)), rtol=1e-2, atol=1e-2),
        case("convert-weak", lambda m: m.lax.fft(m.lax.broadcast(1.5, (4,)), "fft", (4,))),
        case("empty-lengths_identity", lambda m: m.lax.fft(C25, "fft", ())),
        case("empty-axis", lambda m: m.lax.fft(m.np.zeros((3, 0), m.np.complex64), "fft", (0,))),
        case("empty-batch", lambda m: m.lax.fft(m.np.zeros((0, 4), m.np.complex64), "ifft", (4,))),
        case("empty-irfft_signal", lambda m: m.lax.fft(C25[:, :1], "irfft", (0,))),
        case("roundtrip-rfft_irfft_odd", lambda m: m.lax.fft(m.lax.fft(R27, "rfft", (7,)), "irfft", (7,))),
        case("roundtrip-fft_ifft_3d", lambda m: m.lax.fft(m.lax.fft(C234, "fft", (2, 3, 4)), "ifft", (2, 3, 4))),
    ]
    return cases


def error_cases() -> list[Case]:
    return [
        case("error-rfft_complex", lambda m: m.lax.fft(C25, "rfft", (5,))),
        case("error-rfft_float16", lambda m: m.lax.fft(F16, "rfft", (4,))),
        case("error-unknown_type", lambda m: m.lax.fft(C25, "dft", (5,))),
        case("error-int_type", lambda m: m.lax.fft(C25, 0, (5,))),
        case("error-length_mismatch", lambda m: m.lax.fft(C25, "fft", (4,))),
        case("error-rfft_length_mismatch", lambda m: m.lax.fft(R234, "rfft", (3, 5))),
        case("error-too_few_dims", lambda m: m.lax.fft(C25, "fft", (1, 2, 5))),
        case("error-scalar", lambda m: m.lax.fft(1.0, "rfft", (1,))),
        case("error-int_lengths", lambda m: m.lax.fft(C25, "fft", 5)),
    ]


def _jvp(kind: str, x: Any, n: tuple[int, ...]) -> Callable[[Any], Any]:
    tangent = (x * 0.5 + 0.25).astype(x.dtype)
    return lambda m: m.api.jvp(unary_fn(lambda a: m.lax.fft(a, kind, n)), (x,), (tangent,))


def _vjp(kind: str, x: Any, n: tuple[int, ...], ct: Any) -> Callable[[Any], Any]:
    def run(m: Any) -> Any:
        out, pullback = m.api.vjp(unary_fn(lambda a: m.lax.fft(a, kind, n)), x)
        return out, pullback(ct)[0]

    return run


def _grad(kind: str, x: Any, n: tuple[int, ...], weights: Any) -> Callable[[Any], Any]:
    def loss(m: Any, a: Any) -> Any:
        y = m.lax.fft(a, kind, n) * weights
        return m.np.sum(m.np.real(y) + 0.5 * m.np.imag(y) if m.np.iscomplexobj(y) else y)

    return lambda m: m.api.grad(unary_fn(lambda a: loss(m, a)))(x)


def transformation_cases() -> list[Case]:
    ct_c34 = _complex("complex64", (2, 3, 4))
    ct_r36 = host("float32", RNG.standard_normal((2, 3, 6)))
    ct_r7 = host("float32", RNG.standard_normal((2, 3, 7)))
    ct_c33 = _complex("complex64", (2, 3, 3))
    ct_c4 = _complex("complex64", (2, 4))
    return [
        case("jvp-fft", _jvp("fft", C234, (3, 4))),
        case("jvp-rfft", _jvp("rfft", R27, (7,))),
        case("jvp-irfft", _jvp("irfft", C234, (3, 6))),
        case("vjp-fft", _vjp("fft", C234, (3, 4), ct_c34)),
        case("vjp-ifft", _vjp("ifft", C234, (2, 3, 4), ct_c34)),
        case("vjp-rfft_even", _vjp("rfft", R234, (3, 4), ct_c33)),
        case("vjp-rfft_odd", _vjp("rfft", R27, (7,), ct_c4)),
        case("vjp-irfft_even", _vjp("irfft", C234, (3, 6), ct_r36)),
        case("vjp-irfft_odd", _vjp("irfft", C234, (7,), ct_r7)),
        case("grad-fft", _grad("fft", C234, (3, 4), ct_c34)),
        case("grad-ifft", _grad("ifft", C25, (5,), _complex("complex64", (2, 5)))),
        case("grad-rfft", _grad("rfft", R234, (3, 4), ct_c33)),
        case("grad-irfft", _grad("irfft", C234, (3, 6), ct_r36)),
        case("grad-irfft_odd_3d", _grad("irfft", C2343, (3, 4, 5), host("float32", RNG.standard_normal((2, 3, 4, 5))))),
        case("jit-rfft_2d", lambda m: m.api.jit(unary_fn(lambda a: m.lax.fft(a, "rfft", (3, 4))))(R234)),
        case("jit-irfft_3d", lambda m: m.api.jit(unary_fn(lambda a: m.lax.fft(a, "irfft", (3, 4, 5))))(C2343)),
        case("vmap-fft_axis2", lambda m: m.api.vmap(unary_fn(lambda a: m.lax.fft(a, "fft", (3,))), in_axes=2)(C2343)),
        case("vmap-irfft_axis1", lambda m: m.api.vmap(unary_fn(lambda a: m.lax.fft(a, "irfft", (6,))), in_axes=1, out_axes=1)(C234)),
        case("vmap-grad_rfft", lambda m: m.api.vmap(m.api.grad(unary_fn(lambda a: m.np.sum(m.np.abs(m.lax.fft(a, "rfft", (4,)))))))(R234)),
    ]


TABLES = {
    "values": CaseTable("lax_fft_values", value_cases),
    "errors": CaseTable("lax_fft_errors", error_cases),
    "transformations": CaseTable("lax_fft_transformations", transformation_cases),
}


@pytest.mark.parametrize(
    ("table", "group"),
    [pytest.param(name, p.values[0], id=f"{name}-{p.id}") for name, table in TABLES.items() for p in table.params()],
)
def test_matches_jax(table: str, group: Group) -> None:
    TABLES[table].check(group)


def _x64_cases() -> list[Case]:
    c128 = _complex("complex128", (2, 6))
    r64 = host("float64", RNG.standard_normal((2, 6)))
    return [
        case("x64-fft_c128", lambda m: m.lax.fft(c128, "fft", (6,)), rtol=1e-12, atol=1e-12),
        case("x64-rfft_f64", lambda m: m.lax.fft(r64, "rfft", (6,)), rtol=1e-12, atol=1e-12),
        case("x64-irfft_c128", lambda m: m.lax.fft(c128, "irfft", (10,)), rtol=1e-12, atol=1e-12),
        case("x64-fft_int32", lambda m: m.lax.fft(I6, "fft", (6,))),
        case("x64-fft_int64", lambda m: m.lax.fft(I6.astype(np.int64), "fft", (6,)), rtol=1e-12, atol=1e-12),
        case("x64-grad_irfft", _grad("irfft", c128, (10,), r64[:, :1]), rtol=1e-12, atol=1e-12),
    ]


X64_TABLE = CaseTable("lax_fft_x64", _x64_cases, x64=True)


@pytest.mark.parametrize("group", X64_TABLE.params())
def test_matches_jax_with_x64(group: Group) -> None:
    X64_TABLE.check(group)


# === the staged equation and its lowering ===


def test_jaxpr_equation_matches_jax() -> None:
    ours = str(jt.make_jaxpr(unary_fn(lambda a: lax.fft(a, "rfft", (3, 4))))(R234))
    theirs = str(jax.make_jaxpr(unary_fn(lambda a: jax.lax.fft(a, "rfft", (3, 4))))(R234))
    assert "fft[fft_lengths=(3, 4) fft_type=2]" in ours
    assert "fft[fft_lengths=(3, 4) fft_type=2]" in theirs


def test_lowers_to_stablehlo_fft_with_the_lengths() -> None:
    text = jt.jit(unary_fn(lambda a: lax.fft(a, "irfft", (3, 6)))).lower(C234).as_text()
    assert "stablehlo.fft" in text and "IRFFT" in text and "3, 6" in text


def test_eager_is_the_compiled_kernel_bit_for_bit() -> None:
    for _, x, kind, n in TRANSFORMS:
        eager = np.asarray(lax.fft(x, kind, n))
        compiled = np.asarray(jt.jit(functools.partial(lax.fft, fft_type=kind, fft_lengths=n))(x))
        np.testing.assert_array_equal(eager, compiled)


def test_vmap_equals_a_loop() -> None:
    for in_axis in (0, 1, 2):
        batched = jt.vmap(unary_fn(lambda a: lax.fft(a, "irfft", (5,))), in_axes=in_axis)(C2343)
        rows = [lax.fft(np.take(C2343, i, axis=in_axis), "irfft", (5,)) for i in range(C2343.shape[in_axis])]
        expected = jtnp.stack(rows)
        assert batched.dtype == expected.dtype and batched.shape == expected.shape
        np.testing.assert_allclose(np.asarray(batched), np.asarray(expected), rtol=1e-6, atol=1e-6)


# === derivatives against finite differences ===


def test_gradient_through_an_empty_irfft_signal_is_zero() -> None:
    # JAX divides by the signal size here (ZeroDivisionError); nothing flows back.
    grad = jt.grad(unary_fn(lambda a: jtnp.sum(lax.fft(a, "irfft", (0,)))))(C25[:, :1])
    assert grad.shape == (2, 1) and grad.dtype == np.complex64 and not np.any(np.asarray(grad))



@pytest.mark.parametrize(("id_", "x", "kind", "n"), [pytest.param(*t, id=t[0]) for t in TRANSFORMS])
def test_check_grads_order_2(id_: str, x: np.ndarray[Any, Any], kind: Any, n: tuple[int, ...], x64: None) -> None:
    wide = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    check_grads(unary_fn(lambda a: lax.fft(a, kind, n)), (wide,), order=2, modes=("fwd", "rev"))


# === errors ===


def test_more_than_three_axes_is_a_clear_error() -> None:
    with pytest.raises(errors.JaxtypedValueError, match="at most 3 axes"):
        lax.fft(C2343, "fft", (2, 3, 4, 3))


def test_primitive_rejects_wrong_dtypes_and_shapes_naming_them() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=r"fft \(FFT.*f32\[2,3,4\]"):
        bind1(Fft(FftType.FFT, (4,)), jtnp.asarray(R234))
    with pytest.raises(errors.JaxtypedTypeError, match=r"fft \(RFFT.*c64\[2,5\]"):
        bind1(Fft(FftType.RFFT, (5,)), jtnp.asarray(C25))
    with pytest.raises(errors.JaxtypedValueError, match=r"must end in dimensions \(2, 4\)"):
        bind1(Fft(FftType.IRFFT, (2, 6)), jtnp.asarray(C234))
    with pytest.raises(errors.JaxtypedValueError, match="lengths must be positive"):
        bind1(Fft(FftType.RFFT, (0,)), jtnp.zeros((0,)))


def test_irfft_input_of_the_wrong_size_is_rejected_early() -> None:
    # JAX accepts this while tracing and fails in MLIR; XLA would compute
    # garbage from a mismatched length, so the primitive checks it.
    with pytest.raises(errors.JaxtypedValueError, match="must end in dimensions"):
        lax.fft(C234, "irfft", (3, 12))
