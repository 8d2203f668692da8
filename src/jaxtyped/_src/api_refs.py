"""``vmap`` of functions that take refs (issue 16; layer L5).

A ref argument mapped along an axis is handed to the function as a ref of
its per-example slice: the function runs on the ref's value as a batched
input, a fresh ref holds it inside, and its final value comes out (on the
same axis) and is written back. A ref argument with ``in_axes`` ``None``
stays itself: writing a batched value into it is an error, as in JAX.
"""

from collections.abc import Callable
from typing import Any

from jaxtyped._src.api_util import input_aval
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.interpreter import current_interpreter
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.state.primitives import AbstractRef
from jaxtyped._src.state.threading import named_like, reject_ref_outputs
from jaxtyped._src.state.types import Ref, current_values, is_ref, ref_type_str
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten

__all__ = ["vmap_with_refs", "ref_or_input_aval"]

# vmap(fun, in_axes, out_axes, axis_name, axis_size)
VmapFn = Callable[[Callable[..., Any], Any, Any, str | None, int | None], Callable[..., Any]]


def vmap_with_refs(
    vmap: VmapFn,
    fun: Callable[..., Any],
    in_axes: Any,
    out_axes: Any,
    axis_name: str | None,
    axis_size: int | None,
    leaves: list[Any],
    in_tree: PyTreeDef,
    axes: list[Any],
    names: list[str],
) -> Any:
    """``vmap(fun, ...)`` applied to the arguments flattened as ``leaves``
    (``axes``: each leaf's mapped axis), some of which are refs."""
    mapped = [i for i, leaf in enumerate(leaves) if is_ref(leaf) and axes[i] is not None]
    refs: list[Ref[Array]] = [leaves[i] for i in mapped]
    for j, ref in enumerate(refs):
        for k in range(j):
            if refs[k] is ref:
                raise JaxtypedValueError(
                    "only one reference to a mutable array may be passed as an argument to a function, "
                    f"but when vmapping the mutable array reference of type {ref_type_str(ref)} appeared "
                    f"at both {names[mapped[k]]} and {names[mapped[j]]}."
                )
    ref_axes = [int(axes[i]) % max(refs[n].ndim, 1) for n, i in enumerate(mapped)]

    @named_like(fun)
    def pure(*args: Any, **kwargs: Any) -> tuple[Any, list[Array]]:
        inner, tree = tree_flatten((args, kwargs))
        level = current_interpreter()
        boxes: list[Ref[Array]] = [Ref(inner[i], level, freezable=False) for i in mapped]
        for i, box in zip(mapped, boxes):
            inner[i] = box
        call_args, call_kwargs = tree_unflatten(tree, inner)
        out = fun(*call_args, **call_kwargs)
        reject_ref_outputs(out, "vmap", "the vmapped function")
        return out, current_values(boxes)

    values = list(leaves)
    for i, ref in zip(mapped, refs):
        values[i] = ref.read()
    args, kwargs = tree_unflatten(in_tree, values)
    out, new_values = vmap(pure, in_axes, (out_axes, ref_axes), axis_name, axis_size)(*args, **kwargs)
    for ref, value in zip(refs, new_values, strict=True):
        ref.write(value)
    return out


def ref_or_input_aval(leaf: object, name: str, transformation: str) -> ShapedArray:
    """The type of a staged input leaf: a ref's (``Ref{f32[3]}``, see Note
    [staged refs] in :mod:`jaxtyped._src.state.primitives`), or
    ``input_aval``'s."""
    if is_ref(leaf):
        return AbstractRef.of(leaf.read().aval)
    return input_aval(leaf, name, transformation)
