# jaxlib.cpu._lapack (jaxlib 0.10.2): LAPACK kernels as typed-FFI custom-call
# targets. initialize() loads the kernels from SciPy's cython LAPACK/BLAS;
# registrations() maps each target name ("lapack_sgetrf_ffi", ...) to its
# handler capsule. Both are nanobind functions: declared as values of
# callable Protocols (stubs/README.md).
from typing import Any, Protocol, type_check_only

@type_check_only
class _Initialize(Protocol):
    def __call__(self) -> None: ...

@type_check_only
class _Registrations(Protocol):
    def __call__(self) -> dict[str, Any]: ...

initialize: _Initialize
registrations: _Registrations
