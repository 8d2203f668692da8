"""The persistent compilation cache (layer L3; issue 19): compiled programs
saved to a directory and loaded by later processes instead of compiling.

``jt.config.update("jax_compilation_cache_dir", path)`` (or the environment
variable ``JAX_COMPILATION_CACHE_DIR``) turns it on, as in JAX; programs
that took at least ``jax_persistent_cache_min_compile_time_secs`` to compile
and whose serialized form has at least
``jax_persistent_cache_min_entry_size_bytes`` are saved; with
``jax_compilation_cache_max_size`` >= 0 (bytes; -1, the default, is no
bound, 0 turns the cache off, as in JAX) the least recently used entries
are deleted past that size.

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
    try:
        os.utime(_path(directory, key))  # the size bound evicts the least recently used first
    except OSError:
        pass
    return payload


def store(directory: str, key: str, payload: bytes, max_size: int = -1) -> bool:
    """Save ``payload`` under ``key`` atomically; False if the directory
    cannot be written (the cache is best effort: compiling still works).
    With ``max_size`` >= 0 the least recently used entries are deleted
    until the directory's entries take at most ``max_size`` bytes."""
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
    if max_size >= 0:
        _evict(directory, max_size)
    return True


def _evict(directory: str, max_size: int) -> None:
    entries: list[tuple[float, int, str]] = []
    try:
        for entry in os.scandir(directory):
            if entry.name.endswith(_SUFFIX) and not entry.name.startswith(".tmp-"):
                info = entry.stat()
                entries.append((info.st_mtime, info.st_size, entry.path))
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= max_size:
            break
        try:
            os.unlink(path)  # another process may have removed it already
        except OSError:
            pass
        total -= size
