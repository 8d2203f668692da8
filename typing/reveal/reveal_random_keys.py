"""Result types of the key functions of jaxtyped.random: typed keys in,
typed keys out (KeyArray); legacy keys and key data are plain Arrays."""

from typing_extensions import assert_type

import jaxtyped.random as jrandom
from jaxtyped.typing import Array, KeyArray


def check(key: KeyArray, legacy: Array) -> None:
    assert_type(jrandom.key(0), KeyArray)
    assert_type(jrandom.PRNGKey(0), Array)
    assert_type(jrandom.split(key), KeyArray)
    assert_type(jrandom.split(key, (2, 3)), KeyArray)
    assert_type(jrandom.split(legacy), Array)
    assert_type(jrandom.fold_in(key, 3), KeyArray)
    assert_type(jrandom.fold_in(legacy, 3), Array)
    assert_type(jrandom.key_data(key), Array)
    assert_type(jrandom.wrap_key_data(legacy), KeyArray)
    assert_type(jrandom.clone(key), KeyArray)
    assert_type(jrandom.bits(key, (3,)), Array)
    assert_type(jrandom.key_impl(key), str)
    assert_type(key[0], KeyArray)
    assert_type(key.reshape(2, 3), KeyArray)
    assert_type(key.T, KeyArray)
