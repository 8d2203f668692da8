"""``jaxtyped.image`` (``resize``, ``scale_and_translate``, ``ResizeMethod``)
against ``jax.image``.

Cases are written once against a pair of namespaces and run through the
shared oracle (all of JAX's results from one ``jax.jit``): values, dtypes,
weak types and shapes for every method and alias, with and without
antialiasing, up- and downsampling of 1-d, 2-d, 3-d and batched images
(dimensions whose size does not change are left alone), integer, boolean,
half-precision and complex images, ``scale_and_translate`` with array
scales and translations (samples off the image included), ``jit``,
``vmap`` and ``grad`` (with respect to the image, and to the scale and
translation), a float64 table under x64, and the kind of error JAX raises
on bad input. The float64 derivatives are also checked against finite
differences.

Compile time: the inputs share a few shapes, our side runs eagerly (the
weights are computed on the host) and only the ``jit-`` cases compile.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors
from jaxtyped import image as jt_image
from jaxtyped.test_util import check_grads

from oracle import Case, CaseTable, Group, Namespace, Raised, debug_violations, host, jax, library

RNG = np.random.default_rng(7)


def normal(*shape: int) -> np.ndarray[Any, Any]:
    return RNG.normal(size=shape).astype(np.float32)


METHODS = ("nearest", "linear", "cubic", "lanczos3", "lanczos5", "area", "cubic-pytorch")
ALIASES = ("bilinear", "trilinear", "triangle", "bicubic", "tricubic", "bicubic-pytorch")


def image_of(L: Namespace) -> Any:
    """The library's ``image`` module for the numpy namespace ``L``."""
    return jt_image if L is jnp else jax.image


IMAGE_1D, IMAGE_2D, IMAGE_NHWC, IMAGE_3D = normal(7), normal(5, 6), normal(2, 5, 6, 3), normal(4, 5, 3)
# (id, input, output shape, methods and antialias flags): every method
# upsampling a 1-d image and downsampling a 2-d one with and without
# antialiasing; a batched NHWC image (batch and channels left alone) and a
# 3-d image resized up and down, a few methods each (the JAX side compiles
# every case into one program: its compile time is the file's).
CONFIGS: tuple[tuple[str, np.ndarray[Any, Any], tuple[int, ...], tuple[tuple[str, bool], ...]], ...] = (
    ("up1d", IMAGE_1D, (12,), tuple((m, True) for m in METHODS)),
    ("down2d", IMAGE_2D, (3, 4), tuple((m, aa) for m in METHODS for aa in (True, False))),
    ("batched", IMAGE_NHWC, (2, 8, 4, 3), (("nearest", True), ("linear", True), ("lanczos3", False), ("cubic-pytorch", False))),
    ("mixed3d", IMAGE_3D, (6, 3, 5), (("area", True), ("cubic", True), ("lanczos5", False), ("cubic-pytorch", True))),
)


def resize(x: Any, shape: Any, method: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
    """``image.resize(x, shape, method, **kwargs)`` in the library of ``L``."""
    return lambda L: image_of(L).resize(L.asarray(x) if isinstance(x, np.ndarray) else x, shape, method, **kwargs)


def sat(x: Any, shape: Any, dims: Any, scale: Any, translation: Any, method: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
    """``image.scale_and_translate`` in the library of ``L`` (NumPy arrays converted)."""

    def fn(L: Namespace) -> Any:
        def conv(v: Any) -> Any:
            return L.asarray(v) if isinstance(v, np.ndarray) else v

        return image_of(L).scale_and_translate(conv(x), shape, dims, conv(scale), conv(translation), method, **kwargs)

    return fn


def transformed(transform: str, x: np.ndarray[Any, Any], shape: tuple[int, ...], method: str) -> Callable[[Namespace], Any]:
    """``resize(x, shape, method)`` under the library's ``jit`` or ``vmap`` (over ``x``'s first axis)."""

    def fn(L: Namespace) -> Any:
        def one(a: Any) -> Any:
            return image_of(L).resize(a, shape, method)

        return getattr(library(L).api, transform)(one)(L.asarray(x))

    return fn


def tight(case_id: str, fn: Callable[[Namespace], Any]) -> Case:
    return Case(case_id, fn, rtol=1e-5, atol=1e-5)


# === the float32 table ===


def _value_cases() -> list[Case]:
    cases: list[Case] = []
    for name, x, shape, runs in CONFIGS:
        for method, antialias in runs:
            cases.append(tight(f"values-{method}-{name}-{antialias}", resize(x, shape, method, antialias=antialias)))
    cases += [tight(f"aliases-{alias}", resize(IMAGE_2D, (3, 4), alias)) for alias in ALIASES]
    cases.append(tight("aliases-enum", lambda L: image_of(L).resize(L.asarray(IMAGE_2D), (3, 4), image_of(L).ResizeMethod.LANCZOS3)))
    # Output centres exactly on a pixel boundary: JAX's float32 rounding picks the pixel.
    ties = ((2, 61), (4, 41), (6, 61), (10, 25), (14, 49), (3, 12), (40, 7))
    for n_in, n_out in ties:
        cases.append(Case(f"nearestties-{n_in}-{n_out}", resize(np.arange(n_in, dtype=np.int32), (n_out,), "nearest"), 0, 0))
    cases += [
        tight("shapes-int", resize(IMAGE_1D, 12, "linear")),
        tight("shapes-ndarray", resize(IMAGE_2D, np.array([3, 4]), "cubic")),
        tight("shapes-unchanged", resize(IMAGE_2D, (5, 6), "lanczos3")),
        tight("shapes-empty", resize(IMAGE_2D, (0, 4), "linear")),
        tight("shapes-empty-nearest", resize(IMAGE_2D, (5, 0), "nearest")),
        tight("shapes-precision", resize(IMAGE_2D, (3, 4), "linear", precision="default")),
        tight("shapes-precision-none", resize(IMAGE_2D, (3, 4), "linear", precision=None)),
    ]
    return cases


def _dtype_cases() -> list[Case]:
    ints = RNG.integers(-50, 100, size=(5, 6))
    cases: list[Case] = []
    for dtype in ("int8", "uint8", "int32", "bool", "float16", "bfloat16", "complex64"):
        values = host(dtype, ints if dtype != "complex64" else ints + 1j * ints[::-1])
        if dtype == "bool":
            values = host(dtype, ints > 20)
        for method in ("nearest", "linear"):
            # Half-precision products round at each step (values up to 100).
            rtol, atol = (2e-2, 1.0) if dtype in ("float16", "bfloat16") else (1e-5, 1e-4)
            cases.append(Case(f"dtypes-{dtype}-{method}", resize(values, (3, 8), method), rtol=rtol, atol=atol))

    def weak(L: Namespace) -> Any:
        return library(L).lax.broadcast(2.0, (3, 4))

    def weak_int(L: Namespace) -> Any:
        return library(L).lax.broadcast(2, (3, 4))

    def weak_case(method: str, shape: tuple[int, int]) -> Callable[[Namespace], Any]:
        return lambda L: image_of(L).resize(weak(L), shape, method)

    for method, shape in (("nearest", (5, 4)), ("linear", (5, 4)), ("linear", (3, 4))):
        cases.append(tight(f"dtypes-weak-{method}-{shape[0]}", weak_case(method, shape)))
    cases.append(tight("dtypes-weakint-unchanged", lambda L: image_of(L).resize(weak_int(L), (3, 4), "linear")))
    cases.append(tight("dtypes-int-unchanged", resize(ints.astype(np.int32), (5, 6), "cubic")))
    return cases


def _sat_cases() -> list[Case]:
    cases: list[Case] = []
    scale, translation = np.array([1.6, 0.55], np.float32), np.array([0.4, -0.9], np.float32)
    # One dimension up, one down: antialiasing matters.
    for method, antialias in (*(("linear", aa) for aa in (True, False)), *(("cubic-pytorch", aa) for aa in (True, False)),
                              ("cubic", False), ("lanczos3", True), ("lanczos5", False), ("area", True)):  # fmt: skip
        cases.append(tight(f"sat-{method}-{antialias}",
                           sat(IMAGE_NHWC, (2, 7, 4, 3), (1, 2), scale, translation, method, antialias=antialias)))  # fmt: skip
    # Translations that move samples off the image (zeros there; PyTorch's
    # cubic without antialiasing reads copies of the edge instead).
    for method in ("linear", "area", "cubic-pytorch"):
        cases.append(tight(f"sat-off-{method}", sat(IMAGE_1D, (9,), (0,), np.array([1.1], np.float32),
                                                    np.array([-4.3], np.float32), method, antialias=False)))  # fmt: skip
    ones = np.ones(1, np.float32)
    cases += [
        tight("sat-negative-dim", sat(IMAGE_2D, (5, 9), (-1,), np.array([1.5], np.float32), np.array([0.2], np.float32), "cubic")),
        tight("sat-int-scale", sat(IMAGE_2D, (5, 9), (1,), np.array([2], np.int32), np.array([1], np.int32), "linear")),
        tight("sat-half-translation", sat(IMAGE_2D, (5, 9), (1,), np.array([2], np.int32), np.array([0.5], np.float16), "linear")),
        tight("sat-int-image", sat(RNG.integers(0, 9, size=(5, 6)).astype(np.uint8), (5, 9), (1,), ones * 1.5, ones * 0, "lanczos3")),
        tight("sat-column-scale", sat(IMAGE_2D, (7, 6), (0,), np.array([[1.5]], np.float32), np.zeros(1, np.float32), "linear")),
        tight("sat-zero-scale", sat(IMAGE_2D, (7, 6), (0,), np.zeros(1, np.float32), np.zeros(1, np.float32), "linear")),
        tight("sat-other-sizes-ignored", sat(IMAGE_2D, (7, 99), (0,), ones * 1.5, ones * 0, "linear")),
        tight("sat-empty-input", sat(np.zeros((0, 3), np.float32), (4, 3), (0,), ones, ones * 0, "linear")),
        tight("sat-no-dims", sat(IMAGE_2D, (5, 6), (), np.zeros(0, np.float32), np.zeros(0, np.float32), "linear")),
    ]
    return cases


def _transform_cases() -> list[Case]:
    cases: list[Case] = []
    weights_2d = normal(2, 7, 4, 3)
    scale, translation = np.array([1.6, 0.55], np.float32), np.array([0.4, -0.9], np.float32)
    # The weights are constants here: the kernels' code paths are covered by gradsat.
    for method in ("nearest", "linear", "lanczos5", "cubic-pytorch"):
        def grad_image(L: Namespace, m: str = method) -> Any:
            def loss(a: Any) -> Any:
                return L.sum(image_of(L).resize(a, (2, 7, 4, 3), m) * L.asarray(weights_2d))

            return library(L).api.grad(loss)(L.asarray(IMAGE_NHWC))

        cases.append(Case(f"grad-{method}", grad_image, rtol=1e-4, atol=1e-5))
        cases.append(tight(f"vmap-{method}", transformed("vmap", IMAGE_NHWC, (7, 4, 3), method)))
    # Each kernel's code once (LANCZOS5 is LANCZOS3's with another radius).
    for method, antialias in (("linear", False), ("cubic", True), ("lanczos3", True), ("area", True), ("cubic-pytorch", False)):
        def grad_all(L: Namespace, m: str = method, aa: bool = antialias) -> Any:
            def loss(a: Any, s: Any, t: Any) -> Any:
                out = image_of(L).scale_and_translate(a, (2, 7, 4, 3), (1, 2), s, t, m, antialias=aa)
                return L.sum(out * L.asarray(weights_2d))

            grad = library(L).api.grad(loss, argnums=(0, 1, 2))
            return grad(L.asarray(IMAGE_NHWC), L.asarray(scale), L.asarray(translation))

        cases.append(Case(f"gradsat-{method}-{antialias}", grad_all, rtol=1e-4, atol=1e-4))
    # One compiled program per library for the jit cases.
    for method in ("nearest", "lanczos3", "cubic-pytorch"):
        cases.append(tight(f"jit-{method}", transformed("jit", IMAGE_NHWC, (2, 3, 8, 3), method)))

    def jit_grad_sat(L: Namespace) -> Any:
        def loss(s: Any, t: Any) -> Any:
            out = image_of(L).scale_and_translate(L.asarray(IMAGE_NHWC), (2, 7, 4, 3), (1, 2), s, t, "cubic")
            return L.sum(out * L.asarray(weights_2d))

        return library(L).api.jit(library(L).api.grad(loss, argnums=(0, 1)))(L.asarray(scale), L.asarray(translation))

    cases.append(Case("jit-grad-sat", jit_grad_sat, rtol=1e-4, atol=1e-4))
    scales = np.stack([scale, scale * 1.3, scale * 0.7])

    def vmap_scale(L: Namespace) -> Any:
        def one(s: Any) -> Any:
            return image_of(L).scale_and_translate(L.asarray(IMAGE_NHWC), (2, 7, 4, 3), (1, 2), s, L.asarray(translation), "linear")

        return library(L).api.vmap(one)(L.asarray(scales))

    cases.append(tight("vmap-scale", vmap_scale))
    return cases


def _error_cases() -> list[Case]:
    x, one = IMAGE_2D, np.ones(1, np.float32)
    return [
        Case("errors-shape-rank", resize(x, (5,), "linear")),
        Case("errors-shape-rank-nearest", resize(x, (5, 6, 1), "nearest")),
        Case("errors-shape-float", resize(x, (5.0, 6), "linear")),
        Case("errors-method-name", resize(x, (3, 4), "bogus")),
        Case("errors-method-upper", resize(x, (3, 4), "LINEAR")),
        Case("errors-method-type", resize(x, (3, 4), 3)),
        Case("errors-precision", resize(x, (3, 4), "linear", precision="bogus")),
        Case("errors-sat-nearest", sat(x, (7, 6), (0,), one, one, "nearest")),
        Case("errors-sat-dim-range", sat(x, (7, 6), (2,), one, one, "linear")),
        Case("errors-sat-dim-negative-range", sat(x, (7, 6), (-3,), one, one, "linear")),
        Case("errors-sat-dims-int", sat(x, (7, 6), 0, one, one, "linear")),
        Case("errors-sat-scale-length", sat(x, (7, 6), (0,), np.ones(2, np.float32), one, "linear")),
        Case("errors-sat-translation-length", sat(x, (7, 6), (0, 1), np.ones(2, np.float32), one, "linear")),
        Case("errors-sat-scale-scalar", sat(x, (7, 6), (0,), np.float32(1.0), one, "linear")),
        Case("errors-sat-shape-rank", sat(x, (7,), (0,), one, one, "linear")),
        Case("errors-sat-method-name", sat(x, (7, 6), (0,), one, one, "cubic_pytorch")),
    ]


TABLE = CaseTable("image", lambda: [*_value_cases(), *_dtype_cases(), *_sat_cases(), *_transform_cases(), *_error_cases()])


@pytest.mark.parametrize("group", TABLE.params())
def test_image_matches_jax(group: Group) -> None:
    TABLE.check(group)


# === the float64 table ===


def _x64_cases() -> list[Case]:
    x = RNG.normal(size=(2, 5, 6, 3))
    weights = RNG.normal(size=(2, 7, 4, 3))
    scale, translation = np.array([1.6, 0.55]), np.array([0.4, -0.9])
    cases: list[Case] = []
    for method in METHODS:
        cases.append(Case(f"x64-{method}", resize(x, (2, 7, 4, 3), method), rtol=1e-12, atol=1e-12))
    for method in ("linear", "lanczos3", "cubic-pytorch"):
        def grad_all(L: Namespace, m: str = method) -> Any:
            def loss(a: Any, s: Any, t: Any) -> Any:
                out = image_of(L).scale_and_translate(a, (2, 7, 4, 3), (1, 2), s, t, m, antialias=m != "cubic-pytorch")
                return L.sum(out * L.asarray(weights))

            return library(L).api.grad(loss, argnums=(0, 1, 2))(L.asarray(x), L.asarray(scale), L.asarray(translation))

        cases.append(Case(f"x64grad-{method}", grad_all, rtol=1e-10, atol=1e-10))
    # 64-bit integers become float64; narrower ones float32 even under x64.
    cases.append(Case("x64dtypes-int64", resize(np.arange(12).reshape(3, 4), (5, 7), "linear"), rtol=1e-12, atol=1e-12))
    cases.append(Case("x64dtypes-int16", resize(np.arange(12, dtype=np.int16).reshape(3, 4), (5, 7), "linear")))
    # float32 scales compute float32 weights for a float64 image, and the other way round.
    cases.append(Case("x64dtypes-f32-scale", sat(x, (2, 7, 4, 3), (1, 2), scale.astype(np.float32),
                                                 translation.astype(np.float32), "cubic")))  # fmt: skip
    cases.append(Case("x64dtypes-f64-scale", sat(x.astype(np.float32), (2, 7, 4, 3), (1, 2), scale, translation, "cubic")))
    return cases


X64_TABLE = CaseTable("image-x64", _x64_cases, x64=True)


@pytest.mark.parametrize("group", X64_TABLE.params())
def test_float64_matches_jax(group: Group) -> None:
    X64_TABLE.check(group)


def test_only_the_error_cases_raise_in_jax() -> None:
    """The other cases are well formed: both libraries raising alike would
    pass them unnoticed."""
    for table in (TABLE, X64_TABLE):
        raised = {key for key, value in table.jax_results.items() if isinstance(value, Raised)}
        assert raised == {case.id for case in table.cases if case.id.startswith("errors-")}, raised


# === beyond the oracle ===


def test_resize_method_members_and_names_are_jax_s() -> None:
    ours = [(m.name, m.value) for m in jt_image.ResizeMethod]
    assert ours == [(m.name, m.value) for m in jax.image.ResizeMethod]
    for name in (*METHODS, *ALIASES):
        assert jt_image.ResizeMethod.from_string(name).name == jax.image.ResizeMethod.from_string(name).name
    with pytest.raises(errors.JaxtypedValueError, match=r'Unknown resize method "Linear"'):
        jt_image.ResizeMethod.from_string("Linear")


def test_gradients_match_finite_differences(x64: None) -> None:
    x = RNG.normal(size=(4, 5))
    scale, translation = np.array([1.3, 0.6]), np.array([0.35, -0.45])

    def by_image(a: jt.Array) -> jt.Array:
        return jt_image.resize(a, (6, 3), "lanczos3")

    def by_scale(s: jt.Array, t: jt.Array) -> jt.Array:
        return jt_image.scale_and_translate(x, (6, 3), (0, 1), s, t, "cubic")

    check_grads(by_image, (x,), order=2, modes=("fwd", "rev"))
    check_grads(by_scale, (scale, translation), order=1, modes=("fwd", "rev"))


def test_is_one_product_per_resized_dimension() -> None:
    """No primitive of its own: a batched NHWC resize is two dot_generals
    with constant weights (batch and channels left alone), nearest is gathers."""
    x = jnp.asarray(IMAGE_NHWC)

    def lanczos(a: jt.Array) -> jt.Array:
        return jt_image.resize(a, (2, 7, 4, 3), "lanczos3")

    def nearest(a: jt.Array) -> jt.Array:
        return jt_image.resize(a, (2, 7, 4, 3), "nearest")

    names = [eqn.primitive.name for eqn in jt.make_jaxpr(lanczos)(x).jaxpr.eqns]
    assert names.count("dot_general") == 2 and not {"sin", "div"} & set(names), names
    eqns = jt.make_jaxpr(nearest)(x).jaxpr.eqns
    assert [eqn.primitive.name for eqn in eqns] == ["gather", "gather"]


def test_errors_name_the_function_the_argument_and_the_shapes() -> None:
    x = jnp.ones((5, 6))
    with pytest.raises(errors.JaxtypedValueError, match=r"image\.resize: shape \(5,\) .*image f32\[5,6\] \(length 2\)"):
        jt_image.resize(x, (5,), "linear")
    with pytest.raises(errors.JaxtypedValueError, match=r'image\.resize: Unknown resize method "bogus"'):
        jt_image.resize(x, (3, 4), "bogus")
    # Under JAXTYPED_DEBUG=1 beartype reports the ill-typed call first.
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match=r"resize.*method.*3"):
        jt_image.resize(x, (3, 4), 3)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the wrong type on purpose
    with pytest.raises(errors.JaxtypedValueError, match=r"scale_and_translate spatial_dims \(image f32\[5,6\]\): axis 2"):
        jt_image.scale_and_translate(x, (7, 6), (2,), jnp.ones(1), jnp.zeros(1), "linear")
    with pytest.raises(errors.ShapeMismatchError, match=r"scale_and_translate: scale f32\[2\] .*shape \(1,\)"):
        jt_image.scale_and_translate(x, (7, 6), (0,), jnp.ones(2), jnp.zeros(1), "linear")
    with pytest.raises(errors.JaxtypedValueError, match=r"scale_and_translate: nearest"):
        jt_image.scale_and_translate(x, (7, 6), (0,), jnp.ones(1), jnp.zeros(1), "nearest")


def test_sizes_jax_does_not_check_are_errors() -> None:
    """Deliberate differences (docs/jax_compatibility.rst): JAX gives an
    empty result for a negative size, a ZeroDivisionError (a TypeError for
    nearest) for an empty dimension resized to a non-empty one, and a
    product of weights for a repeated spatial dimension."""
    x = jnp.ones((5, 6))
    with pytest.raises(errors.JaxtypedValueError, match=r"image\.resize: shape \(-1, 6\) has a negative size"):
        jt_image.resize(x, (-1, 6), "linear")
    with pytest.raises(errors.JaxtypedValueError, match=r"scale_and_translate: shape \(-7, 6\) has a negative size"):
        jt_image.scale_and_translate(x, (-7, 6), (0,), jnp.ones(1), jnp.zeros(1), "linear")
    with pytest.raises(errors.JaxtypedValueError, match=r"dimension 0 of image f32\[0,6\] is empty"):
        jt_image.resize(jnp.ones((0, 6)), (3, 6), "nearest")
    # JAX multiplies the weights of a repeated spatial dimension elementwise.
    with pytest.raises(errors.JaxtypedValueError, match=r"scale_and_translate spatial_dims \(image f32\[5,6\]\).*repeat"):
        jt_image.scale_and_translate(x, (8, 6), (0, -2), jnp.ones(2), jnp.zeros(2), "linear")
