"""Gaussian kernel density estimation (JAX's
``jax.scipy.stats.gaussian_kde``): an immutable pytree of the data points,
their weights and the kernel's covariance (Scott's or Silverman's rule, a
factor or a callable times the data's weighted covariance)."""

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedValueError
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import full, zeros
from jaxtyped._src.numpy.linalg_solvers import inv
from jaxtyped._src.numpy.manipulation import atleast_1d, atleast_2d, diagonal
from jaxtyped._src.numpy.promotion import asarray_operand, promote_dtypes
from jaxtyped._src.numpy.shape_ops import matmul, reshape, squeeze, transpose
from jaxtyped._src.numpy.statistics import cov
from jaxtyped._src.random.discrete import choice
from jaxtyped._src.random.keys import split
from jaxtyped._src.random.multivariate import multivariate_normal
from jaxtyped._src.scipy.linalg import cho_factor, cho_solve, cholesky
from jaxtyped._src.scipy.special import logsumexp, ndtr
from jaxtyped._src.tree_util import register_pytree_node_class

__all__ = ["gaussian_kde"]

BwMethod = str | int | float | Array | Callable[["gaussian_kde"], ArrayLike] | None


def _real(name: str, x: ArrayLike) -> Array:
    array = asarray_operand(name, x)
    if dtypes.is_complex(array.dtype):
        raise JaxtypedNotImplementedError(f"gaussian_kde.{name}: complex data is not supported")
    return array


@register_pytree_node_class
@dataclass(frozen=True, init=False, slots=True)
class gaussian_kde:  # noqa: N801 - JAX's (and SciPy's) name
    """A Gaussian kernel density estimate of ``dataset`` (``(d, n)``: ``n``
    points in ``d`` dimensions, or ``n`` numbers), optionally weighted by ``weights``.

    Raises:
        JaxtypedValueError: a dataset of fewer than two numbers, weights that
            are not one number per point, or an unknown ``bw_method``.
        JaxtypedNotImplementedError: complex data.
    """

    neff: Array
    dataset: Array
    weights: Array
    covariance: Array
    inv_cov: Array

    def __init__(self, dataset: ArrayLike, bw_method: BwMethod = None, weights: ArrayLike | None = None) -> None:
        data = atleast_2d(_real("__init__", dataset))
        if not data.size > 1:
            raise JaxtypedValueError("gaussian_kde: the dataset must have more than one element")
        d, n = data.shape
        if weights is not None:
            data, w = promote_dtypes("gaussian_kde", (data, asarray_operand("gaussian_kde", weights)), inexact=True)
            w = atleast_1d(w)
            w = ju.divide(w, jr.sum(w))
            if w.ndim != 1:
                raise JaxtypedValueError("gaussian_kde: weights must be one-dimensional")
            if w.shape[0] != n:
                raise JaxtypedValueError(f"gaussian_kde: weights must have one entry per point ({n}); got {w.shape[0]}")
        else:
            (data,) = promote_dtypes("gaussian_kde", (data,), inexact=True)
            w = full((n,), 1.0 / n, dtype=data.dtype)
        neff = ju.divide(1, jr.sum(ju.square(w)))
        self._set("dataset", data)
        self._set("weights", w)
        self._set("neff", neff)
        method = "scott" if bw_method is None else bw_method
        if isinstance(method, str):
            if method == "scott":
                factor = ju.power(neff, -1.0 / (d + 4))
            elif method == "silverman":
                factor = ju.power(ju.divide(ju.multiply(neff, d + 2), 4.0), -1.0 / (d + 4))
            else:
                raise JaxtypedValueError("gaussian_kde: bw_method must be 'scott', 'silverman', a scalar, or a callable")
        elif isinstance(method, (int, float)) or (isinstance(method, Array) and method.ndim == 0):
            factor = asarray_operand("gaussian_kde", method)
        elif callable(method):
            factor = asarray_operand("gaussian_kde", method(self))
        else:
            raise JaxtypedValueError("gaussian_kde: bw_method must be 'scott', 'silverman', a scalar, or a callable")
        data_covariance = atleast_2d(cov(data, rowvar=True, bias=False, aweights=w))
        squared = ju.square(factor)
        self._set("covariance", ju.multiply(data_covariance, squared))
        self._set("inv_cov", ju.divide(inv(data_covariance), squared))

    def _set(self, name: str, value: Array) -> None:
        object.__setattr__(self, name, value)

    def tree_flatten(self) -> tuple[tuple[Array, Array, Array, Array, Array], None]:
        """The arrays, as pytree children."""
        return (self.neff, self.dataset, self.weights, self.covariance, self.inv_cov), None

    @classmethod
    def tree_unflatten(cls, aux_data: None, children: tuple[Any, ...]) -> "gaussian_kde":
        """An estimate from the children of :meth:`tree_flatten`."""
        kde = cls.__new__(cls)
        for name, value in zip(("neff", "dataset", "weights", "covariance", "inv_cov"), children):
            kde._set(name, value)
        return kde

    @property
    def d(self) -> int:
        """The number of dimensions."""
        return self.dataset.shape[0]

    @property
    def n(self) -> int:
        """The number of data points."""
        return self.dataset.shape[1]

    def _points(self, name: str, points: ArrayLike) -> Array:
        """``points`` as ``(d, m)``: a ``(1, d)`` row is one point."""
        p = atleast_2d(_real(name, points))
        rows, m = p.shape
        if rows != self.d:
            if rows == 1 and m == self.d:
                return reshape(p, (self.d, 1))
            raise JaxtypedValueError(f"gaussian_kde.{name}: points have dimension {rows}, the dataset has dimension {self.d}")
        return p

    def _kernel_sums(self, points: ArrayLike, in_log: bool, name: str) -> Array:
        """The weighted sum of the kernels at each point (or its log)."""
        data, w, x, precision = promote_dtypes(
            name, (transpose(self.dataset), self.weights, transpose(self._points(name, points)), self.inv_cov), inexact=True
        )
        whitening = cholesky(precision, lower=True)
        data, x = matmul(data, whitening), matmul(x, whitening)
        d = data.shape[1]
        log_norm = ju.subtract(jr.sum(ju.log(diagonal(whitening))), 0.5 * d * math.log(2 * math.pi))
        # (m, n): the exponent of the kernel of data point j at point i.
        distance = jr.sum(ju.square(ju.subtract(data[None, :, :], x[:, None, :])), axis=-1)
        exponent = ju.subtract(log_norm, ju.multiply(0.5, distance))
        if in_log:
            return logsumexp(ju.add(ju.log(w)[None, :], exponent), axis=1)
        return jr.sum(ju.multiply(w[None, :], ju.exp(exponent)), axis=1)

    def evaluate(self, points: ArrayLike) -> Array:
        """The density at ``points`` (``(d, m)``, or ``m`` numbers when ``d == 1``)."""
        return self._kernel_sums(points, False, "evaluate")

    def __call__(self, points: ArrayLike) -> Array:
        """The density at ``points`` (:meth:`evaluate`)."""
        return self.evaluate(points)

    def pdf(self, x: ArrayLike) -> Array:
        """The density at ``x`` (:meth:`evaluate`)."""
        return self.evaluate(x)

    def logpdf(self, x: ArrayLike) -> Array:
        """The log density at ``x``, as a log-sum-exp of the kernels."""
        return self._kernel_sums(x, True, "logpdf")

    def _convolve(self, factor: tuple[Array, bool], norm: Array, target: "gaussian_kde", means: Array) -> Array:
        """For each column of ``means``: ``norm`` times the weighted sum over
        ``target``'s points of ``exp(-|diff|^2/2)`` in the factored metric."""
        d = means.shape[0]
        diff = ju.subtract(target.dataset[:, :, None], means[:, None, :])  # (d, n, k)
        solved = reshape(cho_solve(factor, reshape(diff, (d, -1))), diff.shape)
        half = ju.multiply(0.5, jr.sum(ju.multiply(diff, solved), axis=0))  # (n, k)
        return ju.multiply(norm, jr.sum(ju.multiply(ju.exp(ju.negative(half)), target.weights[:, None]), axis=0))

    def _factor(self, covariance: Array) -> tuple[tuple[Array, bool], Array]:
        factor = cho_factor(covariance)
        scale = ju.multiply(math.sqrt(2 * math.pi) ** self.d, jr.prod(diagonal(factor[0])))
        return factor, ju.divide(1.0, scale)

    def integrate_gaussian(self, mean: ArrayLike, cov: ArrayLike) -> Array:
        """The integral of the density times a normal density with ``mean`` and ``cov``.

        Raises:
            JaxtypedValueError: ``mean`` or ``cov`` is not of dimension ``d``.
        """
        mu = atleast_1d(squeeze(asarray_operand("integrate_gaussian", mean)))
        sigma = atleast_2d(asarray_operand("integrate_gaussian", cov))
        if mu.shape != (self.d,):
            raise JaxtypedValueError(f"gaussian_kde.integrate_gaussian: mean does not have dimension {self.d}")
        if sigma.shape != (self.d, self.d):
            raise JaxtypedValueError(f"gaussian_kde.integrate_gaussian: covariance does not have dimension {self.d}")
        factor, norm = self._factor(ju.add(self.covariance, sigma))
        return self._convolve(factor, norm, self, mu[:, None])[0]

    def integrate_box_1d(self, low: ArrayLike, high: ArrayLike) -> Array:
        """The probability of ``[low, high]`` (one-dimensional data only).

        Raises:
            JaxtypedValueError: ``d != 1``, or a limit that is not a scalar.
        """
        if self.d != 1:
            raise JaxtypedValueError("gaussian_kde.integrate_box_1d: only one-dimensional data")
        if asarray_operand("integrate_box_1d", low).ndim != 0 or asarray_operand("integrate_box_1d", high).ndim != 0:
            raise JaxtypedValueError("gaussian_kde.integrate_box_1d: the limits of integration must be scalars")
        sigma = squeeze(ju.sqrt(self.covariance))
        upper = squeeze(ju.divide(ju.subtract(high, self.dataset), sigma))
        lower = squeeze(ju.divide(ju.subtract(low, self.dataset), sigma))
        return jr.sum(ju.multiply(self.weights, ju.subtract(ndtr(upper), ndtr(lower))))

    def integrate_kde(self, other: "gaussian_kde") -> Array:
        """The integral of the product of this density and ``other``'s.

        Raises:
            JaxtypedValueError: the two are not of the same dimension.
        """
        if other.d != self.d:
            raise JaxtypedValueError("gaussian_kde.integrate_kde: the two estimates have different dimensions")
        factor, norm = self._factor(ju.add(self.covariance, other.covariance))
        small, large = (self, other) if self.n < other.n else (other, self)
        return jr.sum(ju.multiply(self._convolve(factor, norm, large, small.dataset), small.weights))

    def resample(self, key: ArrayLike, shape: tuple[int, ...] = ()) -> Array:
        """Random points from the estimate (``(d, *shape)``): data points
        chosen by weight, plus normal noise of the kernel's covariance."""
        keys = split(key)
        index = choice(keys[0], self.n, shape=shape, p=self.weights)
        noise = multivariate_normal(keys[1], zeros(self.d, self.covariance.dtype), self.covariance, shape=shape, dtype=self.dataset.dtype)
        return ju.add(self.dataset[:, index], transpose(noise))

    def integrate_box(self, low_bounds: ArrayLike, high_bounds: ArrayLike, maxpts: int | None = None) -> Array:
        """Not implemented (as in JAX): use :meth:`integrate_box_1d`.

        Raises:
            JaxtypedNotImplementedError: always.
        """
        raise JaxtypedNotImplementedError("gaussian_kde.integrate_box: only 1D box integrations are supported; use integrate_box_1d")

    def set_bandwidth(self, bw_method: BwMethod = None) -> None:
        """Not implemented (as in JAX): the estimate is immutable.

        Raises:
            JaxtypedNotImplementedError: always.
        """
        raise JaxtypedNotImplementedError("gaussian_kde.set_bandwidth: changing the bandwidth is not supported")
