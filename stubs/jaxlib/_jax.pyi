# The types of jaxlib's nanobind extension module that jaxtyped meets
# without importing them by name (results of the calls in xla_client.pyi).
# `NanobindType` is the metaclass of every nanobind class (nanobind.nb_type_0 at
# run time, which is not importable); the other stubs import it from here.
from collections.abc import Callable, Sequence
from typing import type_check_only

from typing_extensions import Never, disjoint_base

from jaxlib.xla_client import ArrayImpl

@type_check_only
class NanobindType(type): ...

@disjoint_base
class ExecutableBuildOptions(metaclass=NanobindType):
    def __init__(self) -> None: ...
    use_spmd_partitioning: bool
    use_shardy_partitioner: bool

@disjoint_base
class ResultHandler(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)

@disjoint_base
class ExecuteResults(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)
    # Handlers made by array_result_handler (the only ones jaxtyped passes)
    # give arrays; jaxlib also accepts other handler objects.
    # A plain callable handler (host callbacks' token outputs) receives the
    # output's per-device arrays and its result is returned as is.
    def consume_with_handlers(
        self, out_handlers: Sequence[ResultHandler | Callable[[list[ArrayImpl]], ArrayImpl]], strict: bool = True
    ) -> list[ArrayImpl]: ...
    def consume_token(self) -> ShardedToken: ...

@disjoint_base
class ShardedToken(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)
    def block_until_ready(self) -> None: ...
