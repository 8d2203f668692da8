"""JAX's helpers for registering differentiation and batching rules
(``ad.defjvp``, ``ad.deflinear``, ``batching.defvectorized``, ...), over
the registries of :mod:`jaxtyped._src.extend.primitive`."""

from collections.abc import Callable, Sequence

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import to_array
from jaxtyped._src.core.avals import BatchDim, UndefinedPrimal, Zero
from jaxtyped._src.core.primitive import LinearArg, Tangent
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.extend.primitive import JaxPrimitive, primitive_batchers, primitive_jvps, primitive_transposes
from jaxtyped._src.lax.arithmetic import add_tangents
from jaxtyped._src.lax.structural import bdim_to_front, instantiate

__all__ = [
    "defjvp",
    "defjvp2",
    "deflinear",
    "defvectorized",
    "defbroadcasting",
    "is_undefined_primal",
    "instantiate_zeros",
]

# ``rule(tangent, *primals, **params)``, or None for an operand the output
# does not depend on differentiably.
TangentRule = Callable[..., object] | None


def _single(prim: JaxPrimitive, helper: str) -> None:
    if prim.multiple_results:
        raise JaxtypedTypeError(f"{helper} needs a primitive with one result; '{prim.name}' has multiple_results=True")


def _as_tangent(value: object, prim: JaxPrimitive, out: Array) -> Tangent:
    if value is None or isinstance(value, Zero):
        return Zero(out.aval.to_tangent_aval())
    return to_array(value, f"jvp rule of {prim.name}")


def _sum_tangents(prim: JaxPrimitive, out: Array, contributions: list[object]) -> Tangent:
    total: Tangent = Zero(out.aval.to_tangent_aval())
    for c in contributions:
        total = add_tangents(total, _as_tangent(c, prim, out))
    return total


def _bind_one(prim: JaxPrimitive, args: Sequence[Array], params: dict[str, object]) -> Array:
    out = prim.bind(*args, **params)
    assert isinstance(out, Array)
    return out


def defjvp(prim: JaxPrimitive, *jvp_rules: TangentRule) -> None:
    """Register the jvp of ``prim`` as a sum of one term per operand:
    ``jvp_rules[i](tangent_i, *primals, **params)`` (``None``: the
    operand contributes nothing). Symbolic zero tangents are skipped."""
    _single(prim, "defjvp")

    def jvp(primals: Sequence[Array], tangents: Sequence[Tangent], **params: object) -> tuple[Array, Tangent]:
        out = _bind_one(prim, primals, params)
        terms = [
            rule(t, *primals, **params)
            for rule, t in zip(jvp_rules, tangents, strict=True)
            if rule is not None and not isinstance(t, Zero)
        ]
        return out, _sum_tangents(prim, out, terms)

    primitive_jvps[prim] = jvp


def defjvp2(prim: JaxPrimitive, *jvp_rules: TangentRule) -> None:
    """:func:`defjvp` whose rules also get the output:
    ``jvp_rules[i](tangent_i, out, *primals, **params)``."""
    _single(prim, "defjvp2")

    def jvp(primals: Sequence[Array], tangents: Sequence[Tangent], **params: object) -> tuple[Array, Tangent]:
        out = _bind_one(prim, primals, params)
        terms = [
            rule(t, out, *primals, **params)
            for rule, t in zip(jvp_rules, tangents, strict=True)
            if rule is not None and not isinstance(t, Zero)
        ]
        return out, _sum_tangents(prim, out, terms)

    primitive_jvps[prim] = jvp


def deflinear(prim: JaxPrimitive, transpose_rule: Callable[..., object]) -> None:
    """Declare ``prim`` linear in every operand: its jvp applies it to the
    tangents, and ``transpose_rule(cotangent, **params)`` returns one
    cotangent per operand (JAX's ``deflinear``)."""
    _single(prim, "deflinear")

    def jvp(primals: Sequence[Array], tangents: Sequence[Tangent], **params: object) -> tuple[Array, Tangent]:
        out = _bind_one(prim, primals, params)
        return out, _bind_one(prim, [instantiate(t) for t in tangents], params)

    def transpose(ct: Tangent, *args: LinearArg, **params: object) -> list[object]:
        if isinstance(ct, Zero):
            return [Zero(a.aval) if isinstance(a, UndefinedPrimal) else None for a in args]
        result = transpose_rule(ct, **params)
        if not isinstance(result, (list, tuple)):
            raise JaxtypedTypeError(f"the transpose rule given to deflinear for '{prim.name}' must return a sequence")
        return list(result)  # pyright: ignore[reportUnknownArgumentType]

    primitive_jvps[prim] = jvp
    primitive_transposes[prim] = transpose


def is_undefined_primal(x: object) -> bool:
    """Whether a transpose rule's operand is the linear input (JAX's
    ``ad.is_undefined_primal``)."""
    return isinstance(x, UndefinedPrimal)


def instantiate_zeros(t: Tangent) -> Array:
    """A tangent as an array (a symbolic zero becomes zeros)."""
    return instantiate(t)


def _batch_size(prim: JaxPrimitive, args: Sequence[Array], dims: Sequence[BatchDim]) -> int:
    for x, d in zip(args, dims, strict=True):
        if d is not None:
            return x.shape[d]
    raise JaxtypedTypeError(f"batching rule of '{prim.name}' called without a batched operand")


def _front_batcher(prim: JaxPrimitive) -> Callable[..., tuple[object, object]]:
    def batcher(args: Sequence[Array], dims: Sequence[BatchDim], **params: object) -> tuple[object, object]:
        size = _batch_size(prim, args, dims)
        batched = dims
        if len(set(batched)) == 1:  # every operand batched at one position: nothing to move
            out = prim.bind(*args, **params)
            return out, ([batched[0]] * len(out) if isinstance(out, list) else batched[0])
        moved = [bdim_to_front(x, d, size) for x, d in zip(args, dims, strict=True)]
        out = prim.bind(*moved, **params)
        return out, ([0] * len(out) if isinstance(out, list) else 0)

    return batcher


def defvectorized(prim: JaxPrimitive) -> None:
    """Declare ``prim`` elementwise: under ``vmap`` it applies to the
    batched operands as they are (operands batched at different positions,
    or not batched, are first given a leading batch axis)."""
    primitive_batchers[prim] = _front_batcher(prim)


def defbroadcasting(prim: JaxPrimitive) -> None:
    """Declare ``prim`` broadcasting over its operands: like
    :func:`defvectorized` (unbatched operands get the batch axis by
    broadcasting)."""
    primitive_batchers[prim] = _front_batcher(prim)
