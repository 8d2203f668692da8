"""Policies for ``jaxtyped.checkpoint`` (JAX's ``jax.checkpoint_policies``).

A policy is called as ``policy(prim, *in_avals, **params) -> bool`` for each
first-order equation of a checkpointed function: True lets the equation's
outputs be saved for the backward pass, False makes the backward pass
recompute them. Any callable of that shape works as a policy.

The classes (``DotsSaveable``, ``SaveOnlyTheseNames``, ...) are the types
of the built-in policies, exported for annotations (JAX keeps them private).
"""

from jaxtyped._src.remat_policies import (
    DotsSaveable,
    Policy,
    SaveAnyNamesButThese,
    SaveAnythingExceptTheseNames,
    SaveFromBothPolicies,
    SaveOnlyTheseNames,
    checkpoint_dots,
    checkpoint_dots_with_no_batch_dims,
    dots_saveable,
    dots_with_no_batch_dims_saveable,
    everything_saveable,
    nothing_saveable,
    save_any_names_but_these,
    save_anything_except_these_names,
    save_from_both_policies,
    save_only_these_names,
)

__all__ = [
    "DotsSaveable",
    "Policy",
    "SaveAnyNamesButThese",
    "SaveAnythingExceptTheseNames",
    "SaveFromBothPolicies",
    "SaveOnlyTheseNames",
    "checkpoint_dots",
    "checkpoint_dots_with_no_batch_dims",
    "dots_saveable",
    "dots_with_no_batch_dims_saveable",
    "everything_saveable",
    "nothing_saveable",
    "save_any_names_but_these",
    "save_anything_except_these_names",
    "save_from_both_policies",
    "save_only_these_names",
]
