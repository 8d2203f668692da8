"""Types for annotating code that uses jaxtyped (JEP 12049).

Inputs are typed loosely, outputs strictly: annotate parameters with
``ArrayLike``/``DTypeLike``/``ShapeLike`` and results with ``Array``/
``DType``/``Shape``.

- ``Array``: the one array type; concrete arrays and every array tracer are
  instances of it (``isinstance`` and ``functools.singledispatch`` work).
- ``ArrayLike``: what is accepted where an array is expected (arrays, NumPy
  arrays and scalars, Python numbers).
- ``ScalarLike``: a Python or NumPy scalar.
- ``DType`` / ``DTypeLike``: a NumPy dtype as returned / anything accepted as one.
- ``Shape`` / ``ShapeLike`` / ``DimSize``: a shape as returned / accepted,
  and one dimension as accepted.
- ``KeyArray``: a typed PRNG key array (dtype ``key<fry>``), a subclass of
  ``Array``; ``KeyArrayLike``: a typed key or a legacy ``uint32[..., 2]`` key.
- ``PyTree``: nested tuples, lists and dicts of array-like leaves (or None).
- ``Gradient`` (``GradientWithAux``, ``GradientOfSecond``, ``GradientOfPair``
  and their ``WithAux`` forms) and ``ValueAndGradient`` (the same forms): what
  ``grad`` and ``value_and_grad`` return for a literal ``argnums`` 0, 1 or
  ``(0, 1)``. Calling one types the gradient from the differentiated
  parameter's type: ``Array`` for array-like ones, the parameter's own type
  (a dict of parameters, a NamedTuple) otherwise, ``Any`` for an
  unannotated one. Each is also a ``Callable`` with the parameters of the
  function it differentiates. Static types only: at run time ``grad``
  returns a plain function. ``Hessian`` (with the same forms, and
  ``HessianMaybeWithAux`` for a run-time ``has_aux``) likewise for
  ``hessian``: ``Array`` for array-like parameters, ``PyTree`` otherwise;
  ``Jacobian`` (the same forms) for ``jacfwd`` and ``jacrev``: the output's
  type for an array-like parameter, the parameter's type for an array-like
  output, ``PyTree`` otherwise.
- ``JaxprMaker``: what ``make_jaxpr(fun)`` returns, called with ``fun``'s
  arguments or with ``ShapeDtypeStruct`` stand-ins for arrays (a static
  type only, as the derivative classes are).
- Shape-and-dtype annotations: ``Float[Array, "batch n"]`` (also ``Shaped``,
  ``Bool``, ``Num``, ``Inexact``, ``Complex``, ``Integer``, ``Int``, ``UInt``
  and exact dtypes such as ``Float32``). Type checkers see ``Array``;
  ``jit`` checks them when it traces, and :func:`typechecked` at every call
  in debug mode. Dimensions: ``n`` named, ``3`` fixed, ``_`` any,
  ``...`` any number, ``*batch`` a named run; ``""`` a scalar.

Example:
    >>> from jaxtyped.typing import Array, ArrayLike
    >>> import jaxtyped.numpy as jnp
    >>> def double(x: ArrayLike) -> Array:
    ...     return jnp.asarray(x) * 2
    >>> double(3.0)
    Array(6., dtype=float32, weak_type=True)
"""

from typing import Any

import numpy as np

from jaxtyped._src.api import JaxprMaker as JaxprMaker
from jaxtyped._src.ad_gradient_types import (
    Gradient,
    GradientOfPair,
    GradientOfPairWithAux,
    GradientOfSecond,
    GradientOfSecondWithAux,
    GradientWithAux,
    Hessian,
    HessianMaybeWithAux,
    HessianOfPair,
    HessianOfPairWithAux,
    HessianOfSecond,
    HessianOfSecondWithAux,
    HessianWithAux,
    Jacobian,
    JacobianMaybeWithAux,
    JacobianOfPair,
    JacobianOfPairWithAux,
    JacobianOfSecond,
    JacobianOfSecondWithAux,
    JacobianWithAux,
    ValueAndGradient,
    ValueAndGradientOfPair,
    ValueAndGradientOfPairWithAux,
    ValueAndGradientOfSecond,
    ValueAndGradientOfSecondWithAux,
    ValueAndGradientWithAux,
)
from jaxtyped._src.core.array import Array, ArrayLike, DimSize, PyTree, ScalarLike, ShapeLike
from jaxtyped._src.core.shape_annotations import (
    BFloat16,
    Bool,
    Complex,
    Complex64,
    Complex128,
    Float,
    Float16,
    Float32,
    Float64,
    Inexact,
    Int,
    Int8,
    Int16,
    Int32,
    Int64,
    Integer,
    Num,
    Shaped,
    UInt,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    typechecked,
)
from jaxtyped._src.dtypes import DTypeLike

# A dtype as jaxtyped returns it.
DType = np.dtype[Any]
# A shape as jaxtyped returns it.
Shape = tuple[int, ...]
# random family (issue 15): typed PRNG keys are a distinct Array subclass
# (dtype ``key<fry>``); ``KeyArrayLike`` also admits legacy uint32[..., 2] keys.
from jaxtyped._src.random.keys import KeyArray as KeyArray, KeyArrayLike as KeyArrayLike  # noqa: E402

__all__ = [
    "Array",
    "ArrayLike",
    "BFloat16",
    "Bool",
    "Complex",
    "Complex64",
    "Complex128",
    "DType",
    "DTypeLike",
    "DimSize",
    "Float",
    "Float16",
    "Float32",
    "Float64",
    "Gradient",
    "GradientOfPair",
    "GradientOfPairWithAux",
    "GradientOfSecond",
    "GradientOfSecondWithAux",
    "GradientWithAux",
    "Hessian",
    "HessianMaybeWithAux",
    "HessianOfPair",
    "HessianOfPairWithAux",
    "HessianOfSecond",
    "HessianOfSecondWithAux",
    "HessianWithAux",
    "Jacobian",
    "JacobianMaybeWithAux",
    "JacobianOfPair",
    "JacobianOfPairWithAux",
    "JacobianOfSecond",
    "JacobianOfSecondWithAux",
    "JacobianWithAux",
    "JaxprMaker",
    "Inexact",
    "Int",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "Integer",
    "KeyArray",
    "KeyArrayLike",
    "Num",
    "PyTree",
    "ScalarLike",
    "Shape",
    "ShapeLike",
    "Shaped",
    "UInt",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt64",
    "ValueAndGradient",
    "ValueAndGradientOfPair",
    "ValueAndGradientOfPairWithAux",
    "ValueAndGradientOfSecond",
    "ValueAndGradientOfSecondWithAux",
    "ValueAndGradientWithAux",
    "typechecked",
]
