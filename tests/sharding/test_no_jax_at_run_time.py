"""The ``jax`` package is never imported at run time, also on several
devices (issue 17 follow-up): jaxlib 0.10 imports ``jax._src`` behind the
caller's back when a multi-device array's shards are taken apart
(``ArrayImpl._arrays``, plain-callable result handlers), so the runtime
reads shards another way (see Note [reading shards without jax] in
``runtime/xla.py``).

The check runs in a fresh interpreter where ``import jax`` fails
(``sys.modules["jax"] = None``) and ``builtins.__import__`` counts every
attempt to import a ``jax`` module (jaxlib's C++ goes through it too, so
attempts swallowed by jaxlib are counted as well).
"""

import os
import subprocess
import sys
import textwrap

_WORKLOAD = textwrap.dedent(
    """
    import builtins, sys
    sys.modules["jax"] = None  # jax is not importable here
    attempts = []
    _real_import = builtins.__import__

    def _counting_import(name, *args, **kwargs):
        if name == "jax" or name.startswith("jax."):
            attempts.append(name)
        return _real_import(name, *args, **kwargs)

    builtins.__import__ = _counting_import

    import ml_dtypes
    import numpy as np
    import jaxtyped as jt
    import jaxtyped.numpy as jnp
    from jaxtyped import lax
    from jaxtyped.sharding import NamedSharding, PartitionSpec as P

    jt.config.update("jax_num_cpu_devices", 4)
    mesh = jt.make_mesh((2, 2), ("a", "b"))
    x = np.arange(24.0, dtype=np.float32).reshape(4, 6)

    # device_put to a sharding, read back (tiled and partly replicated)
    for spec in (P("a", "b"), P("a"), P(None, "b"), P()):
        y = jt.device_put(x, NamedSharding(mesh, spec))
        assert len(y.devices()) == 4
        np.testing.assert_array_equal(np.asarray(y), x)
        for shard in y.addressable_shards:
            np.testing.assert_array_equal(np.asarray(shard.data), x[shard.index])

    # jit with shardings: a sharded result read on the host
    f = jt.jit(lambda a: jnp.sin(a) * 2.0, in_shardings=NamedSharding(mesh, P("a", "b")),
               out_shardings=NamedSharding(mesh, P("b", "a")))
    out = f(x)
    np.testing.assert_allclose(np.asarray(out), np.sin(x) * 2.0, rtol=1e-6)

    # shard_map with a collective
    g = jt.jit(jt.shard_map(lambda b: lax.psum(b, "a"), mesh=mesh, in_specs=P("a", "b"), out_specs=P(None, "b")))
    np.testing.assert_allclose(np.asarray(g(x)), x[:2] + x[2:])

    # dtypes numpy cannot read through DLPack, and float0-free small types
    for dtype in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.int4, np.bool_, np.int8, np.complex64):
        v = (np.arange(24) % 5).astype(dtype).reshape(4, 6)
        w = jt.device_put(v, NamedSharding(mesh, P("a", "b")))
        got = np.asarray(w)
        assert got.dtype == v.dtype, (got.dtype, v.dtype)
        np.testing.assert_array_equal(got.astype(np.float32), v.astype(np.float32))

    # an ordinary single-device computation, and one with ordered host callbacks
    assert float(jnp.sum(jnp.arange(4.0))) == 6.0
    seen = []
    def noted(v):
        jt.debug.callback(lambda u: seen.append(float(u)), v, ordered=True)
        return v + 1.0
    assert float(jt.jit(noted)(jnp.float32(2.0))) == 3.0
    jt.effects_barrier()
    assert seen == [2.0], seen

    # jaxlib's CPU kernels (LAPACK) and FFT
    np.testing.assert_allclose(np.asarray(jnp.linalg.inv(jnp.eye(3) * 2.0)), np.eye(3) / 2.0)
    np.testing.assert_allclose(np.asarray(jnp.fft.fft(jnp.arange(4.0))), np.fft.fft(np.arange(4.0)), atol=1e-5)

    assert "jax" not in [m.split(".")[0] for m in sys.modules if sys.modules[m] is not None], "jax was loaded"
    print("JAX_IMPORT_ATTEMPTS", len(attempts), sorted(set(attempts)))
    """
)


def test_sharded_reads_never_try_to_import_jax() -> None:
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"}
    done = subprocess.run(
        [sys.executable, "-c", _WORKLOAD], capture_output=True, text=True, timeout=240, env=env, check=False
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "JAX_IMPORT_ATTEMPTS 0 []" in done.stdout, done.stdout[-2000:]
