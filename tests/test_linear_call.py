"""``jaxtyped.custom_derivatives.linear_call`` against JAX's: values,
transposes that use the user's transpose (one that differs from the true
transpose shows it is used), jvp, vmap (JAX has no batching rule: compared
with a loop of JAX's results), jit, grad of grad, loops and branches around
the call, printed jaxprs and the errors for a bad transpose."""

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.custom_derivatives import linear_call
from jaxtyped.errors import JaxtypedTypeError, JaxtypedValueError, UnexpectedTracerError
from jaxtyped.test_util import check_grads
from lambdas import F1, fn1, fn2
from oracle import assert_same as oracle_assert_same
from oracle import jax as jx
from oracle import jax_numpy as jxnp
from oracle import raises_as_jax

jax_linear_call: Any = pytest.importorskip("jax.custom_derivatives").linear_call

# Each program is written once, as a function of the library ``T`` (jaxtyped
# or jax), ``N`` (its numpy) and ``lc`` (its linear_call).
LIBS: dict[str, tuple[Any, Any, Any]] = {"jt": (jt, jnp, linear_call), "jax": (jx, jxnp, jax_linear_call)}
Program = Callable[[Any, Any, Any], Any]


assert_same = functools.partial(oracle_assert_same, tree=True, rtol=2e-5, atol=2e-6)

A = np.array([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]], np.float32)  # a 2x3 matrix
X = np.array([0.5, -1.0, 2.0], np.float32)
Y = np.array([1.5, -0.25], np.float32)


def lc_of(T: Any) -> Any:
    """The linear_call of library ``T`` (for ``raises_as_jax`` programs)."""
    return linear_call if T is jt else jax_linear_call


def both(program: Program, *, weak: bool = True) -> None:
    """``program`` gives the same result (values, dtypes, weak types unless
    ``weak`` is False, structure) with jaxtyped and with JAX."""
    assert_same(program(*LIBS["jt"]), program(*LIBS["jax"]), weak=weak)


def div(r: Any, x: Any) -> Any:
    return x / r


def seven(r: Any, ct: Any) -> Any:
    """A "transpose" that is not the true one: the result shows it was used."""
    return 7.0 * ct


def matvec(a: Any, x: Any) -> Any:
    return a @ x


def wrong_vecmat(a: Any, ct: Any) -> Any:
    """Twice the true transpose of ``matvec``."""
    return 2.0 * (ct @ a)


def transpose_of(T: Any, f: Callable[[Any], Any], example: Any) -> Callable[[Any], Any]:
    """``f``'s transpose as a function of one value (the docstring's helper)."""
    return lambda y: T.linear_transpose(f, example)(y)[0]


def jacobian_by_rows(f: Callable[[Any], Any], x: Any) -> Any:
    """JAX's reverse-mode Jacobian without vmap (JAX cannot batch
    linear_call): one vjp per output."""
    y, pullback = jx.vjp(f, x)
    return jxnp.stack([pullback(e)[0] for e in jxnp.eye(y.size, dtype=y.dtype)])


def jacobian_by_columns(f: Callable[[Any], Any], x: Any) -> Any:
    """JAX's forward-mode Jacobian without vmap: one jvp per input."""
    cols = [jx.jvp(f, (x,), (e,))[1] for e in jxnp.eye(x.size, dtype=x.dtype)]
    return jxnp.stack(cols, axis=-1)


def custom_id(lc: Any) -> Callable[[Any], Any]:
    return fn1(lambda x: lc(fn2(lambda _, x: x), fn2(lambda _, t: 7.0), (), x))


# === values ===


def test_values() -> None:
    both(lambda T, N, lc: lc(div, seven, 3.0, 9.0))
    both(lambda T, N, lc: lc(matvec, wrong_vecmat, N.asarray(A), N.asarray(X)))
    both(lambda T, N, lc: T.jit(fn1(lambda x: x + lc(div, seven, 3.0, x)))(9.0))


def test_pytrees() -> None:
    def fun(res: Any, lin: Any) -> Any:
        x, (y,) = lin
        return {"u": res["a"] @ x, "v": y * res["s"]}

    def fun_t(res: Any, ct: Any) -> Any:
        return (ct["u"] @ res["a"], (ct["v"] * res["s"],))

    def program(T: Any, N: Any, lc: Any) -> Any:
        res = {"a": N.asarray(A), "s": 2.0}

        def f(x: Any, y: Any) -> Any:
            return lc(fun, fun_t, res, (x, [y]))

        out = f(N.asarray(X), N.asarray(Y))
        return out, T.vjp(f, N.asarray(X), N.asarray(Y))[1]({"u": N.ones(2), "v": N.ones(2)})

    # JAX's lists and tuples differ in the linear arguments' structure, as
    # the transpose's: checked separately below.
    with pytest.raises(JaxtypedTypeError):
        program(*LIBS["jt"])
    with pytest.raises(TypeError):
        program(*LIBS["jax"])

    def fun_t_list(res: Any, ct: Any) -> Any:
        return (ct["u"] @ res["a"], [ct["v"] * res["s"]])

    def program_list(T: Any, N: Any, lc: Any) -> Any:
        res = {"a": N.asarray(A), "s": 2.0}

        def f(x: Any, y: Any) -> Any:
            return lc(fun, fun_t_list, res, (x, [y]))

        out = f(N.asarray(X), N.asarray(Y))
        return out, T.vjp(f, N.asarray(X), N.asarray(Y))[1]({"u": N.ones(2), "v": N.ones(2)})

    both(program_list)


# === reverse mode uses the given transpose ===


def test_linear_transpose_uses_the_transpose() -> None:
    """JAX's docstring examples: the custom transpose, and transposing the
    transpose gives the function back. (jaxtyped's linear_transpose drops
    weak types that JAX's keeps, with or without linear_call.)"""

    def div_add(lc: Any) -> Callable[[Any, Any], Any]:
        return fn2(lambda x, denom: x + lc(div, fn2(lambda r, t: t / r), denom, x))

    both(lambda T, N, lc: transpose_of(T, fn1(lambda x: div_add(lc)(x, 3.0)), 1.0)(18.0), weak=False)
    both(lambda T, N, lc: transpose_of(T, custom_id(lc), 1.0)(1.0), weak=False)
    both(lambda T, N, lc: transpose_of(T, transpose_of(T, custom_id(lc), 1.0), 1.0)(1.0), weak=False)
    both(lambda T, N, lc: transpose_of(T, transpose_of(T, transpose_of(T, custom_id(lc), 1.0), 1.0), 1.0)(1.0), weak=False)
    assert float(transpose_of(jt, custom_id(linear_call), 1.0)(1.0)) == 7.0


def test_vjp_and_grad_use_the_transpose() -> None:
    def f(lc: Any, N: Any) -> Callable[[Any], Any]:
        return lambda x: lc(matvec, wrong_vecmat, N.asarray(A), x)

    both(lambda T, N, lc: T.vjp(f(lc, N), N.asarray(X))[1](N.asarray(Y)))
    both(lambda T, N, lc: T.grad(fn1(lambda x: f(lc, N)(x).sum()))(N.asarray(X)))
    assert_same(jt.jacrev(f(linear_call, jnp))(X), jacobian_by_rows(f(jax_linear_call, jxnp), X))
    both(lambda T, N, lc: T.grad(fn1(lambda x: lc(div, seven, 3.0, x)))(2.0))
    twice_true = 2.0 * (Y @ A)
    np.testing.assert_allclose(np.asarray(jt.vjp(f(linear_call, jnp), jnp.asarray(X))[1](jnp.asarray(Y))[0]), twice_true)


def test_grad_of_grad() -> None:
    """The transpose's transpose is the function again."""
    both(lambda T, N, lc: T.grad(T.grad(fn1(lambda x: lc(div, seven, 3.0, x) ** 2)))(2.0))

    def squares(lc: Any) -> Callable[[Any], Any]:
        return lambda x: (lc(matvec, wrong_vecmat, A, x) ** 2).sum()

    assert_same(jt.hessian(squares(linear_call))(X), jacobian_by_rows(jx.grad(squares(jax_linear_call)), X))

    def sines(lc: Any, T: Any) -> F1:
        return fn1(lambda x: T.grad(fn1(lambda x: lc(matvec, wrong_vecmat, A, T.numpy.sin(x)).sum()))(x))

    assert_same(jt.jacfwd(sines(linear_call, jt))(X), jacobian_by_columns(sines(jax_linear_call, jx), X))


def test_jvp_applies_the_function_to_tangents() -> None:
    both(lambda T, N, lc: T.jvp(fn1(lambda x: lc(matvec, wrong_vecmat, N.asarray(A), x)), (N.asarray(X),), (N.ones(3),)))
    both(lambda T, N, lc: T.linearize(fn1(lambda x: lc(div, seven, 4.0, x * x)), 3.0)[1](1.0))
    assert_same(
        jt.jacfwd(lambda x: linear_call(matvec, wrong_vecmat, A, x))(X),
        jacobian_by_columns(lambda x: jax_linear_call(matvec, wrong_vecmat, A, x), X),
    )


def test_residuals_are_not_differentiable() -> None:
    """JAX fails an assertion; jaxtyped names the residual."""
    raises_as_jax(lambda T: T.grad(fn1(lambda r: lc_of(T)(div, seven, r, 2.0)))(3.0))
    with pytest.raises(JaxtypedTypeError, match=r"linear_call of div: residual operand 0 \(f32\[\]\)"):
        jt.jvp(lambda r: linear_call(div, seven, r, 2.0), (3.0,), (1.0,))
    with pytest.raises(UnexpectedTracerError, match="closes over"):
        jt.grad(lambda s: linear_call(lambda r, x: x * s, seven, (), 2.0))(3.0)
    # A residual under stop_gradient is fine.
    both(lambda T, N, lc: T.grad(fn1(lambda r: lc(div, seven, T.lax.stop_gradient(r), r)))(3.0))


def test_check_grads_float64(x64: None) -> None:
    """With the true transpose, derivatives to second order in both modes
    agree with finite differences in float64, at 0 too."""
    a = jnp.asarray(A.astype(np.float64))

    def f(x: Any) -> Any:
        return jnp.tanh(linear_call(matvec, lambda a, ct: ct @ a, a, jnp.sin(x)))

    for point in (X.astype(np.float64), np.zeros(3)):
        check_grads(f, (jnp.asarray(point),), order=2, modes=("fwd", "rev"))


# === vmap (JAX has none: compared with JAX's results one example at a time) ===

BATCH_X = np.stack([X, 2 * X, -X, X + 1])
BATCH_A = np.stack([A, A * 0.5, -A, A + 1])


def looped(fn: Callable[..., Any], *batched: Any) -> Any:
    """JAX's ``fn`` applied example by example, stacked."""
    outs = [fn(*(None if b is None else b[i] for b in batched)) for i in range(4)]
    return jx.tree_util.tree_map(lambda *xs: jxnp.stack(xs), *outs)  # pyright: ignore[reportUnknownLambdaType]  # JAX's leaves are Any


@pytest.mark.parametrize("batched", ["residual", "linear", "both"])
def test_vmap(batched: str) -> None:
    res_b = BATCH_A if batched in ("residual", "both") else None
    lin_b = BATCH_X if batched in ("linear", "both") else None

    def program(T: Any, N: Any, lc: Any) -> Callable[..., Any]:
        def one(a: Any, x: Any) -> Any:
            a = N.asarray(A) if a is None else a
            x = N.asarray(X) if x is None else x
            value = lc(matvec, wrong_vecmat, a, x)
            grad = T.grad(fn1(lambda x: lc(matvec, wrong_vecmat, a, x).sum()))(x)
            return value, grad

        return one

    in_axes = (None if res_b is None else 0, None if lin_b is None else 0)
    ours = jt.vmap(program(*LIBS["jt"]), in_axes=in_axes)(res_b, lin_b)
    assert_same(ours, looped(program(*LIBS["jax"]), res_b, lin_b))


def test_grad_of_vmap() -> None:
    """A batched residual with an unbatched linear argument: the cotangent
    of the linear argument sums the examples'."""

    def program(T: Any, lc: Any, vmapped: bool) -> Any:
        def f(x: Any) -> Any:
            if vmapped:
                return T.vmap(fn1(lambda a: lc(matvec, wrong_vecmat, a, x)))(BATCH_A).sum()
            return sum(lc(matvec, wrong_vecmat, BATCH_A[i], x).sum() for i in range(4))

        return T.grad(f)(X)

    assert_same(program(jt, linear_call, True), program(jx, jax_linear_call, False))


def test_vmap_of_a_transpose_closing_over_a_batched_value() -> None:
    def program(T: Any, lc: Any, s: Any) -> Any:
        return T.grad(fn1(lambda x: lc(div, fn2(lambda r, ct: ct * s), 3.0, x)))(2.0)

    ours = jt.vmap(fn1(lambda s: program(jt, linear_call, s)))(jnp.arange(4.0))
    assert_same(ours, looped(fn1(lambda s: program(jx, jax_linear_call, s)), np.arange(4.0, dtype=np.float32)))


# === control flow and jit ===


def test_scan_and_cond_around_it() -> None:
    def scanned(T: Any, N: Any, lc: Any) -> Any:
        def f(x: Any) -> Any:
            def body(c: Any, _: Any) -> Any:
                return lc(div, seven, 3.0, c), c

            return T.lax.scan(body, x, None, length=3)

        return f(2.0), T.grad(fn1(lambda x: f(x)[0]))(2.0), [T.grad(fn1(lambda x: f(x)[1].sum()))(x) for x in (0.0, 1.0, 2.0)]

    def branched(T: Any, N: Any, lc: Any) -> Any:
        def f(p: Any, x: Any) -> Any:
            return T.lax.cond(p, fn1(lambda x: lc(div, seven, 3.0, x)), fn1(lambda x: 2.0 * x), x)

        return [T.grad(f, argnums=1)(p, 2.0) for p in (True, False)], T.jit(T.grad(f, argnums=1))(True, 2.0)

    both(scanned)
    both(branched)


def test_jit() -> None:
    both(lambda T, N, lc: T.jit(T.grad(fn1(lambda x: lc(matvec, wrong_vecmat, N.asarray(A), x).sum())))(N.asarray(X)))
    both(lambda T, N, lc: T.jit(fn2(lambda a, x: lc(matvec, wrong_vecmat, a, x)))(N.asarray(A), N.asarray(X)))
    text = jt.jit(fn1(lambda x: linear_call(div, seven, 3.0, x))).lower(2.0).as_text()
    assert "stablehlo.divide" in text and "call" not in text.replace("func.func", "")


# === jaxprs ===


def normalized(text: str) -> str:
    """JAX's printed thunk (``<function ... at 0x...>``) and ours (the
    transpose function's name) are the one difference."""
    lines = [line for line in text.splitlines() if "transpose_thunk=" not in line]
    return "\n".join(lines)


@pytest.mark.parametrize(
    "case",
    ["call", "transposed", "consts"],
)
def test_make_jaxpr_matches_jax(case: str) -> None:
    def build(T: Any, N: Any, lc: Any) -> tuple[Callable[..., Any], tuple[object, ...]]:
        if case == "call":
            return fn2(lambda x, d: x + lc(div, fn2(lambda r, t: t / r), d, x)), (9.0, 3.0)
        if case == "transposed":
            return T.linear_transpose(fn1(lambda x: lc(div, seven, np.float32(3.0), x)), np.float32(1.0)), (np.float32(1.0),)
        c = N.asarray(Y)
        return fn1(lambda x: lc(fn2(lambda _, x: c * x), fn2(lambda _, ct: 2.0 * ct), (), x)), (Y,)

    ours_fn, args = build(*LIBS["jt"])
    theirs_fn, _ = build(*LIBS["jax"])
    ours = str(jt.make_jaxpr(ours_fn)(*args))
    assert "linear_call[" in ours and "transpose_thunk=" in ours
    assert normalized(ours) == normalized(str(jx.make_jaxpr(theirs_fn)(*args)))


def test_printed_transpose_name_and_consts() -> None:
    """The transpose's closed-over values are operands too (JAX keeps them
    in its thunk), counted by ``num_transpose_consts``."""
    text = str(jt.make_jaxpr(fn1(lambda x: linear_call(div, seven, 3.0, x)))(1.0))
    assert "transpose_thunk=seven" in text and "num_transpose_consts" not in text
    c = jnp.asarray(Y)
    text = str(jt.make_jaxpr(fn1(lambda x: linear_call(fn2(lambda _, x: x), fn2(lambda _, ct: c * ct), (), x)))(Y))
    assert "num_transpose_consts=1" in text and "] a b\n" in text
    transposed = str(jt.make_jaxpr(jt.linear_transpose(fn1(lambda x: linear_call(div, seven, 3.0, x)), 1.0))(1.0))
    assert "transpose_thunk=div" in transposed and "mul 7.0" in transposed


# === errors ===


def test_transpose_of_the_wrong_structure() -> None:
    raises_as_jax(
        lambda T: T.linear_transpose(
            fn1(lambda x: lc_of(T)(fn2(lambda r, x: x), fn2(lambda r, c: (c, c)), (), x)), np.ones(3, np.float32)
        )(np.ones(3, np.float32))
    )
    with pytest.raises(JaxtypedTypeError, match=r"linear_call: the transpose function .*<lambda>.* structure PyTreeDef\(\*\), but returned PyTreeDef\(\(\*, \*\)\)"):
        linear_call(lambda r, x: x, lambda r, c: (c, c), (), jnp.ones(3))


def test_transpose_of_the_wrong_shape() -> None:
    raises_as_jax(
        lambda T: T.linear_transpose(
            fn1(lambda x: lc_of(T)(fn2(lambda r, x: x.sum()), fn2(lambda r, c: c), (), x)), np.ones(3, np.float32)
        )(np.float32(1.0))
    )
    with pytest.raises(JaxtypedValueError, match=r"transpose function .* returned f32\[\] at output, but the linear argument linear_args .* is f32\[3\]"):
        linear_call(lambda r, x: x.sum(), lambda r, c: c, (), jnp.ones(3))


def test_transpose_of_the_wrong_dtype() -> None:
    """JAX lets the cotangent change dtype; jaxtyped names the mismatch. A
    Python scalar takes the linear argument's dtype."""
    with pytest.raises(JaxtypedValueError, match=r"returned f16\[3\] at output\[1\], but the linear argument linear_args\[1\] .* is f32\[3\]"):
        linear_call(lambda r, x: x[0] + x[1], lambda r, c: (c, c.astype(jnp.float16)), (), (jnp.ones(3), jnp.ones(3)))
    half = jnp.ones((), jnp.float16)
    ct = jt.linear_transpose(fn1(lambda x: linear_call(fn2(lambda r, x: x), fn2(lambda r, c: 7.0), (), x)), half)(half)[0]
    assert ct.dtype == jnp.float16 and float(ct) == 7.0


def test_non_array_arguments() -> None:
    with pytest.raises(JaxtypedTypeError, match=r"linear_call of .*residual_args\['r'\]"):
        linear_call(div, seven, {"r": "three"}, 1.0)
