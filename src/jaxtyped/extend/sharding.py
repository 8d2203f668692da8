"""XLA's sharding protos for extensions (JAX's ``jax.extend.sharding``):
``OpSharding``/``HloSharding`` conversions, ``GSPMDSharding`` (a jaxtyped
sharding built from an XLA sharding) and ``hlo_sharding_of`` (a jaxtyped
sharding's XLA view)."""

from jaxtyped._src.extend.sharding import GSPMDSharding as GSPMDSharding
from jaxtyped._src.extend.sharding import HloShardingView as HloShardingView
from jaxtyped._src.extend.sharding import OpShardingProto as OpShardingProto
from jaxtyped._src.extend.sharding import get_hlo_sharding_from_serialized_proto as get_hlo_sharding_from_serialized_proto
from jaxtyped._src.extend.sharding import get_op_sharding_from_serialized_proto as get_op_sharding_from_serialized_proto
from jaxtyped._src.extend.sharding import get_serialized_proto_from_hlo_sharding as get_serialized_proto_from_hlo_sharding
from jaxtyped._src.extend.sharding import hlo_sharding_of as hlo_sharding_of
from jaxtyped._src.extend.sharding import xla_client as xla_client

__all__ = [
    "GSPMDSharding",
    "HloShardingView",
    "OpShardingProto",
    "get_hlo_sharding_from_serialized_proto",
    "get_op_sharding_from_serialized_proto",
    "get_serialized_proto_from_hlo_sharding",
    "hlo_sharding_of",
    "xla_client",
]
