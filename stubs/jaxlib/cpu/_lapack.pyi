# jaxlib.cpu._lapack (jaxlib 0.10.2): LAPACK kernels as typed-FFI custom-call
# targets. initialize() loads the kernels from SciPy's cython LAPACK/BLAS;
# registrations() maps each target name ("lapack_sgetrf_ffi", ...) to its
# handler capsule.
from typing import Any

def initialize() -> None: ...
def registrations() -> dict[str, Any]: ...
