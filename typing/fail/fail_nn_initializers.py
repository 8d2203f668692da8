"""jaxtyped.nn.initializers misuse both checkers reject: a builder used
where an initializer is expected, unknown modes and distributions, float
axes, strings for scales and shapes, and results used as Python scalars."""

import jaxtyped as jt
from jaxtyped.nn import initializers
from jaxtyped.nn.initializers import Initializer

key = jt.random.key(0)

builder_not_initializer: Initializer = initializers.glorot_normal  # expect: mypy[assignment] pyright[reportAssignmentType]
initializers.variance_scaling(1.0, "fan", "normal")  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.variance_scaling(1.0, "fan_in", "cauchy")  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.zeros(key, "3")  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.ones(key, (2.5, 3))  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.constant("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.uniform(scale="big")  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.normal(stddev="small")  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.truncated_normal(lower="a")  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.glorot_uniform(in_axis=1.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.glorot_normal(out_axis="last")  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.xavier_uniform(batch_axis=0.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.xavier_normal(in_axis=[0.5])  # expect: mypy[list-item] pyright[reportArgumentType]
initializers.he_uniform(dtype=3.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.he_normal(1.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.kaiming_uniform(out_axis=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.kaiming_normal(mode="fan_in")  # expect: mypy[call-arg] pyright[reportCallIssue]
initializers.lecun_uniform(scale=2.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
initializers.lecun_normal(in_axis="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.orthogonal(column_axis=1.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.delta_orthogonal(scale="one")  # expect: mypy[arg-type] pyright[reportArgumentType]
initializers.glorot_normal()(key)  # expect: mypy[call-arg] pyright[reportCallIssue]
flag: bool = initializers.zeros(key, (2,))  # expect: mypy[assignment] pyright[reportAssignmentType]
