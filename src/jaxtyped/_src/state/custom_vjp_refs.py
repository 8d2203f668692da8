"""``custom_vjp`` functions called with refs (issue 16, seed 003's
``stash_grads``; layer L4).

Refs are plumbing, not differentiable inputs: each ref argument is replaced
by an empty placeholder array for the differentiation machinery, and the
real ref is handed back to ``fun``, ``fwd`` and ``bwd``. ``fwd`` may return
refs among its residuals (the seed's way to share a ref with ``bwd``): they
are kept aside and given back to ``bwd`` where they were.
"""

from collections.abc import Callable, Mapping
from typing import Any, cast

import numpy as np

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import array_from_numpy
from jaxtyped._src.custom_derivatives import CustomVJPPrimal
from jaxtyped._src.state.threading import named_like
from jaxtyped._src.state.types import Ref, is_ref
from jaxtyped._src.tree_util import tree_flatten, tree_unflatten

__all__ = ["call_custom_vjp_with_refs"]


def _placeholder() -> Array:
    return array_from_numpy(np.zeros((0,), np.float32))


def _split_refs(tree: object) -> tuple[object, dict[int, Ref[Array]]]:
    """``tree`` with its refs replaced by placeholders, and the refs by leaf index."""
    leaves, treedef = tree_flatten(tree)
    refs: dict[int, Ref[Array]] = {}
    for i, leaf in enumerate(leaves):
        if is_ref(leaf):
            refs[i] = leaf
            leaves[i] = _placeholder()
    return tree_unflatten(treedef, leaves), refs


def _join_refs(tree: object, refs: Mapping[int, object]) -> Any:
    leaves, treedef = tree_flatten(tree)
    for i, ref in refs.items():
        leaves[i] = ref
    return tree_unflatten(treedef, leaves)


def call_custom_vjp_with_refs(
    make: Callable[[Callable[..., Any]], Any],
    fun: Callable[..., Any],
    fwd: Callable[..., Any],
    bwd: Callable[..., Any],
    args: tuple[object, ...],
    kwargs: dict[str, object],
    symbolic_zeros: bool = False,
) -> Any:
    """Call the custom_vjp function ``fun`` (rules ``fwd``, ``bwd``) on
    arguments holding refs; ``make(f)`` builds a custom_vjp of ``f``. With
    ``symbolic_zeros``, ``fwd`` gets each ref as an unperturbed
    ``CustomVJPPrimal``, like its other arguments' leaves."""
    pure_args, arg_refs = _split_refs((args, kwargs))
    residual_refs: dict[int, Ref[Array]] = {}
    fwd_refs: dict[int, object] = (
        {i: CustomVJPPrimal(ref, False) for i, ref in arg_refs.items()} if symbolic_zeros else dict(arg_refs)
    )

    def with_refs(
        flat_args: tuple[object, ...], flat_kwargs: dict[str, object], refs: Mapping[int, object] = arg_refs
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        call_args, call_kwargs = _join_refs((flat_args, flat_kwargs), refs)
        return tuple(call_args), dict(call_kwargs)

    @named_like(fun)
    def pure_fun(*a: object, **k: object) -> Any:
        call_args, call_kwargs = with_refs(a, k)
        return fun(*call_args, **call_kwargs)

    @named_like(fwd)
    def pure_fwd(*a: object, **k: object) -> tuple[Any, object]:
        call_args, call_kwargs = with_refs(a, k, fwd_refs)
        out, res = fwd(*call_args, **call_kwargs)
        res_without, refs = _split_refs(res)
        residual_refs.clear()
        residual_refs.update(refs)
        return out, res_without

    @named_like(bwd)
    def pure_bwd(*a: object) -> Any:
        *nondiff, res, ct = a
        return bwd(*nondiff, _join_refs(res, residual_refs), ct)

    function = make(pure_fun)
    function.defvjp(pure_fwd, pure_bwd, symbolic_zeros=symbolic_zeros)
    pair = cast(tuple[tuple[object, ...], dict[str, object]], pure_args)  # the (args, kwargs) pair split above
    return function(*pair[0], **pair[1])
