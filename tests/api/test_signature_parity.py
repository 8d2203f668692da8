"""Every public function and class binds JAX's arguments as JAX's does.

A port changes only its imports, so a call that passes an argument by
keyword, or several by position, must bind them with ours as with JAX:
the test compares each public function's signature with its JAX
counterpart's (``tests/support/signatures.py``). The parameters JAX has
and we deliberately do not are listed below, each with its reason.
"""

import importlib
import inspect
import pkgutil
from collections.abc import Callable

import pytest

import jaxtyped
from signatures import misplaced_positionals, missing_keywords

def _module_pairs() -> list[tuple[str, str]]:
    """Each public module of ours and JAX's module of the same name."""
    pairs: list[tuple[str, str]] = [("jaxtyped", "jax")]
    for info in pkgutil.walk_packages(jaxtyped.__path__, "jaxtyped."):
        if "._" in info.name or info.name == "jaxtyped.demo":
            continue
        theirs = "jax" + info.name.removeprefix("jaxtyped")
        try:
            importlib.import_module(theirs)
        except ImportError:  # a module of ours JAX does not have
            continue
        pairs.append((info.name, theirs))
    return pairs


MODULES = _module_pairs()

# JAX's parameters that no function of ours takes, and why.
EVERYWHERE_OUT_OF_SCOPE = frozenset({
    "out_sharding",  # sharding in types (explicit mesh axes), not built
    "order",  # NumPy memory layout: arrays have none
    "align",  # NumPy structured dtypes
    "accuracy",  # lax's result-accuracy modes select TPU/GPU approximations; CPU has one
    "axis_index_groups",  # pmap-era collective groups; JAX rejects them under shard_map
    "reduce_axes",  # deprecated by JAX: any value but () raises there
    "concrete",  # deprecated by JAX: True raises there
    "out",  # NumPy's output argument: JAX accepts only out=None
})  # fmt: skip

# Per function: JAX's parameters we do not take, and why.
OUT_OF_SCOPE: dict[str, frozenset[str]] = {
    # jnp ufuncs: JAX accepts only where=None
    **{
        f"jax.numpy.{name}": frozenset({"where"})
        for name in (
            "add", "subtract", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor", "logaddexp",
            "logaddexp2", "logical_and", "logical_or", "logical_xor", "maximum", "minimum", "negative",
        )
    },
    # deprecated by JAX ("backend and device argument on jit is deprecated")
    "jax.jit": frozenset({"backend", "device"}),
    # a mesh axis to shard the batch over (sharding in types); a batched sum's matching mode
    "jax.vmap": frozenset({"spmd_axis_name", "sum_match"}),
    # partially manual shard_map (the other mesh axes left to the partitioner)
    "jax.shard_map": frozenset({"axis_names"}),
    # placement in types, as out_sharding
    "jax.lax.full": frozenset({"sharding"}),
    "jax.lax.full_like": frozenset({"sharding"}),
    # JAX 0.10's multiply-into-a-wider-dtype; convert the operands first
    "jax.lax.mul": frozenset({"out_dtype"}),
    # the vma type of the result (JEP 17111): jaxtyped gathers to varying, JAX's default
    "jax.lax.all_gather": frozenset({"to"}),
    # jaxtyped's equations carry no source information to propagate
    "jax.core.eval_jaxpr": frozenset({"propagate_source_info"}),
    "jax.extend.core.new_jaxpr_eqn": frozenset({"ctx"}),
    # cluster auto-detection (Slurm, TPU pods, slices) and coordinator tuning
    "jax.distributed.initialize": frozenset({
        "cluster_detection_method", "coordinator_bind_address", "heartbeat_timeout_seconds",
        "partition_index", "shutdown_timeout_seconds", "slice_index", "initialization_timeout",
    }),
    # a custom node built from children without unflatten: export needs unflatten
    "jax.export.register_pytree_node_serialization": frozenset({"from_children"}),
    # XLA custom-call layouts, aliasing and the legacy API versions
    "jax.ffi.ffi_call": frozenset({
        "custom_call_api_version", "input_layouts", "input_output_aliases", "legacy_backend_config", "output_layouts",
    }),
    "jax.ffi.ffi_lowering": frozenset({
        "backend_config", "operand_layouts", "result_layouts", "skip_ffi_layout_processing",
    }),
    # a profiler server without a backend: ours always has the CPU client
    "jax.profiler.start_server": frozenset({"requires_backend"}),
    # classes: sharding in types (an aval's sharding, reduced and unreduced
    # axes, the manual axis type), a stand-in for a ref
    "jax.ShapeDtypeStruct": frozenset({"manual_axis_type", "is_ref"}),
    "jax.core.ShapedArray": frozenset({"sharding", "manual_axis_type", "memory_space"}),
    "jax.P": frozenset({"reduced", "unreduced"}),
    "jax.sharding.PartitionSpec": frozenset({"reduced", "unreduced"}),
    # a user ufunc's own at/reduceat implementations (ours derive them)
    "jax.numpy.ufunc": frozenset({"at", "reduceat"}),
}  # fmt: skip

# Classes users do not construct (JAX builds them and hands them out), whose
# constructors follow jaxtyped's internals rather than JAX's.
BUILT_BY_THE_LIBRARY = frozenset({
    "jax.Ref", "jax.export.Exported", "jax.extend.core.Jaxpr", "jax.extend.core.JaxprEqn",
    "jax.experimental.checkify.Error", "jax.extend.core.Var", "jax.ref.Ref",
    "jax.stages.Traced", "jax.stages.Lowered", "jax.stages.Compiled",
})  # fmt: skip


def _public_functions(ours_name: str, theirs_name: str) -> list[tuple[str, Callable[..., object], Callable[..., object]]]:
    ours_module = importlib.import_module(ours_name)
    theirs_module = importlib.import_module(theirs_name)
    names = getattr(ours_module, "__all__", None) or [n for n in dir(ours_module) if not n.startswith("_")]
    found: list[tuple[str, Callable[..., object], Callable[..., object]]] = []
    for name in names:
        if name in getattr(theirs_module, "_deprecations", {}):
            continue  # JAX warns once per process for a deprecated name: reading it here would take that warning
        ours, theirs = getattr(ours_module, name, None), getattr(theirs_module, name, None)
        if not callable(ours) or not callable(theirs) or inspect.isclass(ours) != inspect.isclass(theirs):
            continue
        if inspect.isclass(ours) and (issubclass(ours, BaseException) or ours.__init__ is object.__init__):
            continue  # exceptions and classes without a constructor of their own
        try:
            inspect.signature(ours)
            inspect.signature(theirs)
        except (TypeError, ValueError):  # no introspectable signature
            continue
        if f"{theirs_name}.{name}" not in BUILT_BY_THE_LIBRARY:
            found.append((f"{theirs_name}.{name}", ours, theirs))
    return found


FUNCTIONS = [entry for ours_name, theirs_name in MODULES for entry in _public_functions(ours_name, theirs_name)]


@pytest.mark.parametrize(("name", "ours", "theirs"), FUNCTIONS, ids=[name for name, _, _ in FUNCTIONS])
def test_keyword_parameters_match_jax(name: str, ours: Callable[..., object], theirs: Callable[..., object]) -> None:
    """JAX code that passes arguments by keyword ports unchanged."""
    out_of_scope = EVERYWHERE_OUT_OF_SCOPE | OUT_OF_SCOPE.get(name, frozenset())
    assert missing_keywords(ours, theirs, out_of_scope) == []


@pytest.mark.parametrize(("name", "ours", "theirs"), FUNCTIONS, ids=[name for name, _, _ in FUNCTIONS])
def test_positional_parameters_in_jaxs_order(name: str, ours: Callable[..., object], theirs: Callable[..., object]) -> None:
    """JAX code that passes arguments by position ports unchanged."""
    out_of_scope = EVERYWHERE_OUT_OF_SCOPE | OUT_OF_SCOPE.get(name, frozenset())
    assert misplaced_positionals(ours, theirs, out_of_scope) == []


def test_the_comparison_covers_the_api() -> None:
    assert len(FUNCTIONS) > 1100
