"""jaxtyped: a typed, from-scratch re-implementation of JAX's core.

``import jaxtyped as jt`` gives the transformations (``jt.jvp``,
``jt.vmap``, ``jt.jacfwd``, ``jt.make_jaxpr``), the one array type
``jt.Array``, pytree utilities and configuration; ``jaxtyped.numpy`` is the
NumPy-style namespace and ``jaxtyped.lax`` the primitive-level one.

Debug mode: with ``JAXTYPED_DEBUG=1`` in the environment the whole package
is put under beartype's runtime type checking. The variable is read once,
here, before any other submodule is imported (the import hook only affects
modules imported after it); setting it later has no effect.
"""

# Imported before the hook (so not checked by it): it decides whether to install it.
from jaxtyped._src.debug_flag import DEBUG

if DEBUG:
    from beartype import BeartypeConf as _BeartypeConf
    from beartype.claw import beartype_this_package as _beartype_this_package

    # The errors module defines only classes, so importing it before the hook
    # loses no checking; it gives violations a jaxtyped TypeError class.
    from jaxtyped._src.errors import DebugTypeError as _DebugTypeError

    # PEP 526 variable annotations are not checked: they would cost on every
    # assignment in hot loops and add nothing that parameters do not check.
    _beartype_this_package(conf=_BeartypeConf(claw_is_pep526=False, violation_type=_DebugTypeError))

from jaxtyped import errors, lax, numpy, tree, tree_util, typing  # noqa: E402
from jaxtyped._src.api import (  # noqa: E402
    ShapeDtypeStruct,
    ensure_compile_time_eval,
    eval_shape,
    jacfwd,
    jvp,
    make_jaxpr,
    vmap,
)
from jaxtyped._src.custom_derivatives import custom_jvp, custom_vjp  # noqa: E402
from jaxtyped._src.remat import checkpoint, remat  # noqa: E402
from jaxtyped._src.api_grad import grad, hessian, jacrev, linearize, value_and_grad, vjp  # noqa: E402
from jaxtyped._src.api_device import Device, block_until_ready, device_get, device_put, devices, local_devices  # noqa: E402
# sharding family (issue 17): several devices
from jaxtyped._src.api_device import device_count, local_device_count, process_count, process_index  # noqa: E402
from jaxtyped._src.api_sharding import make_mesh, reshard, set_mesh  # noqa: E402
from jaxtyped import sharding  # noqa: E402
from jaxtyped.sharding import NamedSharding, P  # noqa: E402
from jaxtyped._src.shard_map import shard_map  # noqa: E402
from jaxtyped._src.api_pmap import pmap  # noqa: E402  # JAX's pmap, a jit of a shard_map
from jaxtyped import flatten_util  # noqa: E402  # jt.flatten_util.ravel_pytree, as jax.flatten_util
from jaxtyped import distributed  # noqa: E402
from jaxtyped._src.api_jit import clear_caches, disable_jit, jit  # noqa: E402
from jaxtyped._src.config import config  # noqa: E402
from jaxtyped._src.core.array import Array  # noqa: E402
from jaxtyped import core  # noqa: E402
from jaxtyped import stages  # noqa: E402
from jaxtyped import ad_checkpoint, checkpoint_policies, test_util  # noqa: E402
from jaxtyped import nn  # noqa: E402  # einsum family: jt.nn, as jax.nn
from jaxtyped import image  # noqa: E402  # jt.image, as jax.image (resize, scale_and_translate)
from jaxtyped import extend, random  # noqa: E402  # random family (issue 15)
from jaxtyped import ffi  # noqa: E402  # extend family (issue 18): jt.ffi, as jax.ffi
# callbacks family (issue 16): debug.print, callbacks, effects_barrier
from jaxtyped import debug, experimental  # noqa: E402
from jaxtyped import custom_batching  # noqa: E402  # jt.custom_batching, as jax.custom_batching
from jaxtyped import dtypes  # noqa: E402  # jt.dtypes, as jax.dtypes
from jaxtyped import dlpack  # noqa: E402  # jt.dlpack, as jax.dlpack
from jaxtyped import monitoring  # noqa: E402  # jt.monitoring, as jax.monitoring
from jaxtyped import profiler  # noqa: E402  # jt.profiler, as jax.profiler
from jaxtyped import export  # noqa: E402  # jt.export, as jax.export
from jaxtyped._src.callbacks import effects_barrier, pure_callback  # noqa: E402
# refs family (issue 16): mutable array references
from jaxtyped import ref  # noqa: E402
from jaxtyped._src.state.types import Ref, empty_ref, free_ref, freeze, new_ref  # noqa: E402
from jaxtyped._src.core.array import ds  # noqa: E402  # dynamic slices of arrays and refs (jax.ds)
# breadth: smaller top-level names and the config states
from jaxtyped import scipy  # noqa: E402
from jaxtyped import ops  # noqa: E402  # segment reductions: jt.ops, as jax.ops
from jaxtyped import custom_derivatives, version  # noqa: E402  # the module paths of jax.custom_derivatives and jax.version
from jaxtyped._src.api_grad import jacrev as jacobian  # noqa: E402
from jaxtyped._src.dtypes import float0  # noqa: E402
from jaxtyped._src.api_misc import (  # noqa: E402
    closure_convert,
    copy_to_host_async,
    custom_gradient,
    default_backend,
    fwd_and_bwd,
    host_count,
    host_id,
    host_ids,
    linear_transpose,
    live_arrays,
    make_array_from_callback,
    make_array_from_process_local_data,
    make_array_from_single_device_arrays,
    named_call,
    named_scope,
    print_environment_info,
    process_indices,
    typeof,
)
from jaxtyped._src.api_config import (  # noqa: E402
    check_tracer_leaks,
    checking_leaks,
    debug_infs,
    debug_nans,
    default_device,
    default_matmul_precision,
    default_prng_impl,
    enable_checks,
    enable_x64,
    explain_cache_misses,
    log_compiles,
    numpy_dtype_promotion,
    numpy_rank_promotion,
    softmax_custom_jvp,
    threefry_partitionable,
    transfer_guard,
    transfer_guard_device_to_device,
    transfer_guard_device_to_host,
    transfer_guard_host_to_device,
)

from jaxtyped._src.version import __version__ as __version__  # noqa: E402  # one place: jaxtyped.version reads it too

__all__ = [
    "test_util",
    "ad_checkpoint",
    "checkpoint_policies",
    "remat",
    "checkpoint",
    "custom_vjp",
    "custom_jvp",
    "vjp",
    "value_and_grad",
    "linearize",
    "jacrev",
    "hessian",
    "grad",
    "Array",
    "DEBUG",
    "Device",
    "ShapeDtypeStruct",
    "block_until_ready",
    "clear_caches",
    "config",
    "core",
    "device_get",
    "device_put",
    "devices",
    "errors",
    "ensure_compile_time_eval",
    "eval_shape",
    "disable_jit",
    "jacfwd",
    "jit",
    "jvp",
    "lax",
    "local_devices",
    "make_jaxpr",
    "numpy",
    "nn",  # einsum family
    "image",  # jax.image
    "export",  # jax.export
    "extend",  # random family (issue 15)
    "random",  # random family (issue 15)
    "ffi",  # extend family (issue 18)
    "debug",  # callbacks family (issue 16)
    "custom_batching",
    "dtypes",
    "dlpack",
    "monitoring",
    "profiler",
    "effects_barrier",
    "experimental",
    "pure_callback",
    "stages",
    "tree",
    "tree_util",
    "typing",
    "vmap",
    # sharding family (issue 17)
    "device_count",
    "local_device_count",
    "make_mesh",
    "reshard",
    "set_mesh",
    "process_count",
    "process_index",
    "sharding",
    "NamedSharding",
    "P",
    "shard_map",
    "pmap",
    "flatten_util",
    "distributed",
    # refs family (issue 16)
    "Ref",
    "freeze",
    "empty_ref",
    "free_ref",
    "new_ref",
    "ref",
    "ds",
    # breadth: smaller top-level names and the config states
    "scipy",
    "ops",  # segment reductions
    "custom_derivatives",
    "version",
    "jacobian",
    "float0",
    "closure_convert",
    "copy_to_host_async",
    "custom_gradient",
    "default_backend",
    "fwd_and_bwd",
    "host_count",
    "host_id",
    "host_ids",
    "linear_transpose",
    "live_arrays",
    "make_array_from_callback",
    "make_array_from_process_local_data",
    "make_array_from_single_device_arrays",
    "named_call",
    "named_scope",
    "process_indices",
    "print_environment_info",
    "typeof",
    "check_tracer_leaks",
    "checking_leaks",
    "debug_infs",
    "debug_nans",
    "default_device",
    "default_matmul_precision",
    "default_prng_impl",
    "enable_checks",
    "enable_x64",
    "explain_cache_misses",
    "log_compiles",
    "numpy_dtype_promotion",
    "numpy_rank_promotion",
    "softmax_custom_jvp",
    "threefry_partitionable",
    "transfer_guard",
    "transfer_guard_device_to_device",
    "transfer_guard_device_to_host",
    "transfer_guard_host_to_device",
]
