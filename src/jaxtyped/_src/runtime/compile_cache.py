"""The persistent compilation cache (layer L3; issue 19): compiled programs
saved to a directory and loaded by later processes instead of compiling.

``jt.config.update("jax_compilation_cache_dir", path)`` (or the environment
variable ``JAX_COMPILATION_CACHE_DIR``) turns it on, as in JAX; programs
that took at least ``jax_persistent_cache_min_compile_time_secs`` to compile
and whose serialized form has at least
``jax_persistent_cache_min_entry_size_bytes`` are saved.

Note [persistent cache keys and entries]: the key is a SHA-256 of the
module text, the serialized compile options and an environment string the
runtime builds (jaxlib version, platform, device ids, ``XLA_FLAGS``, the
host CPU: executables contain host-ISA code; see shared notes section 6).
Each entry is one file ``<key>.jtexec``: a magic tag, the SHA-256 of the
payload, the payload (jaxlib's serialized executable). Writes go to a
temporary file renamed into place (atomic: concurrent processes never see a
partial entry); a read whose tag or checksum does not match is treated as a
miss, so a corrupt or truncated entry is recompiled and overwritten.
Loading a serialized executable runs code from it: use a directory only
this user can write.
"""

import hashlib
import os
import tempfile
from typing import Final

__all__ = ["cache_key", "load", "store"]

_MAGIC: Final = b"JTXC0001"
_SUFFIX: Final = ".jtexec"


def cache_key(text: bytes, options: bytes, environment: str) -> str:
    """The entry name for a module compiled with ``options`` in ``environment``."""
    digest = hashlib.sha256()
    for part in (text, options, environment.encode()):
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest()


def _path(directory: str, key: str) -> str:
    return os.path.join(directory, key + _SUFFIX)


def load(directory: str, key: str) -> bytes | None:
    """The saved payload for ``key``, or None (absent, unreadable, corrupt)."""
    try:
        with open(_path(directory, key), "rb") as f:
            data = f.read()
    except OSError:
        return None
    header = len(_MAGIC) + 32
    if len(data) < header or not data.startswith(_MAGIC):
        return None
    payload = data[header:]
    if hashlib.sha256(payload).digest() != data[len(_MAGIC) : header]:
        return None
    return payload


def store(directory: str, key: str, payload: bytes) -> bool:
    """Save ``payload`` under ``key`` atomically; False if the directory
    cannot be written (the cache is best effort: compiling still works)."""
    try:
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=_SUFFIX)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, _path(directory, key))
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True
